package answer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/wording"
)

// The answer's tail: the Notes, Overlaps and Left out blocks after the
// chunks. They count against the budget like the chunks do, so their size
// must be bounded whatever the select list holds: a list of 1,000 copies of
// one doc id would otherwise answer one overlap line per copy (27,000 tokens
// at a 20,000 budget), and 100,000 copies 11 MB. So notes that say the same
// thing of several selectors are one line naming them all, and so are
// overlaps; each block lists at most TailLimits lines, then says how many
// more there are.

// TailLimits cap the lines of each tail block.
type TailLimits struct {
	Notes    int // lines of the Notes block (after grouping)
	Overlaps int // lines of the Overlaps block (after grouping)
	LeftOut  int // ready-to-send selectors of the Left out block
	// NoSelectList drops the Left out block's "As one select list" line,
	// which repeats its selectors: the first thing a small budget gives up.
	NoSelectList bool
}

// DefaultTailLimits are the caps of an answer whose tail fits its budget.
var DefaultTailLimits = TailLimits{Notes: 50, Overlaps: 50, LeftOut: maxLeftItems}

// minTailLimits are the caps a small budget shrinks them to, no further:
// an agent must still learn that there was something to note.
var minTailLimits = TailLimits{Notes: 3, Overlaps: 3, LeftOut: 3}

// shrink drops the select list, then halves the caps, not below
// minTailLimits; ok is false when they were already there.
func (l TailLimits) shrink() (TailLimits, bool) {
	if !l.NoSelectList {
		l.NoSelectList = true
		return l, true
	}
	n := TailLimits{
		NoSelectList: true,
		Notes:        max(l.Notes/2, minTailLimits.Notes),
		Overlaps:     max(l.Overlaps/2, minTailLimits.Overlaps),
		LeftOut:      max(l.LeftOut/2, minTailLimits.LeftOut),
	}
	return n, n != l
}

// writeTail writes the Notes, then the overlap notice (seed 000: "at the
// end"), then what the budget left out, which the agent sends next.
func writeTail(b *strings.Builder, notes []domain.SelNote, chunks []*Chunk, budget, used int, lim TailLimits) {
	writeCapped(b, "\nNotes:\n", GroupNotes(notes), lim.Notes, func(n int) string {
		return fmt.Sprintf("... and %d more %s", n, wording.Plural(n, "note", "notes"))
	})
	writeCapped(b, "\nOverlaps:\n", overlapLines(chunks), lim.Overlaps, func(n int) string {
		return fmt.Sprintf("... and %d more %s: the lines each asked for are in the answer once", n, wording.Plural(n, "overlap", "overlaps"))
	})
	writeLeftOut(b, chunks, budget, used, lim.LeftOut, !lim.NoSelectList)
}

// writeCapped writes a block: its heading, then up to limit lines as list
// items, then more(n) for the n lines past the limit.
func writeCapped(b *strings.Builder, heading string, lines []string, limit int, more func(int) string) {
	if len(lines) == 0 {
		return
	}
	b.WriteString(heading)
	for i, l := range lines {
		if i == limit {
			b.WriteString("- " + more(len(lines)-limit) + "\n")
			break
		}
		b.WriteString("- " + l + "\n")
	}
}

// GroupNotes orders notes by selector (domain.NoteTexts) and merges the
// notes that say the same thing of different selectors into one line that
// names them all: "select[0], select[3]: unknown doc 'x': …".
func GroupNotes(notes []domain.SelNote) []string {
	texts := domain.NoteTexts(notes) // sorts notes in place, as texts are
	// A line is a note as it is (sels nil), or the note of every selector
	// in sels that says rest.
	type line struct {
		rest string
		sels []int
	}
	var lines []*line
	byRest := map[string]*line{}
	for i, n := range notes {
		rest, ok := strings.CutPrefix(texts[i], "select["+strconv.Itoa(n.Sel)+"]: ")
		switch {
		case n.Sel < 0 || !ok:
			lines = append(lines, &line{rest: texts[i]})
		case byRest[rest] != nil:
			byRest[rest].sels = append(byRest[rest].sels, n.Sel)
		default:
			byRest[rest] = &line{rest: rest, sels: []int{n.Sel}}
			lines = append(lines, byRest[rest])
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.rest
		if l.sels != nil {
			out[i] = SelectList(l.sels) + ": " + l.rest
		}
	}
	return out
}

// maxSelectRuns caps the runs SelectList names before it gives the count.
const maxSelectRuns = 6

// SelectList names select indexes (ascending, distinct) compactly: one as
// "select[4]", consecutive ones as a run "select[1]–select[999] (999
// selectors)", a few apart as "select[1], select[4]"; past maxSelectRuns
// runs it names the first ones and the count.
func SelectList(sels []int) string {
	type run struct{ from, to int }
	var runs []run
	for _, s := range sels {
		if n := len(runs); n > 0 && runs[n-1].to+1 == s {
			runs[n-1].to = s
			continue
		}
		runs = append(runs, run{s, s})
	}
	var parts []string
	for i, r := range runs {
		if i == maxSelectRuns {
			parts = append(parts, "…")
			break
		}
		switch {
		case r.from == r.to:
			parts = append(parts, fmt.Sprintf("select[%d]", r.from))
		case r.from+1 == r.to:
			parts = append(parts, fmt.Sprintf("select[%d], select[%d]", r.from, r.to))
		default:
			parts = append(parts, fmt.Sprintf("select[%d]–select[%d]", r.from, r.to))
		}
	}
	s := strings.Join(parts, ", ")
	if len(sels) > 2 && (len(runs) < len(sels)) || len(runs) > maxSelectRuns {
		s += fmt.Sprintf(" (%d selectors)", len(sels))
	}
	return s
}
