package browse

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/librarian/librarian/domain"
)

// MaxAnswerImageBytes bounds the image bytes of one get_documents answer:
// the text budget does not count images, and a root of docs sharing large
// diagrams could otherwise send tens of megabytes in one result.
const MaxAnswerImageBytes = 10 << 20

// capImages keeps images in answer order while their bytes fit in max and
// turns the rest into one-line placeholders where they stood, saying why.
func capImages(a Answer, max int) Answer {
	total := 0
	var out []Part
	for _, p := range a.Parts {
		if p.Image == nil {
			if n := len(out); n > 0 && out[n-1].Image == nil {
				out[n-1].Text += p.Text
				continue
			}
			out = append(out, p)
			continue
		}
		if total+len(p.Image.Data) <= max {
			total += len(p.Image.Data)
			out = append(out, p)
			continue
		}
		line := domain.ImageOverAnswerLimit(domain.ImageLabel(p.Image.ID, p.Image.Caption), int64(total)) + "\n"
		if n := len(out); n > 0 && out[n-1].Image == nil {
			out[n-1].Text += line
		} else {
			out = append(out, Part{Text: line})
		}
	}
	a.Parts = out
	return a
}

// renderStubs writes what stands after line k for each image stub on it:
// the image, or a one-line placeholder that says why it is not there.
func (g *getCall) renderStubs(ctx context.Context, w *partWriter, r *renderedChunk, c *domain.Chunk, k int, local map[string]int) error {
	dt := c.Doc
	for _, id := range dt.StubsAt(k) {
		img, why := g.image(ctx, id)
		if why != "" {
			w.line(domain.ImageUnknown(id))
			r.notes = append(r.notes, domain.SelNote{Sel: c.Sel, Text: fmt.Sprintf("select[%d]: unknown image '%s' in %s L%d: %s", c.Sel, id, dt.Name(), k, why)})
			continue
		}
		label := domain.ImageLabel(id, img.Caption)
		if !c.Images {
			w.line(domain.ImageOmitted(label))
			continue
		}
		if at, ok := local[id]; ok {
			w.line(domain.ImageShownAbove(id, at))
			continue
		}
		if at, ok := g.sent[dt.Doc.Path][id]; ok {
			w.line(domain.ImageShownAbove(id, at))
			continue
		}
		data, err := g.lib.lib.Images().Read(ctx, id, g.lib.lib.Config().MaxImageBytes)
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		where := fmt.Sprintf("image '%s' (%s) in %s L%d", id, img.File, dt.Name(), k)
		switch {
		case errors.Is(err, domain.ErrTooLarge):
			w.line(domain.ImageTooLarge(label, g.lib.lib.Config().MaxImageBytes))
			continue
		case err != nil:
			w.line(domain.ImageUnavailable(label))
			r.notes = append(r.notes, domain.SelNote{Sel: c.Sel, Text: fmt.Sprintf("select[%d]: %s: %s", c.Sel, where, imageProblem(err))})
			continue
		}
		mime := imageMIME(data)
		if !strings.HasPrefix(mime, "image/") {
			w.line(domain.ImageUnavailable(label))
			r.notes = append(r.notes, domain.SelNote{Sel: c.Sel, Text: fmt.Sprintf("select[%d]: %s: not an image (its bytes read as %s)", c.Sel, where, mime)})
			continue
		}
		w.image(&ImagePart{ID: id, Caption: img.Caption, File: cmp.Or(img.Path, img.File), MIME: mime, Data: data})
		local[id] = k
		r.sent = append(r.sent, sentImage{id: id, line: k})
	}
	return nil
}

// image looks id up in the image index (read once per call); why says why
// it cannot be found.
func (g *getCall) image(ctx context.Context, id string) (domain.Image, string) {
	if g.lib.lib.Images() == nil {
		return domain.Image{}, "the library has no image index"
	}
	if !g.imagesLoaded {
		g.imagesLoaded = true
		g.images, g.imagesErr = g.lib.lib.Images().Images(ctx)
	}
	if g.imagesErr != nil {
		return domain.Image{}, fmt.Sprintf("the image index cannot be read: %v", g.imagesErr)
	}
	img, ok := g.images[id]
	if !ok {
		return domain.Image{}, "not in the image index"
	}
	return img, ""
}

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

// imageMIME sniffs an image's type from its bytes; SVG, which the sniffer
// reads as XML or text, is recognised by its root element.
func imageMIME(data []byte) string {
	mime, _, _ := strings.Cut(http.DetectContentType(data), ";")
	if !strings.HasPrefix(mime, "image/") && (strings.HasPrefix(mime, "text/") || mime == "application/xml") {
		head := data[:min(len(data), 1024)]
		if bytes.Contains(bytes.ToLower(head), []byte("<svg")) {
			return "image/svg+xml"
		}
	}
	return mime
}
