// Package answer is the get_documents answer, as a pure function of the
// documents' text: chunks planned from targets (PlanChunks), each line owned
// by the first chunk that returns it (AssignLines, the Overlaps block), the
// budget's cut at a line or inside one (PlanCut, the Left out block), and the
// text itself (Render): headers, verbatim lines, fence repairs, code and image
// placeholders, images after their stub's line. The caller reads the files and
// the images the chunks send (ImagesToRead) and hands them in; nothing here
// reads, waits or fails. It imports the domain core and the standard library.
package answer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/librarian/librarian/domain"
)

// Answer is get_documents' answer: text and images in document order.
// Adjacent text is merged, so Parts alternates between text and images.
type Answer struct {
	Parts []Part
	// Unmatched are the indexes of the selectors that returned nothing
	// (UnmatchedSelectors); their notes say why.
	Unmatched []int
	// Chunks are the chunks returned, as data; Truncated is set when the
	// budget left something out (the Left out block says what); Notes are
	// the Notes block's lines.
	Chunks    []KeptChunk
	Truncated bool
	Notes     []string
}

// Part is one piece of an answer: text, or (Image not nil) one image.
type Part struct {
	Text  string
	Image *ImagePart
}

// ImagePart is an image sent at the place of its stub.
type ImagePart struct {
	// ID is the image index id, or a standard image's library path.
	ID      string
	Caption string
	// File is the image's file relative to the library root (the image
	// index names it relative to its own folder).
	File string
	// MIME is sniffed from the bytes (by the reader: see ImageFile).
	MIME string
	Data []byte
}

