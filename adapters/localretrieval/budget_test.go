package localretrieval

import "testing"

// withinBudget: past askPassages, a passage stays while the answer is
// within askBudgetBytes, or within askMostBytes when it scores close to
// the best (askKeepShare).
func TestWithinBudget(t *testing.T) {
	for _, c := range []struct {
		shares []float64
		each   int // bytes a passage adds to the answer
		want   int
	}{
		{[]float64{1, .9, .9, .5, .5}, 270, 5}, // 1,350 bytes: within the budget
		{[]float64{1, .9, .9, .5, .5}, 700, 3}, // over it, the last two weak
		{[]float64{1, 1, 1, .8, .8}, 540, 5},   // 2,700 bytes, the last two close to the best
		{[]float64{1, 1, 1, .8, .8}, 750, 4},   // 3,750 bytes: the fifth is past askMostBytes
		{[]float64{1, 1, 1, .7, .7}, 680, 5},   // 3,400 bytes, the last two close enough (askKeepShare)
		{[]float64{1, 1, 1, .65, .65}, 540, 3}, // 2,700 bytes, the last two not close enough
		{[]float64{1, 1, 1, .9, .5}, 600, 4},   // the fifth weak
		{[]float64{1, 1, 1, 1, 1}, 1200, 3},    // three passages always
	} {
		var ps []quotedSection
		for _, sh := range c.shares {
			ps = append(ps, quotedSection{Share: sh})
		}
		got := withinBudget(ps, func(ps []quotedSection) int { return len(ps) * c.each })
		if len(got) != c.want {
			t.Errorf("shares %v, %d bytes each: %d passages, want %d", c.shares, c.each, len(got), c.want)
		}
	}
}
