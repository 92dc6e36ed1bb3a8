package answer

import (
	"fmt"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/wording"
)

// ChunkKind is what a chunk's selector asked for.
type ChunkKind int

const (
	WholeDoc ChunkKind = iota
	SectionChunk
	LinesChunk
)

// Chunk is one header and the lines under it in a get_documents answer: a
// whole doc, one section or one line range, with its selector's effective
// settings, and what the call decided about it.
type Chunk struct {
	Sel     int     // the selector's index in the select list
	Root    *string // the cleaned root it came from; nil for a doc selector
	Doc     *DocText
	Kind    ChunkKind
	Section string // full section id
	From    int    // requested lines, clamped to the file
	To      int
	Images  bool
	Code    bool

	Segments []Segment // From..To split by who returned each line first
	State    ChunkState
	Tokens   int
	// CutTo is the last line returned of a kept chunk cut to fit the
	// budget (0: not cut); its lines after CutTo are left out.
	CutTo int
	// Clip, when not 0, is how many bytes of line CutTo a chunk cut inside
	// that line returns: the line alone was over the budget.
	Clip int
	// CutSection is the section a cut section chunk came from: its header
	// keeps the section's name with the range actually returned.
	CutSection string
}

// Segment is a run of a chunk's lines that one chunk returns: Owner is the
// chunk's own index when the lines are new to the call.
type Segment struct {
	From, To int
	Owner    int
}

// ChunkState is what the call did with a chunk.
type ChunkState int

const (
	Pending ChunkState = iota
	Kept               // rendered into the answer
	Covered            // every line was returned by earlier chunks
	LeftOut            // over the budget
)

// HasNewLines reports that some line of the chunk (index self) is its own.
func (c *Chunk) HasNewLines(self int) bool {
	for _, s := range c.Segments {
		if s.Owner == self {
			return true
		}
	}
	return false
}

// Untrimmed reports that no line of the chunk (index self) went to an
// earlier chunk.
func (c *Chunk) Untrimmed(self int) bool {
	for _, s := range c.Segments {
		if s.Owner != self {
			return false
		}
	}
	return true
}

// CutAt is chunk c's lines up to line to, as a line range.
func (c *Chunk) CutAt(to int) *Chunk {
	cc := *c
	if c.Kind == SectionChunk {
		cc.CutSection = c.Section
	}
	cc.Kind, cc.To, cc.Segments = LinesChunk, to, nil
	for _, s := range c.Segments {
		if s.From > to {
			break
		}
		s.To = min(s.To, to)
		cc.Segments = append(cc.Segments, s)
	}
	return &cc
}

// Header is a chunk's first line, seed 000's form:
//
//	=== auth (backend/auth.md) · L1–57 ===                              whole doc
//	=== auth (backend/auth.md) · section refresh-tokens/rotation · L18–38 ===
//	=== auth (backend/auth.md) · L43–50 ===                             line range
//	=== empty (empty.md) · empty ===                                    a doc with no body
func (c *Chunk) Header() string {
	name := c.Doc.Name()
	switch {
	case c.Kind == SectionChunk:
		return fmt.Sprintf("=== %s · section %s · %s ===", name, c.Section, wording.LineSpan(c.From, c.To))
	case c.Kind == LinesChunk && c.CutSection != "":
		return fmt.Sprintf("=== %s · section %s · %s ===", name, c.CutSection, wording.LineSpan(c.From, c.To))
	case c.Kind == LinesChunk:
		return fmt.Sprintf("=== %s · %s ===", name, wording.LineSpan(c.From, c.To))
	case c.From > c.To:
		return fmt.Sprintf("=== %s · empty ===", name)
	default:
		return fmt.Sprintf("=== %s · %s ===", name, wording.LineSpan(c.From, c.To))
	}
}

// IndexTokens is the index's token figure for a whole doc returned whole.
func (c *Chunk) IndexTokens(self int) (int, bool) {
	if c.Kind != WholeDoc || !c.Doc.Doc.HasTokens || !c.Untrimmed(self) {
		return 0, false
	}
	return c.Doc.Doc.Tokens, true
}

// Estimate is a left-out chunk's token figure, without rendering it.
func (c *Chunk) Estimate(self int) int {
	if t, ok := c.IndexTokens(self); ok {
		return t
	}
	n := len(c.Header()) + 1
	for _, s := range c.Segments {
		if s.Owner == self {
			n += c.Doc.BytesOf(s.From, s.To)
		}
	}
	return domain.EstimateTokens(int64(n))
}

// Describe names a chunk for the overlap notice:
// "auth, whole doc", "auth § login-flow, L5–13", "auth, lines L43–50",
// "root backend: auth, whole doc", "auth, whole doc, cut after L12".
func (c *Chunk) Describe() string {
	if c.Clip > 0 {
		return c.Asked() + fmt.Sprintf(", cut inside L%d", c.CutTo)
	}
	if c.CutTo > 0 {
		return c.Asked() + fmt.Sprintf(", cut after L%d", c.CutTo)
	}
	return c.Asked()
}

// Asked names what a chunk's selector asked for, whether or not it was cut.
func (c *Chunk) Asked() string {
	var b strings.Builder
	if c.Root != nil {
		fmt.Fprintf(&b, "root %s: ", wording.FolderName(*c.Root))
	}
	b.WriteString(c.Doc.Doc.ID)
	switch c.Kind {
	case WholeDoc:
		b.WriteString(", whole doc")
	case SectionChunk:
		fmt.Fprintf(&b, " § %s, %s", c.Section, wording.LineSpan(c.From, c.To))
	case LinesChunk:
		fmt.Fprintf(&b, ", lines %s", wording.LineSpan(c.From, c.To))
	}
	return b.String()
}

// UnmatchedSelectors lists, in order, the indexes of the n selectors of a
// call that no chunk came from: an unknown doc, section or root, a root
// with no doc, lines wholly outside the file, a doc that could not be
// opened. A chunk left out by the budget or covered by an earlier one
// still matched. The command line makes these a finding.
func UnmatchedSelectors(n int, chunks []*Chunk) []int {
	matched := make([]bool, n)
	for _, c := range chunks {
		if c.Sel >= 0 && c.Sel < n {
			matched[c.Sel] = true
		}
	}
	var out []int
	for i, m := range matched {
		if !m {
			out = append(out, i)
		}
	}
	return out
}
