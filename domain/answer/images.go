package answer

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/wording"
)

// Images is what an answer knows of the library's images, read by the
// caller before rendering: the image index, and the files of the images
// the chunks send (ImagesToRead, FilesToRead).
type Images struct {
	// Index is the image index by id. When it is nil, Unavailable says why
	// no image can be looked up.
	Index map[string]domain.Image
	// Unavailable is why no image is known: "the library has no image
	// index", or "the image index cannot be read: …".
	Unavailable string
	// Files are the images of the index read, by id. An image the chunks
	// send that is not here was not read because the answer's images were
	// already over MaxAnswerImageBytes (see ImagesToRead): it stands as a
	// placeholder saying so.
	Files map[string]ImageFile
	// Local are the files of standard images read, by library path, as
	// Files (FilesToRead).
	Local map[string]ImageFile
	// MaxBytes is the per-image limit the files were read with
	// (LIBRARY_MAX_IMAGE_BYTES), for the placeholder of a larger one.
	MaxBytes int64
}

// ImageFile is one image as it was read.
type ImageFile struct {
	Data []byte
	// MIME is the type sniffed from Data; one that is not image/* is not
	// sent.
	MIME string
	// Err is why it could not be read: domain.ErrTooLarge (over MaxBytes),
	// domain.ErrNotFound, domain.ErrRefused, or another.
	Err error
}

// ImageSource is one image the chunks may send: an image index id, or
// (ID "") the library path of a standard image's file.
type ImageSource struct {
	ID, Path string
}

// ImageSources returns the images the chunks may send, in the order they
// first appear, each once: those on the lines of every chunk that is not
// covered and sends images, that the index knows (a stub) or that name a
// file of the library (a standard image). The caller reads them before
// Render, in this order, so a limit on what it reads keeps the first.
func ImageSources(chunks []*Chunk, index map[string]domain.Image) []ImageSource {
	seen := map[string]bool{}
	var out []ImageSource
	for _, c := range chunks {
		if c.State == Covered || !c.Images || !c.Doc.HasStubs(c.From, c.To) {
			continue
		}
		for k := c.From; k <= c.To; k++ {
			for _, r := range c.Doc.ImagesAt(k) {
				switch _, known := index[r.ID]; {
				case seen[r.key()]:
				case r.ID != "" && known:
					out = append(out, ImageSource{ID: r.ID})
				case r.Local():
					out = append(out, ImageSource{Path: r.Target.Path})
				default:
					continue
				}
				seen[r.key()] = true
			}
		}
	}
	return out
}

// ImagesToRead returns the ids of the index images among ImageSources.
func ImagesToRead(chunks []*Chunk, index map[string]domain.Image) []string {
	var ids []string
	for _, s := range ImageSources(chunks, index) {
		if s.ID != "" {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// FilesToRead returns the library paths of the standard images among
// ImageSources.
func FilesToRead(chunks []*Chunk) []string {
	var paths []string
	for _, s := range ImageSources(chunks, nil) {
		if s.Path != "" {
			paths = append(paths, s.Path)
		}
	}
	return paths
}

// NeedsImageIndex reports whether a chunk that is not covered holds a stub
// of the image index: only then is the image index read.
func NeedsImageIndex(chunks []*Chunk) bool {
	for _, c := range chunks {
		if c.State != Covered && c.Doc.hasIndexStubs(c.From, c.To) {
			return true
		}
	}
	return false
}

// renderStubs writes what stands after line k for each image on it: the
// image, or a one-line placeholder that says why it is not there.
func (g *renderer) renderStubs(w *partWriter, r *renderedChunk, c *Chunk, k int, local map[string]int) {
	dt := c.Doc
	imgs := g.call.Images
	note := func(format string, args ...any) {
		r.notes = append(r.notes, domain.SelNote{Sel: c.Sel, Text: fmt.Sprintf("select[%d]: ", c.Sel) + fmt.Sprintf(format, args...)})
	}
	for _, ref := range dt.ImagesAt(k) {
		var (
			label, caption, file, where string
			f                           ImageFile
			read                        bool
		)
		switch {
		case ref.ID != "":
			img, known := imgs.Index[ref.ID]
			if !known {
				why := "not in the image index"
				if imgs.Index == nil && imgs.Unavailable != "" {
					why = imgs.Unavailable
				}
				w.line(ImageUnknown(ref.ID))
				note("unknown image '%s' in %s L%d: %s", ref.ID, dt.Name(), k, why)
				continue
			}
			label, caption, file = ImageLabel(ref.ID, img.Caption), img.Caption, cmp.Or(img.Path, img.File)
			where = fmt.Sprintf("image '%s' (%s) in %s L%d", ref.ID, img.File, dt.Name(), k)
			f, read = imgs.Files[ref.ID]
		case ref.Target.Kind == domain.ImageRemote:
			w.line(ImageRemote(ImageLabel(ref.name(), ref.Caption)))
			continue
		case ref.Target.Kind == domain.ImageData:
			w.line(ImageData(ImageLabel(ref.name(), ref.Caption)))
			continue
		case ref.Target.Kind != domain.ImageLocal && !c.Images:
			// Not asked for, nothing tried: a site-root path (/images/x.png)
			// in docs written for a web site is common, and a note on every
			// fetch of such a doc would cost tokens for nothing; check
			// reports it.
			w.line(ImageOmitted(ImageLabel(ref.name(), ref.Caption)))
			continue
		case ref.Target.Kind != domain.ImageLocal:
			w.line(ImageUnavailable(ImageLabel(ref.name(), ref.Caption)))
			note("refused: image %s in %s L%d %s", wording.QuoteInput(ref.Src, '\''), dt.Name(), k, ref.Target.Problem)
			continue
		default:
			label, caption, file = ImageLabel(ref.name(), ref.Caption), ref.Caption, ref.Target.Path
			where = fmt.Sprintf("image %s (%s) in %s L%d", wording.QuoteInput(ref.Src, '\''), ref.Target.Path, dt.Name(), k)
			f, read = imgs.Local[ref.Target.Path]
		}
		if !c.Images {
			w.line(ImageOmitted(label))
			continue
		}
		if at, ok := local[ref.key()]; ok {
			w.line(ImageShownAbove(ref.name(), at))
			continue
		}
		if at, ok := g.sent[dt.Doc.Path][ref.key()]; ok {
			w.line(ImageShownAbove(ref.name(), at))
			continue
		}
		switch {
		case !read:
			w.line(ImageOverAnswerLimit(label, MaxAnswerImageBytes))
			continue
		case errors.Is(f.Err, domain.ErrTooLarge):
			w.line(ImageTooLarge(label, imgs.MaxBytes))
			continue
		case f.Err != nil:
			w.line(ImageUnavailable(label))
			note("%s: %s", where, imageProblem(f.Err))
			continue
		case !strings.HasPrefix(f.MIME, "image/"):
			w.line(ImageUnavailable(label))
			note("%s: not an image (its bytes read as %s)", where, f.MIME)
			continue
		}
		w.image(&ImagePart{ID: ref.name(), Caption: caption, File: file, MIME: f.MIME, Data: f.Data})
		local[ref.key()] = k
		r.sent = append(r.sent, sentImage{id: ref.key(), line: k})
	}
}

// imageProblem words why an image could not be read, for a note.
func imageProblem(err error) string {
	switch {
	case errors.Is(err, domain.ErrRefused):
		return fmt.Sprintf("refused: %v", err)
	case errors.Is(err, domain.ErrNotFound):
		return "file not found"
	default:
		return fmt.Sprintf("unreadable: %v", err)
	}
}
