package answer

import (
	"strings"

	"github.com/librarian/librarian/domain"
)

// KeptChunk is one chunk an answer returns, as data (for a script: the
// command line's get --json): the selector it came from, its doc, the
// section a section selector asked for, the lines it returns and their
// text as the answer renders it, below its header line.
type KeptChunk struct {
	Sel      int // the selector's index in the select list
	Doc      domain.Document
	Section  string // full section id; "" for a whole doc or a line range
	From, To int    // the lines returned (a chunk cut by the budget ends early)
	Header   string // its "=== … ===" line
	// Text is its lines as rendered (code and image placeholders, fence
	// repairs, lines already sent as placeholders); an image sent here
	// reads as its Placeholder line.
	Text string
}

// keptChunks lists the chunks the answer returns, in answer order, and
// whether the budget left any out (wholly or past a cut).
func (r *renderer) keptChunks() ([]KeptChunk, bool) {
	var kept []KeptChunk
	truncated := false
	for _, c := range r.call.Chunks {
		switch c.State {
		case LeftOut:
			truncated = true
			continue
		case Kept:
		default:
			continue
		}
		// A chunk the budget cut was rendered as its lines up to CutTo,
		// under that range's header.
		shown := c
		if c.CutTo > 0 {
			shown, truncated = c.CutAt(c.CutTo), true
		}
		k := KeptChunk{Sel: c.Sel, Doc: c.Doc.Doc, Section: c.Section, From: shown.From, To: shown.To, Header: shown.Header()}
		if shown.Kind == LinesChunk && shown.CutSection != "" {
			k.Section = shown.CutSection
		}
		var b strings.Builder
		for _, p := range r.rendered[c].parts {
			if p.Image != nil {
				b.WriteString(p.Image.Placeholder())
				b.WriteString("\n")
				continue
			}
			b.WriteString(p.Text)
		}
		k.Text = strings.TrimPrefix(b.String(), k.Header+"\n")
		kept = append(kept, k)
	}
	return kept, truncated
}
