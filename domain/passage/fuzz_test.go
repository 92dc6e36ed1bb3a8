package passage

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzShown: whatever the question, the text and the range, Shown answers
// lines of the range, each once, in order, none a section above showed,
// at most twice n (a line and the short line it announces), and Rank a
// score in [0, 1] per section.
func FuzzShown(f *testing.F) {
	f.Add("how long is a refresh token valid?", "## Refresh\nA refresh token is valid for 30 days:\n\n```\nTTL=30d\n```\n", 1, 6, 2, 3)
	f.Add("which `--flag` turns it off", "- `--no-x` turns x off:\n- `--x`\n", 2, 9, 1, 1)
	f.Add("", "", 0, 0, 0, 0)
	f.Add("does pnpm install -g --x, `a && b()`, -", "`pnpm install -g` no\n", 1, 2, 1, 0)
	f.Add("does fn.when('a').then(1) fire for fn('a', 'b') or f((", "- `fn('a','b')` does not\nfn.when('a').then(1);\n", 1, 3, 2, 0)
	f.Add("will it add \"use strict\" or \u201cx\u201d or \"", "## A\nno\n## B\nit never adds `\"use strict\"`\n", 1, 2, 3, 0)
	f.Fuzz(func(t *testing.T, question, text string, from, to, n, seen int) {
		lines := strings.Split(text, "\n")
		from, to = from%(len(lines)+2), to%(len(lines)+2)
		n = max(n%5, 0)
		q := NewQuestion(question)
		shown := map[int]bool{}
		if seen > 0 {
			shown[seen%(len(lines)+1)] = true
		}
		before := len(shown)
		prior := map[int]bool{}
		for l := range shown {
			prior[l] = true
		}
		got := q.Shown(lines, from, to, n, []int{from}, shown)
		if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Fatalf("Shown = %v: not in order, or a line twice", got)
		}
		if len(got) > 2*max(n, 1) {
			t.Fatalf("Shown = %v: more than twice n = %d", got, n)
		}
		for _, l := range got {
			if prior[l] {
				t.Fatalf("Shown = %v shows line %d, shown above", got, l)
			}
			if len(q.Lines(lines, from, to, n)) > 0 && (l < max(from, 1) || l > min(to, len(lines))) {
				t.Fatalf("Shown = %v: line %d outside %d..%d", got, l, from, to)
			}
		}
		if len(shown) != before+len(got) {
			t.Fatalf("shown holds %d lines, want %d", len(shown), before+len(got))
		}
		// The best section's lines (the following ones, the rare word's):
		// in order, once each, not shown above, within a few per place.
		followed := q.ShownFollowed(lines, from, to, n, []int{from}, maps.Clone(prior))
		if !slices.IsSorted(followed) || len(slices.Compact(slices.Clone(followed))) != len(followed) || len(followed) > (maxFollowedShare+maxNextSentenceLines)*max(n, 1) {
			t.Fatalf("ShownFollowed = %v: not in order, a line twice, or over 6n = %d", followed, (maxFollowedShare+maxNextSentenceLines)*max(n, 1))
		}
		for _, l := range followed {
			if prior[l] {
				t.Fatalf("ShownFollowed = %v shows line %d, shown above", followed, l)
			}
		}
		// The prose lines of a later passage: a subset of what Shown
		// quotes or the one code line a section of code alone gives.
		prose := q.ShownProse(lines, from, to, n, []int{from}, maps.Clone(prior))
		if !slices.IsSorted(prose) || len(slices.Compact(slices.Clone(prose))) != len(prose) || len(prose) > 2*max(n, 1) {
			t.Fatalf("ShownProse = %v: not in order, a line twice, or over 2n = %d", prose, 2*max(n, 1))
		}
		for _, l := range prose {
			if prior[l] || l < max(from, 1) || l > min(to, len(lines)) {
				t.Fatalf("ShownProse = %v shows line %d, shown above or outside %d..%d", prose, l, from, to)
			}
		}
		// A doc's line elsewhere: none, or a line of the doc outside the
		// range quoted and not shown above.
		quoted := func(l int) bool { return l >= from && l <= to || prior[l] }
		if l := q.ElsewhereLine(lines, 1, len(lines), from, to, quoted, ElsewhereShare(1, n+1)); l != 0 && (l < 1 || l > len(lines) || quoted(l)) {
			t.Fatalf("ElsewhereLine = %d: outside 1..%d, or quoted (%d..%d)", l, len(lines), from, to)
		}
		for _, r := range q.Rank([]Span{{Doc: "a", Lines: lines, From: from, To: to}, {Doc: "b", Lines: lines, From: 1, To: len(lines)}}, []float64{1, 0.5}) {
			if r < 0 || r > 1.0000001 {
				t.Fatalf("Rank score %v outside [0, 1]", r)
			}
		}
	})
}

// FuzzWindowWithin: a window lies inside its line, starts and ends on a
// word holding a term, and is no wider than asked unless one word is.
func FuzzWindowWithin(f *testing.F) {
	f.Add("which hash does etag use", "By default, it uses SHA-1 to hash the body; etag digests", 20)
	f.Add("a b c", "", 0)
	f.Fuzz(func(t *testing.T, question, line string, width int) {
		width = max(width%400, 1)
		q := NewQuestion(question)
		from, to, ok := q.WindowWithin(line, width)
		if !ok {
			return
		}
		if from < 0 || to > len(line) || from >= to {
			t.Fatalf("window %d..%d of a %d-byte line", from, to, len(line))
		}
		if n := utf8.RuneCountInString(line[from:to]); n > width && len(q.termWords(line[from:to])) > 1 {
			t.Fatalf("window %q is %d runes, over %d, and holds more than one word", line[from:to], n, width)
		}
	})
}
