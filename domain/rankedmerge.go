package domain

import "sort"

// MergeRanked joins two ranked lists of sections: each section once, with
// its better share of its own list's best score, best first. Ranked
// search_documents and librarian_ask join so their two searches of a
// question: its own words, and with them the words docs use for them
// (passage.Question.Related: "default" for "out of the box").
func MergeRanked(a, b []RankedSection) []RankedSection {
	norm := func(list []RankedSection) map[string]float64 {
		best := 0.0
		for _, s := range list {
			best = max(best, s.Score)
		}
		m := map[string]float64{}
		for _, s := range list {
			m[s.Path+"\x00"+s.SectionID] = s.Score / max(best, 1e-9)
		}
		return m
	}
	na, nb := norm(a), norm(b)
	seen := map[string]bool{}
	var out []RankedSection
	for _, list := range [][]RankedSection{a, b} {
		for _, s := range list {
			k := s.Path + "\x00" + s.SectionID
			if seen[k] {
				continue
			}
			seen[k] = true
			s.Score = max(na[k], nb[k])
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}
