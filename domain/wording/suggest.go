package wording

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Suggest returns the candidates a mistyped name most likely meant, best
// first, at most limit of them: for "did you mean" hints on unknown docs,
// sections and folders. Matching ignores case and compares name with each
// candidate whole and with its last '/'-segment (so "buton" finds
// "daisyui/components/button"). A candidate is near when
//   - its edit distance to name is within the typo allowance (1 for names
//     of up to 4 characters, 2 up to 8, 3 beyond; a swap of two neighbours
//     counts as one edit, so "auht" finds "auth"), or
//   - one contains the other (3 characters at least: "auth" finds
//     "auth-middleware"), when no candidate is near as a typo; a name
//     with a '/' is not near the candidates it merely contains (its
//     parent folders).
//
// Closer candidates come first; ties keep the candidates' order. Name and
// candidates are compared as written: callers clean paths first.
func Suggest(name string, candidates []string, limit int) []string {
	want := strings.ToLower(strings.TrimSpace(name))
	if want == "" || limit <= 0 {
		return nil
	}
	allowance := typoAllowance(want)
	type near struct {
		cand  string
		score int
		order int
	}
	var found []near
	seen := map[string]bool{}
	for i, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		score, ok := nearness(want, strings.ToLower(c), allowance)
		if ok {
			found = append(found, near{c, score, i})
		}
	}
	sort.SliceStable(found, func(a, b int) bool { return found[a].score < found[b].score })
	var out []string
	for _, f := range found {
		if len(out) == limit || f.score > allowance && len(out) > 0 {
			break // containment only when no typo is near: "backend/storag" means storage, not backend
		}
		out = append(out, f.cand)
	}
	return out
}

// nearness scores how close cand is to want (lower is closer) and whether
// it is near at all. Typos score their edit distance; containment scores
// just past the allowance, so real typos rank first.
func nearness(want, cand string, allowance int) (int, bool) {
	best := -1
	for _, form := range candidateForms(want, cand) {
		if d := EditDistance(want, form); d <= allowance && (best < 0 || d < best) {
			best = d
		}
	}
	if best >= 0 {
		return best, true
	}
	// A name with a '/' holds its parents: "backend/nothing" does not mean "backend".
	leaf := cand[strings.LastIndexByte(cand, '/')+1:]
	if utf8.RuneCountInString(want) >= 3 && strings.Contains(cand, want) ||
		!strings.Contains(want, "/") && utf8.RuneCountInString(leaf) >= 3 && strings.Contains(want, leaf) {
		return allowance + 1, true
	}
	return 0, false
}

// candidateForms are the forms of cand compared with want: cand itself,
// and, when want names no folder, cand's last segment.
func candidateForms(want, cand string) []string {
	forms := []string{cand}
	if !strings.Contains(want, "/") {
		if i := strings.LastIndexByte(cand, '/'); i >= 0 && i+1 < len(cand) {
			forms = append(forms, cand[i+1:])
		}
	}
	return forms
}

// typoAllowance is how many edits a name of this length may carry and
// still be a typo of a candidate rather than another word.
func typoAllowance(name string) int {
	switch n := utf8.RuneCountInString(name); {
	case n <= 4:
		return 1
	case n <= 8:
		return 2
	default:
		return 3
	}
}

// EditDistance is the optimal string alignment distance between a and b,
// in runes: insertions, deletions, substitutions, and swaps of two
// neighbouring runes, each one edit.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows of the dynamic programme: two back (for swaps), previous, current.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
