package domain

import (
	"sort"
	"strings"
)

// The lines a search answer shows around its hits: context windows merged
// as grep -C merges them, and the header row of a markdown table a hit
// falls in.

// LineWindow is a run of lines [From, To] (1-based, inclusive) shown
// together in a search answer.
type LineWindow struct{ From, To int }

// HitWindows returns the runs of lines to show for hits (line numbers, any
// order): each hit with context lines before and after it, clamped to
// [first, last], and each extra line (a table's header row) alone. Runs
// that overlap or touch are merged, as grep -C merges them, so no line is
// shown twice. The runs come in line order.
func HitWindows(hits, extra []int, context, first, last int) []LineWindow {
	if context < 0 {
		context = 0
	}
	ws := make([]LineWindow, 0, len(hits)+len(extra))
	add := func(from, to int) {
		from, to = max(from, first), min(to, last)
		if from <= to {
			ws = append(ws, LineWindow{from, to})
		}
	}
	for _, h := range hits {
		add(h-context, h+context)
	}
	for _, e := range extra {
		add(e, e)
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].From < ws[j].From })
	out := ws[:0]
	for _, w := range ws {
		if n := len(out); n > 0 && w.From <= out[n-1].To+1 {
			out[n-1].To = max(out[n-1].To, w.To)
			continue
		}
		out = append(out, w)
	}
	return out
}

// maxTableWalk bounds how far up TableHeaderRow looks for a table's start,
// so a hit in a huge table (or a long run of lines with pipes) costs a
// bounded amount.
const maxTableWalk = 2000

// TableHeaderRow returns the line of the header row of the GFM table that
// line is a body row of, and true; false when line is not in a table's
// body (or is its header or delimiter row). text returns a line's text;
// lines before first (frontmatter) are never looked at. The table is the
// run of non-blank lines holding '|' around line, whose second line is a
// delimiter row (| --- | :-: |); the caller rules out lines inside code.
func TableHeaderRow(line, first int, text func(int) string) (int, bool) {
	if !strings.Contains(text(line), "|") || isDelimiterRow(text(line)) {
		return 0, false
	}
	for l := line - 1; l > first && line-l <= maxTableWalk; l-- {
		t := text(l)
		if strings.TrimSpace(t) == "" || !strings.Contains(t, "|") {
			return 0, false
		}
		if isDelimiterRow(t) {
			header := text(l - 1)
			if strings.TrimSpace(header) == "" || !strings.Contains(header, "|") {
				return 0, false
			}
			return l - 1, true
		}
	}
	return 0, false
}

// isDelimiterRow reports whether t is a GFM table's delimiter row: cells
// of dashes, each with optional colons, separated by '|'.
func isDelimiterRow(t string) bool {
	if !strings.Contains(t, "|") {
		return false
	}
	t = strings.TrimSpace(t)
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	if t == "" {
		return false
	}
	for _, cell := range strings.Split(t, "|") {
		c := strings.TrimSpace(cell)
		c = strings.TrimPrefix(c, ":")
		c = strings.TrimSuffix(c, ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// CodeBlockAt returns the index in blocks (in document order, as a
// Structure holds them) of the fenced code block whose content holds line,
// or -1. The fence lines themselves are not content.
func CodeBlockAt(blocks []CodeBlock, line int) int {
	i := sort.Search(len(blocks), func(i int) bool { return blocks[i].Start > line }) - 1
	if i < 0 {
		return -1
	}
	b := blocks[i]
	if line == b.Start || line > b.End || (b.Closed && line == b.End) {
		return -1
	}
	return i
}
