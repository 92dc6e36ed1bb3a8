package postgressectionindex

import (
	"slices"
	"strconv"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/proximity"
)

// rankSlack is how many sections past the limit BM25's query answers when
// the question has near pairs, for nearOrder to choose the limit among
// (the SQLite index's pool: limit+16 sections scored first).
const rankSlack = 16

// nearPairs are the question's pairs of adjacent plain words (groups
// next to each other, the stop words already dropped), as lexemes: not
// a code name or its parts, not a word in backticks, not a word twice.
func nearPairs(groups []wordGroup) [][2]string {
	var out [][2]string
	for i := 1; i < len(groups); i++ {
		a, b := groups[i-1], groups[i]
		if len(a.parts) > 0 || len(b.parts) > 0 || a.code || b.code || a.whole == b.whole {
			continue
		}
		out = append(out, [2]string{a.whole, b.whole})
	}
	return out
}

// readPositions reads the "lexeme position label" rows Ranked's query
// answers for the near pairs' lexemes.
func readPositions(rows []string) map[string][]proximity.Place {
	out := map[string][]proximity.Place{}
	for _, r := range rows {
		f := strings.Fields(r)
		if len(f) != 3 {
			continue
		}
		at, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		out[f[0]] = append(out[f[0]], proximity.Place{At: int64(at), Weight: labelWeight(f[2])})
	}
	return out
}

// labelWeight is the weight of a tsvector position's label, as Ranked's
// BM25 counts it.
func labelWeight(label string) float64 {
	switch label {
	case "A":
		return headingWeight
	case "B":
		return codeWeight
	}
	return 1
}

// nearOrder is the limit of sections (answered best first by Score, ties
// in their order) that their Score plus proximity.Share times their near
// pairs' BM25 (near, in sections' order) puts first, as the SQLite
// index's pool is cut. Over PostgreSQL (TestFactEvalPostgres), against
// 888 and 901: tune ask +1, ranked +1, none lost; fresh12-14 and fresh16
// the same. At a share of 0.6: tune the same facts (answers -0.3 %), the
// check set +1 -1 each way.
func nearOrder(sections []domain.RankedSection, near []float64, limit int) []domain.RankedSection {
	kept := make([]int, len(sections))
	for i := range kept {
		kept[i] = i
	}
	order := func(i int) float64 { return sections[i].Score + proximity.Share*near[i] }
	slices.SortStableFunc(kept, func(i, j int) int {
		switch oi, oj := order(i), order(j); {
		case oi > oj:
			return -1
		case oi < oj:
			return 1
		}
		return 0
	})
	kept = kept[:min(len(kept), limit)]
	slices.Sort(kept) // sections are in Score's order, ties by path and section
	out := make([]domain.RankedSection, len(kept))
	for i, k := range kept {
		out[i] = sections[k]
	}
	return out
}
