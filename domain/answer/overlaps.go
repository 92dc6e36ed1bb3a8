package answer

import (
	"fmt"
	"strings"

	"github.com/librarian/librarian/domain/wording"
)

// WriteOverlaps writes one line per pair of overlapping chunks, where the
// earlier one is in the answer:
//
//   - select[1] (auth § login-flow, L5–13) overlaps select[0] (auth, whole doc): L5–13 already returned in select[0]'s chunk.
//
// When the two asked for different code or image settings and the lines
// hold code blocks or image stubs, it says how they were returned. Later
// chunks that overlap the same earlier one in the same way share one line
// (overlapLines); the block is capped at DefaultTailLimits.Overlaps lines.
func WriteOverlaps(b *strings.Builder, chunks []*Chunk) {
	writeCapped(b, "\nOverlaps:\n", overlapLines(chunks), DefaultTailLimits.Overlaps, func(n int) string {
		return fmt.Sprintf("... and %d more %s: the lines each asked for are in the answer once", n, wording.Plural(n, "overlap", "overlaps"))
	})
}

// overlapLines are the Overlaps block's lines: one per earlier chunk a
// later one overlaps, in select order, where the later chunks that ask for
// the same lines with the same settings (the same doc id sent 1,000 times)
// share the first one's line, which names them all.
func overlapLines(chunks []*Chunk) []string {
	type group struct {
		sels       []int
		desc, rest string
	}
	var groups []*group
	byKey := map[string]*group{}
	for ci, c := range chunks {
		if c.State != Kept && c.State != Covered {
			continue
		}
		var owners []int
		ranges := map[int][]Segment{}
		for _, s := range c.Segments {
			if s.Owner == ci || chunks[s.Owner].State != Kept {
				continue
			}
			// Lines past a cut were not returned, by either chunk.
			for _, cutTo := range []int{c.CutTo, chunks[s.Owner].CutTo} {
				if cutTo > 0 {
					s.To = min(s.To, cutTo)
				}
			}
			if s.From > s.To {
				continue
			}
			if _, ok := ranges[s.Owner]; !ok {
				owners = append(owners, s.Owner)
			}
			ranges[s.Owner] = append(ranges[s.Owner], s)
		}
		for _, o := range owners {
			owner := chunks[o]
			var spans []string
			for _, s := range ranges[o] {
				spans = append(spans, wording.LineSpan(s.From, s.To))
			}
			desc := c.Describe()
			rest := fmt.Sprintf("select[%d] (%s): %s already returned in select[%d]'s chunk%s",
				owner.Sel, owner.Describe(), strings.Join(spans, ", "), owner.Sel, settingsDiff(owner, c, ranges[o]))
			key := desc + "\x00" + rest
			if g := byKey[key]; g != nil {
				if g.sels[len(g.sels)-1] != c.Sel {
					g.sels = append(g.sels, c.Sel)
				}
				continue
			}
			g := &group{sels: []int{c.Sel}, desc: desc, rest: rest}
			byKey[key] = g
			groups = append(groups, g)
		}
	}
	lines := make([]string, 0, len(groups))
	for _, g := range groups {
		if len(g.sels) == 1 {
			lines = append(lines, fmt.Sprintf("select[%d] (%s) overlaps %s", g.sels[0], g.desc, g.rest))
			continue
		}
		lines = append(lines, fmt.Sprintf("%s, each (%s), overlap %s", SelectList(g.sels), g.desc, g.rest))
	}
	return lines
}

// settingsDiff says how overlapping lines were returned when the earlier
// chunk's settings differ from the later one's where it matters.
func settingsDiff(owner, c *Chunk, segs []Segment) string {
	anyIn := func(has func(from, to int) bool) bool {
		for _, s := range segs {
			if has(s.From, s.To) {
				return true
			}
		}
		return false
	}
	var how, missing []string
	if owner.Code != c.Code && anyIn(c.Doc.HasCode) {
		if owner.Code {
			how = append(how, "with code blocks (include_code=true)")
		} else {
			how = append(how, "with code blocks omitted (include_code=false)")
			missing = append(missing, "code blocks")
		}
	}
	if owner.Images != c.Images && anyIn(c.Doc.HasStubs) {
		if owner.Images {
			how = append(how, "with images (include_images=true)")
		} else {
			how = append(how, "with images omitted (include_images=false)")
			missing = append(missing, "images")
		}
	}
	if len(how) == 0 {
		return "."
	}
	s := ", " + strings.Join(how, " and ")
	if len(missing) > 0 {
		s += ": ask for them again in a separate call to get the " + strings.Join(missing, " and ")
	}
	return s + "."
}
