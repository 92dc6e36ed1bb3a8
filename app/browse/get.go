package browse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/answer"
)

// GetRequest is get_documents' arguments.
type GetRequest struct {
	// Select is what to return, in order (domain.ParseSelectors reads it).
	Select []domain.Selector
	// IncludeImages sends the images of `![[image:ID]]` stubs and the
	// files of standard markdown images; a selector's own include_images
	// overrides it.
	IncludeImages bool
	// IncludeCode keeps fenced code blocks; when false each becomes a
	// placeholder. The tool's default is true: callers set it. A selector's
	// own include_code overrides it.
	IncludeCode bool
	// MaxTokens is the answer's budget: nil takes library.Config's
	// MaxAnswerTokens, 0 means no budget; negative is an error.
	MaxTokens *int
}

// maxImagesRead bounds the image bytes one call reads before rendering:
// past it, every further image the chunks send stands as a placeholder
// saying the answer's images are over their limit. An answer carries at
// most answer.MaxAnswerImageBytes of them; the margin keeps images read for
// chunks the budget then leaves out from pushing the ones kept over it.
const maxImagesRead = 4 * answer.MaxAnswerImageBytes

// GetDocuments answers get_documents (seed 000): each selector's chunks in
// select order, each chunk a header line then the file's own lines verbatim,
// with placeholders for omitted code blocks and images, fence repairs where
// a range cuts a code block, and images (when asked for) after the line of
// their stub. Lines that an earlier chunk of the same call returned are not
// repeated: an "Overlaps:" block says where they are. Unknown docs, sections
// and images, unreadable files and out-of-range lines go to a "Notes:" block;
// chunks past the token budget are listed as ready-to-send selectors in a
// closing "Left out" block. The first chunk past the budget is cut at a line
// boundary rather than left out whole when a fair share of the budget is
// left (or nothing was returned yet), and its rest is the first selector of
// the Left out block. Only an invalid index, a malformed request or a
// cancelled context fail the call.
//
// It reads what the answer needs, the docs the selectors name and the
// images their chunks send, once each; domain/answer plans and renders the
// text from them.
func (l *Browser) GetDocuments(ctx context.Context, req GetRequest) (answer.Answer, error) {
	if len(req.Select) == 0 {
		return answer.Answer{}, fmt.Errorf("%w: 'select' is empty: name at least one doc id, path or selector object", domain.ErrInvalidSelector)
	}
	budget := l.lib.Config().MaxAnswerTokens
	if req.MaxTokens != nil {
		budget = *req.MaxTokens
	}
	if budget < 0 {
		return answer.Answer{}, fmt.Errorf("%w: 'max_tokens' must be 0 (no limit) or more, got %d", domain.ErrInvalidArgument, budget)
	}
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return answer.Answer{}, err
	}
	targets, notes := domain.ResolveTargets(cat, req.Select, l.lib.Config().Commands)
	docs, err := l.openTargets(ctx, targets)
	if err != nil {
		return answer.Answer{}, err
	}
	var chunks []*answer.Chunk
	noted := map[string]bool{}
	for _, t := range targets {
		dt := docs[t.Doc.Path]
		if dt.err != nil {
			if !noted[t.Doc.Path] {
				noted[t.Doc.Path] = true
				notes = append(notes, domain.SelNote{Sel: t.Sel, Text: fmt.Sprintf("select[%d]: %s", t.Sel, library.OpenNote(t.Doc, dt.err))})
			}
			continue
		}
		planned, planNotes := answer.PlanChunks(t, req.Select[t.Sel], dt.text, req.IncludeImages, req.IncludeCode)
		chunks = append(chunks, planned...)
		notes = append(notes, planNotes...)
	}
	answer.AssignLines(chunks)
	images, err := l.readImages(ctx, chunks)
	if err != nil {
		return answer.Answer{}, err
	}
	return answer.Render(answer.Call{Chunks: chunks, Notes: notes, Budget: budget, Selectors: len(req.Select), Images: images}), nil
}

// openedDoc is a doc the call opened, or why it could not be opened.
type openedDoc struct {
	text *answer.DocText
	err  error
}

// openTargets reads and parses every doc the targets name, once each and in
// parallel (from the cache when unchanged).
func (l *Browser) openTargets(ctx context.Context, targets []domain.Target) (map[string]openedDoc, error) {
	var unique []domain.Document
	seen := map[string]bool{}
	for _, t := range targets {
		if !seen[t.Doc.Path] {
			seen[t.Doc.Path] = true
			unique = append(unique, t.Doc)
		}
	}
	parsed, errs := l.lib.OpenAll(ctx, unique)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	docs := make(map[string]openedDoc, len(unique))
	for i, d := range unique {
		if errs[i] != nil {
			docs[d.Path] = openedDoc{err: errs[i]}
			continue
		}
		docs[d.Path] = openedDoc{text: answer.NewDocText(d, parsed[i].Content, parsed[i].Structure)}
	}
	return docs, nil
}

// readImages reads the image index when a chunk holds one of its stubs,
// and the images the chunks send (answer.ImageSources: indexed images and
// the files of standard images), in order, until maxImagesRead bytes are
// read.
func (l *Browser) readImages(ctx context.Context, chunks []*answer.Chunk) (answer.Images, error) {
	max := l.lib.Config().MaxImageBytes
	imgs := answer.Images{MaxBytes: max}
	store := l.lib.Images()
	if answer.NeedsImageIndex(chunks) {
		switch index, err := l.imageIndex(ctx); {
		case store == nil:
			imgs.Unavailable = "the library has no image index"
		case err != nil:
			imgs.Unavailable = fmt.Sprintf("the image index cannot be read: %v", err)
		default:
			imgs.Index = index
		}
	}
	sources := answer.ImageSources(chunks, imgs.Index)
	if len(sources) == 0 {
		return imgs, nil
	}
	imgs.Files = map[string]answer.ImageFile{}
	imgs.Local = map[string]answer.ImageFile{}
	read := 0
	for _, src := range sources {
		if read > maxImagesRead {
			break
		}
		if src.ID == "" && store == nil {
			imgs.Local[src.Path] = answer.ImageFile{Err: errNoImageFiles}
			continue
		}
		var data []byte
		var err error
		if src.ID != "" {
			data, err = store.Read(ctx, src.ID, max)
		} else {
			data, err = store.ReadFile(ctx, src.Path, max)
		}
		if cerr := ctx.Err(); cerr != nil {
			return answer.Images{}, cerr
		}
		read += len(data)
		f := answer.ImageFile{Data: data, MIME: imageMIME(data), Err: err}
		if src.ID != "" {
			imgs.Files[src.ID] = f
		} else {
			imgs.Local[src.Path] = f
		}
	}
	return imgs, nil
}

// errNoImageFiles is why a standard image is not read in a library served
// from its section index alone, which holds no image files.
var errNoImageFiles = errors.New("the library has no image store to read image files with (it is served from its section index alone)")

// imageIndex returns the image index; nil, nil when the library has no
// image store.
func (l *Browser) imageIndex(ctx context.Context) (map[string]domain.Image, error) {
	store := l.lib.Images()
	if store == nil {
		return nil, nil
	}
	return store.Images(ctx)
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
