package proximity

import "testing"

// A pair's words count where they stand within Slop words of each other,
// either side first, weighted by where they stand; apart, nothing; in a
// longer section, less.
func TestScore(t *testing.T) {
	pairs := [][2]string{{"browser", "connect"}}
	idf := func(w string) float64 { return map[string]float64{"browser": 2, "connect": 3}[w] }
	body := func(at ...int64) []Place {
		var out []Place
		for _, a := range at {
			out = append(out, Place{At: a, Weight: 1})
		}
		return out
	}
	together := map[string][]Place{"connect": body(7), "browser": body(11, 40)}
	apart := map[string][]Place{"browser": body(1, 11), "connect": body(6, 16)}
	heading := map[string][]Place{"connect": {{At: 1, Weight: 8}}, "browser": {{At: 2, Weight: 8}}}
	otherColumn := map[string][]Place{"connect": body(7), "browser": body(1<<32 | 8)}
	score := func(at map[string][]Place) float64 { return Score(pairs, at, idf, 20, 20) }
	if s := score(apart); s != 0 {
		t.Errorf("words five apart score %v, want 0", s)
	}
	if s := score(otherColumn); s != 0 {
		t.Errorf("words of two columns score %v, want 0", s)
	}
	if s := score(together); s <= 0 {
		t.Errorf("words four apart score %v, want more than 0", s)
	}
	if h, b := score(heading), score(together); h <= b {
		t.Errorf("the pair in a heading scores %v, in the body %v: want the heading's higher", h, b)
	}
	if s := Score(pairs, together, idf, 200, 20); s >= score(together) {
		t.Errorf("in a section ten times as long the pair scores %v, want less than %v", s, score(together))
	}
}
