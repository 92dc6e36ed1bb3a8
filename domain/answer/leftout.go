package answer

import (
	"fmt"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/wording"
)

// leftItem is one ready-to-send selector of the Left out block.
type leftItem struct {
	sel    domain.Selector
	from   int // the select index it came from
	tokens int
	why    string // said after the selector: the rest of a cut chunk
}

// maxLeftItems caps the Left out list; past it the block says how many more.
const maxLeftItems = 100

// WriteLeftOut lists, as ready-to-send selectors, the chunks the budget
// left out: first the rest of a chunk cut to fit, as line ranges, then a
// root whose docs were all left out whole as itself, else each doc,
// section (consecutive sections of one doc merged) or line range; a chunk
// that lost lines to an earlier chunk as its remaining line ranges. Each
// carries the settings it was asked with where they differ from the tool's
// defaults.
func WriteLeftOut(b *strings.Builder, chunks []*Chunk, budget, used int) {
	writeLeftOut(b, chunks, budget, used, maxLeftItems, true)
}

// writeLeftOut is WriteLeftOut listing at most limit selectors, and the
// "As one select list" line only when oneList.
func writeLeftOut(b *strings.Builder, chunks []*Chunk, budget, used, limit int, oneList bool) {
	var items []leftItem
	total, count := 0, 0
	for ci := 0; ci < len(chunks); ci++ {
		c := chunks[ci]
		if c.State == Kept && c.CutTo > 0 {
			rest := false
			// The rest starts after the cut, or at the line cut inside.
			from, where := c.CutTo+1, "after"
			if c.Clip > 0 {
				from, where = c.CutTo, "inside"
			}
			for _, s := range c.Segments {
				if s.Owner != ci || s.To < from {
					continue
				}
				it := linesItem(c, max(s.From, from), s.To)
				if !rest {
					it.why = fmt.Sprintf(": continues select[%d] (%s), cut %s L%d to fit max_tokens", c.Sel, c.Asked(), where, c.CutTo)
				}
				items = append(items, it)
				rest = true
			}
			if rest {
				count++
			}
			continue
		}
		if c.State != LeftOut {
			continue
		}
		if c.Root != nil {
			if end, ok := wholeRootLeftOut(chunks, ci); ok {
				s := withSettings(domain.Selector{Root: *c.Root, IsRoot: true}, c)
				if *c.Root == "" {
					s.Root = "."
				}
				t := 0
				for _, x := range chunks[ci:end] {
					t += x.Tokens
					count++
				}
				items = append(items, leftItem{sel: s, from: c.Sel, tokens: t})
				ci = end - 1
				continue
			}
		}
		count++
		if !c.Untrimmed(ci) {
			for _, s := range c.Segments {
				if s.Owner == ci {
					items = append(items, linesItem(c, s.From, s.To))
				}
			}
			continue
		}
		var sel domain.Selector
		switch c.Kind {
		case WholeDoc:
			sel = domain.Selector{Doc: c.Doc.Doc.ID}
		case SectionChunk:
			if n := len(items); n > 0 && mergeSection(&items[n-1], c) {
				items[n-1].tokens += c.Tokens
				continue
			}
			sel = domain.Selector{Doc: c.Doc.Doc.ID, Sections: []string{c.Section}}
		case LinesChunk:
			sel = domain.Selector{Doc: c.Doc.Doc.ID, Lines: &domain.LineRange{From: c.From, To: c.To}}
		}
		items = append(items, leftItem{sel: withSettings(sel, c), from: c.Sel, tokens: c.Tokens})
	}
	if len(items) == 0 {
		return
	}
	for _, it := range items {
		total += it.tokens
	}
	fmt.Fprintf(b, "\nLeft out (over max_tokens=%d; ~%d tokens returned): %d %s, ~%d tokens. Send these selectors in another call, or raise max_tokens (0 = no limit):\n",
		budget, used, count, wording.Plural(count, "chunk", "chunks"), total)
	var all []string
	for i, it := range items {
		if i == limit {
			fmt.Fprintf(b, "- ... and %d more: narrow the selectors or raise max_tokens\n", len(items)-limit)
			break
		}
		fmt.Fprintf(b, "- %s (~%d tokens)%s\n", it.sel.JSON(), it.tokens, it.why)
		all = append(all, it.sel.JSON())
	}
	if oneList && len(items) > 1 && len(items) <= limit {
		fmt.Fprintf(b, "As one select list: [%s]\n", strings.Join(all, ", "))
	}
}

// linesItem is lines from..to of chunk c as a left-out line range, with
// the chunk's settings; its figure is what it would cost as its own chunk.
func linesItem(c *Chunk, from, to int) leftItem {
	sel := withSettings(domain.Selector{Doc: c.Doc.Doc.ID, Lines: &domain.LineRange{From: from, To: to}}, c)
	return leftItem{sel: sel, from: c.Sel, tokens: LinesTokens(c.Doc, from, to)}
}

// LinesTokens is what lines from..to of a doc cost as their own chunk.
func LinesTokens(dt *DocText, from, to int) int {
	n := len(fmt.Sprintf("=== %s · %s ===\n", dt.Name(), wording.LineSpan(from, to))) + dt.BytesOf(from, to)
	return domain.EstimateTokens(int64(n))
}

// wholeRootLeftOut reports whether the chunks of the root selector that
// starts at ci are all left out whole, and where they end.
func wholeRootLeftOut(chunks []*Chunk, ci int) (int, bool) {
	sel := chunks[ci].Sel
	if ci > 0 && chunks[ci-1].Sel == sel {
		return 0, false
	}
	end := ci
	for ; end < len(chunks) && chunks[end].Sel == sel; end++ {
		if chunks[end].State != LeftOut || !chunks[end].Untrimmed(end) {
			return 0, false
		}
	}
	return end, true
}

// mergeSection adds c's section to the previous item when both name
// sections of the same doc from the same selector.
func mergeSection(prev *leftItem, c *Chunk) bool {
	if prev.from != c.Sel || prev.sel.Doc != c.Doc.Doc.ID || prev.sel.Sections == nil {
		return false
	}
	prev.sel.Sections = append(prev.sel.Sections, c.Section)
	return true
}

// withSettings adds a chunk's effective settings to a selector where they
// differ from get_documents' defaults (no images, code included), so it
// asks for the same thing in any call.
func withSettings(s domain.Selector, c *Chunk) domain.Selector {
	if c.Images {
		t := true
		s.IncludeImages = &t
	}
	if !c.Code {
		f := false
		s.IncludeCode = &f
	}
	return s
}
