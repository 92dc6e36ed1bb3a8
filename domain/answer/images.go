package answer

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/librarian/librarian/domain"
)

// Images is what an answer knows of the library's images, read by the
// caller before rendering: the image index, and the files of the images
// the chunks send (ImagesToRead).
type Images struct {
	// Index is the image index by id. When it is nil, Unavailable says why
	// no image can be looked up.
	Index map[string]domain.Image
	// Unavailable is why no image is known: "the library has no image
	// index", or "the image index cannot be read: …".
	Unavailable string
	// Files are the images read, by id. An image the chunks send that is
	// not here was not read because the answer's images were already over
	// MaxAnswerImageBytes (see ImagesToRead): it stands as a placeholder
	// saying so.
	Files map[string]ImageFile
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

// ImagesToRead returns the ids of the images the chunks may send, in the
// order they first appear: those of the stubs on the lines of every chunk
// that is not covered and sends images, that the index knows. The caller
// reads them before Render.
func ImagesToRead(chunks []*Chunk, index map[string]domain.Image) []string {
	seen := map[string]bool{}
	var ids []string
	for _, c := range chunks {
		if c.State == Covered || !c.Images || !c.Doc.HasStubs(c.From, c.To) {
			continue
		}
		for k := c.From; k <= c.To; k++ {
			for _, id := range c.Doc.StubsAt(k) {
				if _, known := index[id]; known && !seen[id] {
					seen[id] = true
					ids = append(ids, id)
				}
			}
		}
	}
	return ids
}

// NeedsImageIndex reports whether a chunk that is not covered holds an
// image stub: only then is the image index read.
func NeedsImageIndex(chunks []*Chunk) bool {
	for _, c := range chunks {
		if c.State != Covered && c.Doc.HasStubs(c.From, c.To) {
			return true
		}
	}
	return false
}

// renderStubs writes what stands after line k for each image stub on it:
// the image, or a one-line placeholder that says why it is not there.
func (g *renderer) renderStubs(w *partWriter, r *renderedChunk, c *Chunk, k int, local map[string]int) {
	dt := c.Doc
	imgs := g.call.Images
	for _, id := range dt.StubsAt(k) {
		img, known := imgs.Index[id]
		if !known {
			why := "not in the image index"
			if imgs.Index == nil && imgs.Unavailable != "" {
				why = imgs.Unavailable
			}
			w.line(ImageUnknown(id))
			r.notes = append(r.notes, domain.SelNote{Sel: c.Sel, Text: fmt.Sprintf("select[%d]: unknown image '%s' in %s L%d: %s", c.Sel, id, dt.Name(), k, why)})
			continue
		}
		label := ImageLabel(id, img.Caption)
		if !c.Images {
			w.line(ImageOmitted(label))
			continue
		}
		if at, ok := local[id]; ok {
			w.line(ImageShownAbove(id, at))
			continue
		}
		if at, ok := g.sent[dt.Doc.Path][id]; ok {
			w.line(ImageShownAbove(id, at))
			continue
		}
		f, read := imgs.Files[id]
		where := fmt.Sprintf("image '%s' (%s) in %s L%d", id, img.File, dt.Name(), k)
		switch {
		case !read:
			w.line(ImageOverAnswerLimit(label, MaxAnswerImageBytes))
			continue
		case errors.Is(f.Err, domain.ErrTooLarge):
			w.line(ImageTooLarge(label, imgs.MaxBytes))
			continue
		case f.Err != nil:
			w.line(ImageUnavailable(label))
			r.notes = append(r.notes, domain.SelNote{Sel: c.Sel, Text: fmt.Sprintf("select[%d]: %s: %s", c.Sel, where, imageProblem(f.Err))})
			continue
		case !strings.HasPrefix(f.MIME, "image/"):
			w.line(ImageUnavailable(label))
			r.notes = append(r.notes, domain.SelNote{Sel: c.Sel, Text: fmt.Sprintf("select[%d]: %s: not an image (its bytes read as %s)", c.Sel, where, f.MIME)})
			continue
		}
		w.image(&ImagePart{ID: id, Caption: img.Caption, File: cmp.Or(img.Path, img.File), MIME: f.MIME, Data: f.Data})
		local[id] = k
		r.sent = append(r.sent, sentImage{id: id, line: k})
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