// Placeholder is the one-line text that stands for the image where images
// cannot be shown (the command line): it names the file, type and size. A
// standard image is named by its file alone.
func (p ImagePart) Placeholder() string {
	if p.ID == p.File {
		return fmt.Sprintf("[image %s: %s, %d bytes]", p.File, p.MIME, len(p.Data))
	}
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

// MaxAnswerImageBytes bounds the image bytes of one get_documents answer:
// the text budget does not count images, and a root of docs sharing large
// diagrams could otherwise send tens of megabytes in one result.
const MaxAnswerImageBytes = 10 << 20

// Call is everything one get_documents answer is rendered from.
type Call struct {
	// Chunks are PlanChunks' chunks in select order, their lines assigned
	// (AssignLines). Render records on each what the answer did with it.
	Chunks []*Chunk
	// Notes are the call's notes so far (unknown docs, sections...).
	Notes []domain.SelNote
	// Budget is max_tokens: 0 is no budget.
	Budget int
	// Selectors is how many selectors the call had (for Unmatched).
	Selectors int
	// Images are the image index and the files the chunks send.
	Images Images
}

// Render renders the answer: the chunks in select order while they fit
// the budget (the first that does not is cut to fit when PlanCut says so,
// else left out whole; every later chunk with new lines is left out), then
// the Notes, Overlaps and Left out blocks, and images past the answer's
// image limit turned into placeholders.
//
// The blocks after the chunks count against the budget too. When chunks
// and blocks together are over it, the chunks are rendered again with the
// blocks' size taken off the budget first (the blocks change with what is
// left out, so a few rounds, each narrowing the chunks' share), and blocks
// longer than half the budget list fewer lines (TailLimits.shrink). Only
// an answer that returns nothing else may go over, by its bounded blocks:
// an agent must always learn why it got nothing.
func Render(c Call) Answer {
	saved := saveChunkStates(c.Chunks)
	lim := DefaultTailLimits
	share := c.Budget // the chunks' share of the budget
	var r *renderer
	for round := 0; ; round++ {
		r = &renderer{call: c, budget: Budget{Max: share}, notes: c.Notes,
			sent: map[string]map[string]int{}, rendered: map[*Chunk]*renderedChunk{}}
		r.renderChunks()
		if c.Budget <= 0 || round == maxBudgetRounds {
			break
		}
		tail := r.tailTokens(lim)
		for tail*2 > c.Budget {
			smaller, ok := lim.shrink()
			if !ok {
				break
			}
			lim = smaller
			tail = r.tailTokens(lim)
		}
		over := r.budget.Used + tail - c.Budget
		if over <= 0 || share <= 1 {
			break
		}
		share = max(min(share-over, c.Budget-tail), 1)
		restoreChunkStates(c.Chunks, saved)
	}
	ans := capImages(r.answer(c.Budget, lim), MaxAnswerImageBytes)
	ans.Unmatched = UnmatchedSelectors(c.Selectors, c.Chunks)
	ans.Chunks, ans.Truncated = r.keptChunks()
	ans.Notes = domain.NoteTexts(r.notes)
	return ans
}

// maxBudgetRounds bounds Render's re-renderings: each takes the blocks'
// size off the chunks' share, and the blocks are capped, so the share
// settles in one or two.
const maxBudgetRounds = 4

// chunkState is what rendering changes on a chunk, to undo it.
type chunkState struct {
	state       ChunkState
	tokens      int
	cutTo, clip int
}

func saveChunkStates(chunks []*Chunk) []chunkState {
	s := make([]chunkState, len(chunks))
	for i, c := range chunks {
		s[i] = chunkState{c.State, c.Tokens, c.CutTo, c.Clip}
	}
	return s
}

func restoreChunkStates(chunks []*Chunk, s []chunkState) {
	for i, c := range chunks {
		c.State, c.Tokens, c.CutTo, c.Clip = s[i].state, s[i].tokens, s[i].cutTo, s[i].clip
	}
}

// renderer is the state of one answer's rendering.
type renderer struct {
	call     Call
	budget   Budget // the budget and what the kept chunks used of it
	notes    []domain.SelNote
	rendered map[*Chunk]*renderedChunk // the kept chunks' text and images
	// sent records, per doc path, the images sent in this answer and the
	// line of the stub they were sent at.
	sent map[string]map[string]int
}

// renderChunks renders chunks in select order while they fit the budget.
func (r *renderer) renderChunks() {
	cut := false
	for ci, c := range r.call.Chunks {
		if c.State == Covered {
			continue
		}
		if cut {
			c.State = LeftOut
			c.Tokens = c.Estimate(ci)
			continue
		}
		rc := r.renderChunk(ci, c)
		c.Tokens = rc.tokens
		if !r.budget.Fits(rc.tokens) {
			cut = true
			part, to := r.cutToFit(ci, c, rc)
			if part == nil {
				c.State = LeftOut
				continue
			}
			if to < c.To || c.Clip > 0 {
				c.CutTo = to
			}
			rc = part
		}
		r.keep(c, rc)
	}
}

// keep puts a rendered chunk in the answer, with its notes and images.
func (r *renderer) keep(c *Chunk, rc *renderedChunk) {
	c.State = Kept
	r.rendered[c] = rc
	rc.marks = nil // only a chunk over the budget is cut
	r.budget.Used += rc.tokens
	r.budget.KeptAny = true
	for _, s := range rc.sent {
		if r.sent[c.Doc.Doc.Path] == nil {
			r.sent[c.Doc.Doc.Path] = map[string]int{}
		}
		r.sent[c.Doc.Doc.Path][s.id] = s.line
	}
	r.notes = append(r.notes, rc.notes...)
}

// cutToFit returns what of chunk ci (rc: its whole rendering, over the
// budget) goes in the answer, as PlanCut decides, and the last line it
// holds; nil when the chunk is left out whole.
func (r *renderer) cutToFit(ci int, c *Chunk, rc *renderedChunk) (*renderedChunk, int) {
	full := textBytes(rc.parts)
	cut := PlanCut(c, ci, r.budget, full, rc.marks)
	switch cut.Kind {
	case CutLeaveOut:
		return nil, 0
	case CutKeepWhole:
		return rc, c.To
	case CutKeepMeasured:
		rc.tokens = domain.EstimateTokens(int64(full))
		return rc, c.To
	}
	cc := c.CutAt(cut.To)
	if cut.Kind == CutInLine {
		c.Clip, cc.Clip = cut.Keep, cut.Keep
	}
	part := r.renderChunk(ci, cc)
	part.tokens = domain.EstimateTokens(int64(textBytes(part.parts)))
	return part, cut.To
}

// tailText is the Notes, Overlaps and Left out blocks as they stand, for
// an answer whose budget is budget.
func (r *renderer) tailText(budget int, lim TailLimits) string {
	var tail strings.Builder
	writeTail(&tail, slices.Clone(r.notes), r.call.Chunks, budget, r.budget.Used, lim)
	return tail.String()
}

// tailTokens is what the blocks after the chunks cost.
func (r *renderer) tailTokens(lim TailLimits) int {
	return domain.EstimateTokens(int64(len(r.tailText(r.call.Budget, lim))))
}

// answer assembles the kept chunks, separated by blank lines, then the
// Notes, Overlaps and Left out blocks (the call's budget named in it).
func (r *renderer) answer(budget int, lim TailLimits) Answer {
	var w partWriter
	wrote := false
	for _, c := range r.call.Chunks {
		if c.State != Kept {
			continue
		}
		if wrote {
			w.line("")
		}
		wrote = true
		for _, p := range r.rendered[c].parts {
			w.add(p)
		}
	}
	if !wrote {
		w.line(NothingReturned)
	}
	w.buf.WriteString(r.tailText(budget, lim))
	w.flush()
	return Answer{Parts: w.parts}
}

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
		line := ImageOverAnswerLimit(ImageLabel(p.Image.ID, p.Image.Caption), int64(total)) + "\n"
		if n := len(out); n > 0 && out[n-1].Image == nil {
			out[n-1].Text += line
		} else {
			out = append(out, Part{Text: line})
		}
	}
	a.Parts = out
	return a
}
