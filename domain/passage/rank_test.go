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
