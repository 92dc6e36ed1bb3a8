package browse

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/answer"
)

// What a client that shows the library to a person needs: the docs to list
// as resources, a doc's or a section's text to read, and the names to
// complete (docs, sections, folders, tags).

// Docs returns the library's docs, in the catalog's order.
func (l *Browser) Docs(ctx context.Context) ([]domain.Document, error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	return cat.Docs, nil
}

// Doc returns the doc a name (id or library path) names; ok is false when
// none does.
func (l *Browser) Doc(ctx context.Context, name string) (domain.Document, bool, error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return domain.Document{}, false, err
	}
	d, ok := docNamed(cat, name)
	return d, ok, nil
}

// Stat returns the stamp of a doc's file as it is now.
func (l *Browser) Stat(ctx context.Context, d domain.Document) (domain.Stamp, error) {
	return l.lib.Stat(ctx, d.Path)
}

// Sections returns the sections of the doc a name names, in document order.
func (l *Browser) Sections(ctx context.Context, name string) ([]domain.Section, error) {
	d, ok, err := l.Doc(ctx, name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: no doc %s", domain.ErrNotFound, name)
	}
	p, err := l.lib.Open(ctx, d)
	if err != nil {
		return nil, err
	}
	return p.Structure.Sections, nil
}

// Folders returns the library's folders that hold docs, and the tags its
// docs carry, each once, in catalog order.
func (l *Browser) Folders(ctx context.Context) (folders, tags []string, err error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return nil, nil, err
	}
	seenF, seenT := map[string]bool{}, map[string]bool{}
	for _, d := range cat.Docs {
		for dir := domain.FolderOf(d.Path); dir != "" && !seenF[dir]; dir = domain.FolderOf(dir) {
			seenF[dir] = true
			folders = append(folders, dir)
		}
		for _, t := range d.Tags {
			if !seenT[t] {
				seenT[t] = true
				tags = append(tags, t)
			}
		}
	}
	return folders, tags, nil
}

// ReadDoc returns a doc's text (or one section's, when section is not
// ""), whole, as get_documents returns it with no budget: verbatim lines
// under their header, images as their placeholder lines. ok is false when
// the library has no such doc or section.
func (l *Browser) ReadDoc(ctx context.Context, name, section string) (text string, ok bool, err error) {
	sel := domain.Selector{Doc: name}
	if section != "" {
		sel.Sections = []string{section}
	}
	noBudget := 0
	ans, err := l.GetDocuments(ctx, GetRequest{Select: []domain.Selector{sel}, IncludeCode: true, MaxTokens: &noBudget})
	if err != nil {
		return "", false, err
	}
	if len(ans.Unmatched) > 0 {
		return "", false, nil
	}
	return answer.Answer{Parts: ans.Parts}.String(), true, nil
}

// ImageList returns the library's images, sorted by name: the image
// index's by id, and the files that standard images of its docs name
// inside the library, once each, by library path (ID and Path; Caption is
// the first alt text or title that names it). A path that is also an
// index id is listed once, as the index's image. None when the library has
// no image store: there is nothing to read them with.
func (l *Browser) ImageList(ctx context.Context) ([]domain.Image, error) {
	store := l.lib.Images()
	if store == nil {
		return nil, nil
	}
	index, err := store.Images(ctx)
	if err != nil {
		return nil, err
	}
	files, err := l.docImages(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]domain.Image, 0, len(index)+len(files))
	for id, img := range index {
		img.ID = id
		out = append(out, img)
	}
	for p, img := range files {
		if _, taken := index[p]; !taken {
			out = append(out, img)
		}
	}
	slices.SortFunc(out, func(a, b domain.Image) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// docImages returns the files the standard images of the library's docs
// name inside it, by library path. Docs that cannot be opened name none.
func (l *Browser) docImages(ctx context.Context) (map[string]domain.Image, error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	parsed, _ := l.lib.OpenAll(ctx, cat.Docs)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	files := map[string]domain.Image{}
	for i, d := range cat.Docs {
		if parsed[i] == nil {
			continue
		}
		for _, stub := range parsed[i].Structure.Images {
			if !stub.Standard() {
				continue
			}
			t := domain.ResolveImage(d.Path, stub.Src)
			if _, seen := files[t.Path]; t.Kind == domain.ImageLocal && !seen {
				files[t.Path] = domain.Image{ID: t.Path, File: t.Path, Path: t.Path, Caption: stub.Caption()}
			}
		}
	}
	return files, nil
}

// ReadImage returns an image's bytes and type, within the library's
// per-image limit: id is an image index id, or the library path of a file
// a standard image of some doc names. ok is false when the library has no
// such image (a file no doc shows is none, even inside the library).
func (l *Browser) ReadImage(ctx context.Context, id string) (data []byte, mime string, ok bool, err error) {
	store := l.lib.Images()
	if store == nil {
		return nil, "", false, nil
	}
	index, err := store.Images(ctx)
	if err != nil {
		return nil, "", false, err
	}
	if _, indexed := index[id]; indexed {
		data, err = store.Read(ctx, id, l.lib.Config().MaxImageBytes)
	} else {
		files, ferr := l.docImages(ctx)
		if ferr != nil {
			return nil, "", false, ferr
		}
		if _, shown := files[id]; !shown {
			return nil, "", false, nil
		}
		data, err = store.ReadFile(ctx, id, l.lib.Config().MaxImageBytes)
	}
	if errors.Is(err, domain.ErrNotFound) || errors.Is(err, domain.ErrRefused) {
		return nil, "", false, nil
	}
	if err != nil {
		return nil, "", false, err
	}
	return data, imageMIME(data), true, nil
}
