package postgressectionindex

import (
	"slices"
	"strconv"
	"strings"

	"github.com/librarian/librarian/domain"
)

// rankSlack is how many sections past the limit BM25's query answers when
// the question has near pairs, for nearOrder to choose the limit among
// (the SQLite index's pool: limit+16 sections scored first).
const rankSlack = 16

// nearShare is how much a section's BM25 over the question's near pairs
// (nearPairs) counts, beside its BM25 over the question's words, in which
// of the limit+rankSlack sections scored first are answered (their order
// and the limit's cut; each keeps its own score), as the SQLite index's
// nearShare: BM25 counts the words a section holds, not whether they
// stand together, so a long section repeating "browser" and "connect"
// apart outranks the short one saying "connect back to the browser".
// Only that pool is reordered (no section joins it), and the score
// callers weigh is the words' alone (added to it, the pairs lowered the
// other sections' shares of the best on SQLite, and librarian_ask
// dropped passages). Over PostgreSQL (TestFactEvalPostgres), against 888
// and 901: tune ask +1, ranked +1 (otel-docs-fresh8-07), none lost;
// fresh12-14 and fresh16 the same (239, 241; 81, 81). 0.6: tune the
// same facts (answers -0.3 %), the check set +1 -1 each way
// (fresh13 gained, fresh12 lost).
const nearShare = 0.3

// nearSlop is how many words may stand between the two words of a near
// pair in a section (FTS5's NEAR(a b, 3), as the SQLite index searches
// them): the question's stop words are dropped between them, "turns the
// agent off" pairs turns and agent.
const nearSlop = 3

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

// position is one place a lexeme stands in a section's vector, and the
// weight of the text it stands in (headingWeight, codeWeight, 1).
type position struct {
	at     int
	weight float64
}

// readPositions reads the "lexeme position label" rows Ranked's query
// answers for the near pairs' lexemes.
func readPositions(rows []string) map[string][]position {
	out := map[string][]position{}
	for _, r := range rows {
		f := strings.Fields(r)
		if len(f) != 3 {
			continue
		}
		at, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		out[f[0]] = append(out[f[0]], position{at, labelWeight(f[2])})
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

// nearScore is a section's BM25 over the near pairs, as FTS5's bm25 of
// NEAR groups ORed: each pair's two words are two terms, a word's
// frequency its weighted count of the places it stands within nearSlop
// words of the other (either side), its weight its IDF (idf). length is
// the section's length, average the library's mean.
func nearScore(pairs [][2]string, at map[string][]position, idf map[string]float64, length, average float64) float64 {
	norm := bm25K1 * (1 - bm25B + bm25B*length/max(average, 1))
	score := 0.0
	for _, p := range pairs {
		for side := range 2 {
			word, other := p[side], p[1-side]
			f := 0.0
			for _, x := range at[word] {
				if slices.ContainsFunc(at[other], func(y position) bool {
					d := x.at - y.at
					return d != 0 && d <= nearSlop+1 && d >= -(nearSlop+1)
				}) {
					f += x.weight
				}
			}
			if f > 0 {
				score += idf[word] * f * (bm25K1 + 1) / (f + norm)
			}
		}
	}
	return score
}

// nearOrder is the limit of sections (answered best first by Score, ties
// in their order) that their Score plus nearShare times their near
// pairs' BM25 (near, in sections' order) puts first.
func nearOrder(sections []domain.RankedSection, near []float64, limit int) []domain.RankedSection {
	kept := make([]int, len(sections))
	for i := range kept {
		kept[i] = i
	}
	order := func(i int) float64 { return sections[i].Score + nearShare*near[i] }
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
