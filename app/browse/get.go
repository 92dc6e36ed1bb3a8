package browse

import (
	"context"
	"fmt"
	"strings"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
)

// GetRequest is get_documents' arguments.
type GetRequest struct {
	// Select is what to return, in order (domain.ParseSelectors reads it).
	Select []domain.Selector
	// IncludeImages sends the images of `![[image:ID]]` stubs; a selector's
	// own include_images overrides it.
	IncludeImages bool
	// IncludeCode keeps fenced code blocks; when false each becomes a
	// placeholder. The tool's default is true: callers set it. A selector's
	// own include_code overrides it.
	IncludeCode bool
	// MaxTokens is the answer's budget: nil takes LibraryConfig.MaxAnswerTokens,
	// 0 means no budget; negative is an error.
	MaxTokens *int
}

// Answer is get_documents' answer: text and images in document order.
// Adjacent text is merged, so Parts alternates between text and images.
type Answer struct {
	Parts []Part
	// Unmatched are the indexes of the selectors that returned nothing
	// (domain.UnmatchedSelectors); their notes say why.
	Unmatched []int
}

// Part is one piece of an answer: text, or (Image not nil) one image.
type Part struct {
	Text  string
	Image *ImagePart
}

// ImagePart is an image sent at the place of its stub.
type ImagePart struct {
	ID      string
	Caption string
	// File is the image's file relative to the library root (the image
	// index names it relative to its own folder).
	File string
	// MIME is sniffed from the bytes (http.DetectContentType, plus SVG).
	MIME string
	Data []byte
}

// Placeholder is the one-line text that stands for the image where images
// cannot be shown (the command line): it names the file, type and size.
func (p ImagePart) Placeholder() string {
	return fmt.Sprintf("[image %s: %s, %s, %d bytes]", p.ID, p.File, p.MIME, len(p.Data))
}

// String renders the answer as text, each image as its Placeholder line.
func (a Answer) String() string {
	var b strings.Builder
	for _, p := range a.Parts {
		if p.Image != nil {
			b.WriteString(p.Image.Placeholder())
			b.WriteString("\n")
			continue
		}
		b.WriteString(p.Text)
	}
	return b.String()
}

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
func (l *Browser) GetDocuments(ctx context.Context, req GetRequest) (Answer, error) {
	if len(req.Select) == 0 {
		return Answer{}, fmt.Errorf("%w: 'select' is empty: name at least one doc id, path or selector object", domain.ErrInvalidSelector)
	}
	budget := l.lib.Config().MaxAnswerTokens
	if req.MaxTokens != nil {
		budget = *req.MaxTokens
	}
	if budget < 0 {
		return Answer{}, fmt.Errorf("%w: 'max_tokens' must be 0 (no limit) or more, got %d", domain.ErrInvalidArgument, budget)
	}
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return Answer{}, err
	}
	g := &getCall{lib: l, req: req, cat: cat, budget: domain.Budget{Max: budget}, sent: map[string]map[string]int{}, rendered: map[*domain.Chunk]*renderedChunk{}}
	targets, notes := domain.ResolveTargets(cat, req.Select, l.lib.Config().Commands)
	g.notes = append(g.notes, notes...)
	if err := g.openTargets(ctx, targets); err != nil {
		return Answer{}, err
	}
	g.planChunks(targets)
	domain.AssignLines(g.chunks)
	if err := g.renderChunks(ctx); err != nil {
		return Answer{}, err
	}
	ans := capImages(g.answer(), MaxAnswerImageBytes)
	ans.Unmatched = domain.UnmatchedSelectors(len(req.Select), g.chunks)
	return ans, nil
}

// getCall is the state of one get_documents call. Nothing outlives it:
// separate calls remember nothing of each other.
type getCall struct {
	lib    *Browser
	req    GetRequest
	cat    *domain.Catalog
	budget domain.Budget // the budget and what the kept chunks used of it

	docs     map[string]*docText // opened docs by path
	chunks   []*domain.Chunk
	rendered map[*domain.Chunk]*renderedChunk // the kept chunks' text and images
	notes    []domain.SelNote

	images       map[string]domain.Image // the image index, loaded on first use
	imagesLoaded bool
	imagesErr    error

	// sent records, per doc path, the images sent in this call and the
	// line of the stub they were sent at.
	sent map[string]map[string]int
}

func (g *getCall) note(sel int, format string, args ...any) {
	g.notes = append(g.notes, domain.SelNote{Sel: sel, Text: fmt.Sprintf(format, args...)})
}

// openTargets reads and parses every doc the targets name, once each and in
// parallel (from the cache when unchanged).
func (g *getCall) openTargets(ctx context.Context, targets []domain.Target) error {
	var unique []domain.Document
	seen := map[string]bool{}
	for _, t := range targets {
		if !seen[t.Doc.Path] {
			seen[t.Doc.Path] = true
			unique = append(unique, t.Doc)
		}
	}
	parsed, errs := g.lib.lib.OpenAll(ctx, unique)
	if err := ctx.Err(); err != nil {
		return err
	}
	g.docs = make(map[string]*docText, len(unique))
	for i, d := range unique {
		if errs[i] != nil {
			g.docs[d.Path] = &docText{err: errs[i]}
			continue
		}
		dt := domain.NewDocText(d, parsed[i].Content, parsed[i].Structure)
		g.docs[d.Path] = &docText{DocText: dt}
	}
	return nil
}

