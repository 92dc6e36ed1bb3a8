package answer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/librarian/librarian/domain"
)

// The text of one chunk: its header, then each run of its lines new to the
// answer, verbatim, with fence repairs, placeholders and images.

// renderedChunk is a chunk's text and images, and what rendering it found:
// notes (unknown images...) and the images it sent. They count only if the
// chunk is kept.
type renderedChunk struct {
	parts  []Part
	tokens int
	notes  []domain.SelNote
	sent   []sentImage
	// marks are the places the chunk could be cut, in line order.
	marks []LineMark
}

// mark records a place to cut r, when the call has a budget to cut for.
func (g *renderer) mark(r *renderedChunk, line, bytes int, own bool) {
	if g.budget.Max > 0 {
		r.marks = append(r.marks, LineMark{Line: line, Bytes: bytes, Own: own})
	}
}

type sentImage struct {
	id   string
	line int
}

// partWriter builds parts, merging adjacent text.
type partWriter struct {
	parts []Part
	buf   strings.Builder
	n     int // bytes of text written
}

func (w *partWriter) line(s string) {
	w.buf.WriteString(s)
	w.buf.WriteByte('\n')
	w.n += len(s) + 1
}

func (w *partWriter) lineBytes(b []byte) {
	w.buf.Write(b)
	w.buf.WriteByte('\n')
	w.n += len(b) + 1
}

func (w *partWriter) image(img *ImagePart) {
	w.flush()
	w.parts = append(w.parts, Part{Image: img})
}

func (w *partWriter) add(p Part) {
	if p.Image != nil {
		w.image(p.Image)
		return
	}
	w.buf.WriteString(p.Text)
	w.n += len(p.Text)
}

func (w *partWriter) flush() {
	if w.buf.Len() > 0 {
		w.parts = append(w.parts, Part{Text: w.buf.String()})
		w.buf.Reset()
	}
}

func textBytes(parts []Part) int {
	n := 0
	for _, p := range parts {
		n += len(p.Text)
	}
	return n
}

// renderChunk renders one chunk: its header, then each run of lines new to
// the call, with a marker where lines returned earlier are skipped.
func (g *renderer) renderChunk(ci int, c *Chunk) *renderedChunk {
	r := &renderedChunk{}
	var w partWriter
	w.line(c.Header())
	local := map[string]int{}
	for i := 0; i < len(c.Segments); {
		s := c.Segments[i]
		if s.Owner == ci {
			g.renderRun(&w, r, c, s.From, s.To, local)
			i++
			continue
		}
		j := i
		var owners []string
		for ; j < len(c.Segments) && c.Segments[j].Owner != ci; j++ {
			o := fmt.Sprintf("select[%d]", g.call.Chunks[c.Segments[j].Owner].Sel)
			if !slices.Contains(owners, o) {
				owners = append(owners, o)
			}
		}
		w.line(ReturnedAbove(s.From, c.Segments[j-1].To, owners))
		g.mark(r, c.Segments[j-1].To, w.n, false)
		i = j
	}
	w.flush()
	r.parts = w.parts
	if t, ok := c.IndexTokens(ci); ok {
		r.tokens = t
	} else {
		r.tokens = domain.EstimateTokens(int64(textBytes(r.parts)))
	}
	return r
}

// renderRun writes lines a..b of a chunk's doc: verbatim, with fences
// re-balanced where the run cuts a code block, or with each code block
// replaced by a placeholder when code is omitted; images after their line.
func (g *renderer) renderRun(w *partWriter, r *renderedChunk, c *Chunk, a, b int, local map[string]int) {
	dt := c.Doc
	if !c.Code {
		for k := a; k <= b; {
			if blk := dt.BlockAt(k); blk != nil {
				w.line(CodePlaceholder(blk))
				k = min(blk.End, b) + 1
				g.mark(r, k-1, w.n, true)
				continue
			}
			if g.clipped(w, c, k) {
				k++
				continue
			}
			w.lineBytes(dt.Line(k))
			g.renderStubs(w, r, c, k, local)
			g.mark(r, k, w.n, true)
			k++
		}
		return
	}
	for _, l := range dt.OpeningRepair(a) {
		w.line(l)
	}
	for k := a; k <= b; k++ {
		if g.clipped(w, c, k) {
			continue
		}
		w.lineBytes(dt.Line(k))
		g.renderStubs(w, r, c, k, local)
		g.mark(r, k, w.n, true)
	}
	for _, l := range dt.ClosingRepair(b) {
		w.line(l)
	}
}

// clipped writes line k cut inside, when k is the line a chunk cut inside
// (Chunk.Clip): its first Clip bytes, then a marker saying where it was cut
// and what budget the whole line needs. The images of its stubs are not
// sent: the line is not all there. It reports whether it wrote the line.
func (g *renderer) clipped(w *partWriter, c *Chunk, k int) bool {
	if c.Clip <= 0 || k != c.To {
		return false
	}
	line := c.Doc.Line(k)
	w.lineBytes(line[:c.Clip])
	w.line(LineCut(k, c.Clip, len(line), g.call.Budget, LinesTokens(c.Doc, k, k)))
	return true
}
