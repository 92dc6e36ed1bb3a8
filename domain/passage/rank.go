package passage

import "math"

// Span is a section a search found, as Pooled reads it: lines from..to of
// a file (Lines[k-1] is line k) that Doc names. Sections of one doc may
// overlap (a section and its subsection): each line counts once.
type Span struct {
	Doc      string
	Lines    []string
	From, To int
}

// Pooled returns the question with its terms weighed over the lines of all
// the spans too (a term few of their lines hold weighs most), for telling
// which section's lines answer: alone, a section weighs its terms by its
// own lines, so a term rare in a short section weighs much, however common
// among the sections found. Quote a section's lines with the question
// itself.
func (q Question) Pooled(spans []Span) Question {
	want := make(map[string]bool, len(q.terms))
	for _, t := range q.terms {
		want[t] = true
	}
	seen := map[string]map[int]bool{}
	df := make(map[string]int, len(q.terms))
	n := 0
	for _, sp := range spans {
		lines := seen[sp.Doc]
		if lines == nil {
			lines = map[int]bool{}
			seen[sp.Doc] = lines
		}
		for k := max(sp.From, 1); k <= min(sp.To, len(sp.Lines)); k++ {
			if lines[k] || isBlankOrFence(sp.Lines[k-1]) {
				continue
			}
			lines[k] = true
			n++
			held := map[string]bool{}
			for _, w := range lineTerms(sp.Lines[k-1]) {
				if t := q.termOf(w, want); t != "" {
					held[t] = true
				}
			}
			for t := range held {
				df[t]++
			}
		}
	}
	out := q
	out.idf = make(map[string]float64, len(q.terms))
	for _, t := range q.terms {
		out.idf[t] = math.Log(1 + float64(n+1)/float64(df[t]+1))
	}
	return out
}

// rankLineShare is how much a section's best line weighs in Rank, against
// its index score: tuned on the fact eval's tune sets (0.5 before; 0.2
// holds more facts in both ranked search and librarian_ask).
const rankLineShare = 0.2

// Rank scores the sections a search found for how well they answer: their
// index score (index[i] is spans[i]'s) and how well their best line
// answers, over all of them (Pooled), each as a share of the best,
// weighed 1-rankLineShare and rankLineShare; 1 is best. A section whose
// lines hold the answer goes before an intro that only names the topic.
func (q Question) Rank(spans []Span, index []float64) []float64 {
	pooled := q.Pooled(spans)
	lineScores := make([]float64, len(spans))
	bestIndex, bestLine := 0.0, 0.0
	for i, sp := range spans {
		if best := pooled.Lines(sp.Lines, sp.From, sp.To, 1); len(best) > 0 {
			lineScores[i] = best[0].Score
		}
		bestIndex, bestLine = max(bestIndex, index[i]), max(bestLine, lineScores[i])
	}
	out := make([]float64, len(spans))
	for i := range spans {
		out[i] = index[i] / max(bestIndex, 1e-9)
		if bestLine > 0 {
			out[i] = (1-rankLineShare)*out[i] + rankLineShare*lineScores[i]/bestLine
		}
	}
	return out
}

// termOf is the question's term a line's stem w stands for ("" if none):
// itself, or a term of four letters or more it starts with.
