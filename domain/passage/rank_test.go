package passage

import "testing"

// CloseToBest: at least CloseShare of a positive best; nothing is close
// to a best of 0.
func TestCloseToBest(t *testing.T) {
	for _, c := range []struct {
		score, best float64
		want        bool
	}{
		{1, 1, true}, {CloseShare, 1, true}, {CloseShare - 0.01, 1, false}, {3, 4, true}, {2, 4, false}, {0, 0, false},
	} {
		if got := CloseToBest(c.score, c.best); got != c.want {
			t.Errorf("CloseToBest(%v, %v) = %v, want %v", c.score, c.best, got, c.want)
		}
	}
}

// A section whose heading names its doc's limits (Notes, Known
// limitations, Differences from...) ranks higher for a question asking
// yes or no, or what happens, and only for such a question: "can I keep
// objects with the hook?" is answered under "## Notes", which shares none
// of its words.
func TestRankLimitsHeading(t *testing.T) {
	lines := []string{
		"## Usage",
		"Call the hook with a key to keep a value in storage.",
		"## Notes",
		"- The value is serialized to JSON when stored.",
		"## Known Limitations",
		"The hook keeps a value in storage per key.",
	}
	spans := []Span{{Doc: "d", Lines: lines, From: 1, To: 2}, {Doc: "d", Lines: lines, From: 3, To: 4}, {Doc: "d", Lines: lines, From: 5, To: 6}}
	index := []float64{1, 1, 0.85}
	yes := NewQuestion("can I keep objects with the hook in storage?")
	got := yes.Rank(spans, index)
	if !(got[1] > got[0] && got[2] > got[0]) {
		t.Errorf("yes-or-no question: Notes %.3f and Known Limitations %.3f should rank above Usage %.3f", got[1], got[2], got[0])
	}
	how := NewQuestion("how do I keep objects with the hook in storage?")
	got = how.Rank(spans, index)
	if got[1] >= got[0] {
		t.Errorf("how-to question: Notes %.3f should not pass Usage %.3f", got[1], got[0])
	}
	for h, want := range map[string]bool{"## Notes": true, "### Note on the i flag": true, "## Differences from `<Transition>`": true,
		"## Validation & Error Handling": true, "## Mocking Modules Pitfalls": true, "## Notable changes": false, "## Usage": false, "Notes": false} {
		if got := namesLimits(Span{Lines: []string{h}, From: 1, To: 1}); got != want {
			t.Errorf("namesLimits(%q) = %v, want %v", h, got, want)
		}
	}
}
