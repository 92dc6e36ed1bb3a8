package passage

import (
	"slices"
	"strings"
)

// The line a section gives its last place to: the one holding a word of
// the question no other line of the section holds.

// withRareLine returns the best section's chosen lines (chosen) with the
// last of them given to the one line of from..to that holds a word of the
// question no other line of the section holds, when none of them holds
// it: a sentence that names the one thing asked ("print the test files
// only") among lines that each repeat the section's topic. Decided on the
// fact eval's tune sets: +5 each way (code lines counted too: +3; web
// addresses counted: +4; in every section's chosen lines, not only the
// best one's: +2, one lost); held out +1 each way.
//
// A chosen line that is itself the one line holding another of the
// question's words keeps its place: the place given is the last chosen
// line that is not ("For an SVG element, it would use `<g>` instead:",
// the only line saying "svg", gave its place to the only one saying
// "pass"); when every chosen line is such a line, none is given. Tune +1
// each way, the fresh sets the same.
//
// The rare word's line is found by whole words only (linesHolding's
// whole): a longer word that only begins with the word asked is another
// word ("prettier" in `.prettierignore`, "pre" in "preinstalled"), and
// the line holding it alone is no line that names what was asked. Which
// chosen line is a sole one still counts such words ("automatically" for
// "auto"), as the line scorer does. Tune +1 each way (a pre-commit
// tool's guarantees: "commit" alone on "1. Changes in commits are always
// formatted.", whose next line is the fact, not ".prettierignore"'s
// line), fresh12-14 the same; with whole words for the sole lines too,
// fresh12 -1 each way.
func (q Question) withRareLine(lines []string, from, to int, chosen []int, shown map[int]bool, block map[int]int) []int {
	if len(chosen) < 2 {
		return chosen
	}
	where := q.linesHolding(lines, from, to, block, false)
	if l := rareLine(q.terms, q.linesHolding(lines, from, to, block, true), chosen, shown); l > 0 {
		sole := map[int]bool{}
		for _, ks := range where {
			if len(ks) == 1 {
				sole[ks[0]] = true
			}
		}
		j := len(chosen) - 1
		for j >= 0 && sole[chosen[j]] {
			j--
		}
		if j < 0 {
			return chosen
		}
		chosen = slices.Clone(chosen)
		chosen[j] = l
	}
	return chosen
}

// rareLine is the one line (linesHolding's where) holding a word of terms
// that no other line holds, nor a chosen one, nor a line shown; the first
// such word in the question's order; 0 when none.
func rareLine(terms []string, where map[string][]int, chosen []int, shown map[int]bool) int {
	for _, t := range terms {
		ks := where[t]
		if len(ks) != 1 || slices.Contains(chosen, ks[0]) || shown[ks[0]] {
			continue
		}
		return ks[0]
	}
	return 0
}

// linesHolding maps each word the question asks (not a related word, nor
// a code name's part) to the lines of from..to (not headings) holding it
// (with whole, as a word of its own, not the start of a longer one).
// Code is not counted, an example's names being the prose's, nor web
// addresses (an advisory's https:// is not the line that says "over
// HTTPS").
func (q Question) linesHolding(lines []string, from, to int, block map[int]int, whole bool) map[string][]int {
	want := make(map[string]bool, len(q.terms))
	for _, t := range q.terms {
		if !q.related[t] && q.group[t] == "" {
			want[t] = true
		}
	}
	where := map[string][]int{}
	for k := max(from, 1); k <= min(to, len(lines)); k++ {
		if block[k] > 0 || isBlankOrFence(lines[k-1]) || strings.HasPrefix(strings.TrimSpace(lines[k-1]), "#") || htmlComment(strings.TrimSpace(lines[k-1])) {
			continue
		}
		seen := map[string]bool{}
		for _, w := range lineTerms(withoutURLs(lines[k-1])) {
			t := q.termOf(w, want)
			if whole && t != w {
				continue // a longer word the term only begins: not the word asked
			}
			if t != "" && want[t] && !seen[t] {
				seen[t] = true
				where[t] = append(where[t], k)
			}
		}
	}
	return where
}
