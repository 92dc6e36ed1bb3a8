package browse

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/answer"
	"github.com/librarian/librarian/domain/wording"
)

// CheckReport is what `librarian check` finds in a library that passed
// index validation: docs refused or missing, image stubs naming no image,
// and images whose file is missing, outside the library root, refused or
// not an image (standard markdown images and the index's alike).
type CheckReport struct {
	Docs     int      // docs checked
	Problems []string // each a line for a person
	// ProblemDocs counts the docs (or index entries refused before they
	// became docs) that have at least one problem.
	ProblemDocs int
	// Warnings are worth a look but fail nothing (domain.Catalog.Warnings).
	Warnings []string
}

// Text renders the report for a person: every problem, then the warnings.
func (r CheckReport) Text() string { return r.TextMax(0, "") }

// Check validates the whole library, for a docs repository's CI. An index
// that fails validation is returned as the error (every problem listed);
// everything else it finds is in the report.
func (l *Browser) Check(ctx context.Context) (CheckReport, error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return CheckReport{}, err
	}
	rep := CheckReport{Docs: len(cat.Docs), Problems: append([]string(nil), cat.Notes...), Warnings: cat.Warnings}
	withProblems := map[string]bool{} // by doc path, or the entry a catalog note names
	for _, n := range cat.Notes {
		withProblems[noteSubject(n)] = true
	}
	parsed, errs := l.lib.OpenAll(ctx, cat.Docs)
	index, err := l.imageIndex(ctx)
	if err != nil {
		return CheckReport{}, err
	}
	files := &imageFiles{lib: l, read: map[string]imageFile{}}
	for i, d := range cat.Docs {
		if errs[i] != nil {
			rep.Problems = append(rep.Problems, library.OpenNote(d, errs[i]))
			withProblems[d.Path] = true
			continue
		}
		for _, stub := range parsed[i].Structure.Images {
			problem, warning := files.check(ctx, d, stub, index)
			if err := ctx.Err(); err != nil {
				return CheckReport{}, err
			}
			if problem != "" {
				rep.Problems = append(rep.Problems, problem)
				withProblems[d.Path] = true
			}
			if warning != "" {
				rep.Warnings = append(rep.Warnings, warning)
			}
		}
	}
	if files.unread > 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d standard %s not checked: %v",
			files.unread, wording.Plural(files.unread, "image", "images"), errNoImageFiles))
	}
	rep.ProblemDocs = len(withProblems)
	return rep, nil
}

// imageFiles reads each image file check looks at once, however many docs
// show it.
type imageFiles struct {
	lib    *Browser
	read   map[string]imageFile // by image index id, or "\x00" and a library path
	unread int                  // standard images not checked: no image store
}

// imageFile is what reading one image's file gave: its sniffed type, or
// why it could not be read.
type imageFile struct {
	mime string
	err  error
}

func (f *imageFiles) get(ctx context.Context, key string, read func() ([]byte, error)) imageFile {
	if got, ok := f.read[key]; ok {
		return got
	}
	data, err := read()
	got := imageFile{err: err}
	if err == nil {
		got.mime = imageMIME(data)
	}
	f.read[key] = got
	return got
}

// check words what is wrong with one image of doc d, as get_documents
// would meet it with include_images: a problem (a stub the index lacks, a
// missing file, a path outside the library root or refused, bytes that
// are not an image) or a warning (a file over the per-image limit, served
// as a placeholder). Remote and data: images are not checked: nothing is
// ever fetched.
func (f *imageFiles) check(ctx context.Context, d domain.Document, stub domain.ImageStub, index map[string]domain.Image) (problem, warning string) {
	store := f.lib.lib.Images()
	max := f.lib.lib.Config().MaxImageBytes
	at := fmt.Sprintf("%s (%s) L%d", d.ID, d.Path, stub.Line)
	var (
		what string // the image as the report names it
		got  imageFile
	)
	if !stub.Standard() {
		if _, known := index[stub.ID]; !known {
			return fmt.Sprintf("unknown image: %s: ![[image:%s]] is not in the image index", at, stub.ID), ""
		}
		what = fmt.Sprintf("![[image:%s]] (%s)", stub.ID, index[stub.ID].Path)
		got = f.get(ctx, stub.ID, func() ([]byte, error) { return store.Read(ctx, stub.ID, max) })
	} else {
		src := wording.QuoteInput(stub.Src, '\'')
		target := domain.ResolveImage(d.Path, stub.Src)
		switch {
		case target.Kind == domain.ImageRefused && target.Outside:
			return fmt.Sprintf("image outside the library root: %s: %s %s", at, src, target.Problem), ""
		case target.Kind == domain.ImageRefused:
			return fmt.Sprintf("refused image: %s: %s %s", at, src, target.Problem), ""
		case target.Kind != domain.ImageLocal:
			return "", ""
		case store == nil:
			f.unread++
			return "", ""
		}
		what = fmt.Sprintf("%s (%s)", src, target.Path)
		got = f.get(ctx, "\x00"+target.Path, func() ([]byte, error) { return store.ReadFile(ctx, target.Path, max) })
	}
	switch err := got.err; {
	case err == nil && !strings.HasPrefix(got.mime, "image/"):
		return fmt.Sprintf("unsupported image type: %s: %s reads as %s, not an image", at, what, got.mime), ""
	case err == nil:
		return "", ""
	case errors.Is(err, domain.ErrTooLarge):
		return "", fmt.Sprintf("image over the size limit: %s: %s is larger than %s (LIBRARY_MAX_IMAGE_BYTES): answers show a placeholder",
			at, what, answer.FormatBytes(max))
	case errors.Is(err, domain.ErrNotFound):
		return fmt.Sprintf("missing image: %s: %s: file not found", at, what), ""
	case errors.Is(err, domain.ErrOutsideRoot):
		return fmt.Sprintf("image outside the library root: %s: %s: %v", at, what, err), ""
	case errors.Is(err, domain.ErrRefused):
		return fmt.Sprintf("refused image: %s: %s: %v", at, what, err), ""
	default:
		return fmt.Sprintf("unreadable image: %s: %s: %v", at, what, err), ""
	}
}

// noteSubject is the entry a catalog note is about: index sources word
// their notes with the doc's path, or its index entry, first between
// single quotes ("frontmatter: 'a/b.md': ...", "refused: 'evil.md' ...",
// "missing: documents[7] (id 'gone'): ..."). A note naming nothing so is
// its own subject.
func noteSubject(note string) string {
	if _, rest, ok := strings.Cut(note, "'"); ok {
		if subject, _, ok := strings.Cut(rest, "'"); ok && subject != "" {
			return subject
		}
	}
	return note
}
