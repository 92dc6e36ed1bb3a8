package answer

import (
	"bytes"
	"unicode/utf8"
)

// Budget is a get_documents call's token budget as it stands: Max (0: no
// budget), the tokens the kept chunks Used, and whether any chunk is kept
// (its figure may be 0).
type Budget struct {
	Max     int
	Used    int
	KeptAny bool
}

// Fits reports whether a chunk of tokens fits in what is left.
func (b Budget) Fits(tokens int) bool { return b.Max <= 0 || b.Used+tokens <= b.Max }

// LineMark is a place to cut a rendered chunk: after Line (with what
// follows it: image lines, an omitted block's placeholder, a marker), at
// Bytes of text from the chunk's start. Own is false after a marker for
// lines returned earlier, where no fence needs closing.
type LineMark struct {
	Line  int
	Bytes int
	Own   bool
}

// CutKind is what goes in the answer of the first chunk over the budget.
type CutKind int

const (
	// CutLeaveOut leaves the chunk out whole.
	CutLeaveOut CutKind = iota
	// CutKeepWhole keeps the whole rendering at its figure.
	CutKeepWhole
	// CutKeepMeasured keeps the whole rendering, its figure re-measured as
	// its real bytes / 4.
	CutKeepMeasured
	// CutLines keeps the chunk's lines up to Cut.To, rendered as
	// Chunk.CutAt(To) would be and measured by its real bytes / 4.
	CutLines
	// CutInLine keeps the chunk's lines up to Cut.To, of line To only its
	// first Cut.Keep bytes (then a LineCut marker): that line alone is
	// over the budget, and nothing was returned yet.
	CutInLine
)

// Cut is the decision about the first chunk over the budget.
type Cut struct {
	Kind CutKind
	To   int // CutLines, CutInLine: the last line kept
	Keep int // CutInLine: the bytes kept of line To
}

// MinLineCut is the fewest bytes of a line cut inside: a budget too small
// for that much still gets it, and a line no longer is never cut.
const MinLineCut = 200

// PlanCut decides what of chunk c (index self; its whole rendering has
// fullBytes of text and the cut places marks, in line order) goes in the
// answer when it is over budget b. It cuts only when at least an eighth of
// the budget is left, or always when nothing was returned yet: an agent
// must get something back from any call, or it could never read a doc
// bigger than the budget. The cut is a line range from the chunk's first
// line, rendered as a "lines" selector would be (fence repairs,
// placeholders, markers), measured by its real bytes / 4: the index's
// figure is for the whole doc, and decided only that it must be cut. So a
// small file that the index overrates comes back whole, at its bytes / 4.
// The cut takes as many lines as fit, but ends before a section heading
// when one starts in the last quarter of the allowance, and never just
// after a code block's opening fence. When not even one line fits and
// nothing was returned yet, the first line goes out anyway.
func PlanCut(c *Chunk, self int, b Budget, fullBytes int, marks []LineMark) Cut {
	if c.From > c.To { // an empty doc: nothing to cut
		if b.KeptAny {
			return Cut{Kind: CutLeaveOut}
		}
		return Cut{Kind: CutKeepWhole}
	}
	left := b.Max - b.Used
	if b.KeptAny && left*8 < b.Max {
		return Cut{Kind: CutLeaveOut}
	}
	allow := 4 * left // bytes that estimate to at most left tokens
	if fullBytes <= allow {
		return Cut{Kind: CutKeepMeasured}
	}
	firstOwn := 0
	for _, s := range c.Segments {
		if s.Owner == self {
			firstOwn = s.From
			break
		}
	}
	headings := map[int]bool{}
	for _, sec := range c.Doc.Structure.Sections {
		headings[sec.Start] = true
	}
	skip := len(c.Header()) + 1 // the marks count the whole chunk's header
	smallest, smallestCost, best, atHeading := 0, 0, 0, 0
	for _, m := range marks {
		if m.Line < firstOwn || m.Line >= c.To {
			continue
		}
		cost := len(c.CutAt(m.Line).Header()) + 1 + m.Bytes - skip
		if smallest == 0 {
			smallest, smallestCost = m.Line, cost
		}
		if m.Own && c.Code {
			if blk := c.Doc.BlockAt(m.Line); blk != nil && blk.Start == m.Line && m.Line < blk.End {
				continue // the block's opening fence alone: an empty block
			}
			for _, l := range c.Doc.ClosingRepair(m.Line) {
				cost += len(l) + 1
			}
		}
		if cost > allow {
			continue // a fence repair may make a cut dearer than a later one
		}
		if endsOnBareHeading(c, headings, firstOwn, m.Line) {
			continue // a heading without a line of its body tells nothing
		}
		best = m.Line
		if headings[m.Line+1] && 4*cost >= 3*allow {
			atHeading = m.Line
		}
	}
	switch {
	case atHeading > 0:
		return Cut{Kind: CutLines, To: atHeading}
	case best > 0:
		return Cut{Kind: CutLines, To: best}
	case b.KeptAny:
		return Cut{Kind: CutLeaveOut}
	case smallest == 0: // one line, or one omitted block: it goes whole...
		if c.From == c.To {
			return cutInLine(c, c.To, fullBytes, allow) // ...unless the line alone is over
		}
		return Cut{Kind: CutKeepWhole}
	default:
		return cutInLine(c, smallest, smallestCost, allow)
	}
}

// endsOnBareHeading reports that a cut after line to would end with a
// section heading and only blank lines after it: the cut is better made
// before the heading, where the Left out selector then starts.
func endsOnBareHeading(c *Chunk, headings map[int]bool, from, to int) bool {
	for k := to; k >= from; k-- {
		if headings[k] {
			return true
		}
		if len(bytes.TrimSpace(c.Doc.Line(k))) > 0 {
			return false
		}
	}
	return false
}

// cutInLine keeps lines up to to of chunk c, whose rendering up to there
// costs cost bytes: whole when it fits in allow bytes or line to is no
// longer than MinLineCut, or is an omitted block's placeholder; else cut
// inside line to, keeping what fits (at least MinLineCut bytes), at a
// character boundary. A one-line doc of a million characters fetched with
// max_tokens 100 so comes back as about 400 bytes and a marker, not whole.
func cutInLine(c *Chunk, to, cost, allow int) Cut {
	whole := Cut{Kind: CutLines, To: to}
	if to == c.To && c.From == c.To {
		whole = Cut{Kind: CutKeepWhole}
	}
	if cost <= allow || !c.Code && c.Doc.BlockAt(to) != nil {
		return whole
	}
	line := c.Doc.Line(to)
	keep := max(allow-(cost-len(line)), MinLineCut)
	if keep >= len(line) {
		return whole
	}
	for keep > 0 && !utf8.RuneStart(line[keep]) {
		keep--
	}
	return Cut{Kind: CutInLine, To: to, Keep: keep}
}