// docText is an opened doc of the call, or why it could not be opened.
type docText struct {
	*domain.DocText
	err   error // the doc could not be opened
	noted bool  // err is already in Notes
}

// planChunks turns targets into chunks (domain.PlanChunks); a doc that
// could not be opened is noted once.
func (g *getCall) planChunks(targets []domain.Target) {
	for _, t := range targets {
		dt := g.docs[t.Doc.Path]
		if dt.err != nil {
			if !dt.noted {
				dt.noted = true
				g.note(t.Sel, "select[%d]: %s", t.Sel, library.OpenNote(t.Doc, dt.err))
			}
			continue
		}
		chunks, notes := domain.PlanChunks(t, g.req.Select[t.Sel], dt.DocText, g.req.IncludeImages, g.req.IncludeCode)
		g.chunks = append(g.chunks, chunks...)
		g.notes = append(g.notes, notes...)
	}
}

// renderChunks renders chunks in select order while they fit the budget.
// The first that does not is cut to fit when cutToFit says so, else left
// out whole; every later chunk with new lines is left out.
func (g *getCall) renderChunks(ctx context.Context) error {
	cut := false
	for ci, c := range g.chunks {
		if c.State == domain.Covered {
			continue
		}
		if cut {
			c.State = domain.LeftOut
			c.Tokens = c.Estimate(ci)
			continue
		}
		r, err := g.renderChunk(ctx, ci, c)
		if err != nil {
			return err
		}
		c.Tokens = r.tokens
		if !g.budget.Fits(r.tokens) {
			cut = true
			part, to, err := g.cutToFit(ctx, ci, c, r)
			if err != nil {
				return err
			}
			if part == nil {
				c.State = domain.LeftOut
				continue
			}
			if to < c.To || c.Clip > 0 {
				c.CutTo = to
			}
			r = part
		}
		g.keep(c, r)
	}
	return nil
}

// keep puts a rendered chunk in the answer, with its notes and images.
func (g *getCall) keep(c *domain.Chunk, r *renderedChunk) {
	c.State = domain.Kept
	g.rendered[c] = r
	r.marks = nil // only a chunk over the budget is cut
	g.budget.Used += r.tokens
	g.budget.KeptAny = true
	for _, s := range r.sent {
		if g.sent[c.Doc.Doc.Path] == nil {
			g.sent[c.Doc.Doc.Path] = map[string]int{}
		}
		g.sent[c.Doc.Doc.Path][s.id] = s.line
	}
	g.notes = append(g.notes, r.notes...)
}

// cutToFit returns what of chunk ci (r: its whole rendering, over the
// budget) goes in the answer, as domain.PlanCut decides, and the last line
// it holds; nil when the chunk is left out whole.
func (g *getCall) cutToFit(ctx context.Context, ci int, c *domain.Chunk, r *renderedChunk) (*renderedChunk, int, error) {
	full := textBytes(r.parts)
	cut := domain.PlanCut(c, ci, g.budget, full, r.marks)
	switch cut.Kind {
	case domain.CutLeaveOut:
		return nil, 0, nil
	case domain.CutKeepWhole:
		return r, c.To, nil
	case domain.CutKeepMeasured:
		r.tokens = domain.EstimateTokens(int64(full))
		return r, c.To, nil
	}
	cc := c.CutAt(cut.To)
	if cut.Kind == domain.CutInLine {
		c.Clip, cc.Clip = cut.Keep, cut.Keep
	}
	part, err := g.renderChunk(ctx, ci, cc)
	if err != nil {
		return nil, 0, err
	}
	part.tokens = domain.EstimateTokens(int64(textBytes(part.parts)))
	return part, cut.To, nil
}

// answer assembles the kept chunks, separated by blank lines, then the
// Overlaps, Notes and Left out blocks.
func (g *getCall) answer() Answer {
	var w partWriter
	wrote := false
	for _, c := range g.chunks {
		if c.State != domain.Kept {
			continue
		}
		if wrote {
			w.line("")
		}
		wrote = true
		for _, p := range g.rendered[c].parts {
			w.add(p)
		}
	}
	if !wrote {
		w.line(domain.NothingReturned)
	}
	// Notes, then the overlap notice (seed 000: "at the end"), then what the
	// budget left out, which the agent sends next.
	var tail strings.Builder
	domain.WriteNotes(&tail, domain.NoteTexts(g.notes))
	domain.WriteOverlaps(&tail, g.chunks)
	domain.WriteLeftOut(&tail, g.chunks, g.budget.Max, g.budget.Used)
	w.buf.WriteString(tail.String())
	w.flush()
	return Answer{Parts: w.parts}
}
