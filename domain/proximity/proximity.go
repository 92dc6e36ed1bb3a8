// Package proximity scores how close together a question's adjacent
// words stand in a section, for the section indexes' ranked search: BM25
// counts the words a section holds, not whether they stand together, so
// a long section repeating "browser" and "connect" apart outranks the
// short one saying "connect back to the browser". Both index adapters
// find where the pairs' words stand in their own way (SQLite from
// highlight()'s marks, PostgreSQL from a tsvector's positions) and score
// them here, as FTS5's bm25 scores NEAR(a b, Slop) groups ORed.
package proximity

// Slop is how many words may stand between the two words of a pair in a
// section (FTS5's NEAR(a b, 3)): the question's stop words are dropped
// between them, so "turns the agent off" pairs turns and agent.
const Slop = 3

// Share is how much a section's Score over the question's pairs counts,
// beside its BM25 over the question's words, in which sections of the
// pool an index scored first are answered (their order and the limit's
// cut); each section keeps its own score. Added to the score callers
// weigh, the pairs lowered the other sections' shares of the best and
// librarian_ask dropped passages (tune ask +7 −10 at 0.3). Over SQLite,
// against 905 and 913: 0.3 ask +1, ranked +2 −1; 0.15 ±0; 0.45 and 0.6
// ask +1 −3. Over PostgreSQL 0.3: tune +1 each way; 0.6 the check set
// +1 −1.
const Share = 0.3

// bm25's constants, as FTS5's.
const k1, b = 1.2, 0.75

// Place is where a pair's word stands in a section: its token number
// (one column's numbers apart from another's by far more than Slop, so
// only words of one column meet) and the weight of the column or text it
// stands in.
type Place struct {
	At     int64
	Weight float64
}

// Score is a section's BM25 over the pairs (higher is better), as FTS5's
// bm25 of NEAR groups ORed: each pair's two words are two terms, a
// word's frequency the weights of the places it stands within Slop words
// of the other's (either side first), its weight idf(word). length is
// the section's length in tokens, average the index's mean.
func Score(pairs [][2]string, at map[string][]Place, idf func(word string) float64, length, average float64) float64 {
	norm := k1 * (1 - b + b*length/max(average, 1))
	score := 0.0
	for _, p := range pairs {
		for side := range 2 {
			word, other := p[side], p[1-side]
			f := 0.0
			for _, x := range at[word] {
				if near(x, at[other]) {
					f += x.Weight
				}
			}
			if f > 0 {
				score += idf(word) * f * (k1 + 1) / (f + norm)
			}
		}
	}
	return score
}

// near reports whether a place of others stands within Slop words of x.
func near(x Place, others []Place) bool {
	for _, y := range others {
		if d := x.At - y.At; d != 0 && d <= Slop+1 && d >= -(Slop+1) {
			return true
		}
	}
	return false
}
