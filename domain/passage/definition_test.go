package passage

import "testing"

// TestDefiningLine: a code-name heading is defined by the first of the
// parent's lines naming it; a plain-word heading (max) only by a line
// quoting it, so that prose using the word is not taken for its definition.
func TestDefiningLine(t *testing.T) {
	lines := []string{
		"## Options", // 1
		"The max length is not checked by default.",                              // 2
		"* `\"min\"` (default: `2`) enforces a minimum identifier length",        // 3
		"* `\"max\"` (default: `Infinity`) enforces a maximum identifier length", // 4
		"* `allowShortCircuit` set to `true` allows `a && b()`",                  // 5
	}
	for _, tc := range []struct {
		heading string
		want    int
	}{
		{"max", 4},
		{"`max`", 4},
		{"min", 3},
		{"allowShortCircuit", 5},
		{"exceptions", 0},
		{"max and min", 0}, // a heading of words, not an option's name
		{"length", 0},      // in prose only, never quoted
	} {
		if got := DefiningLine(lines, tc.heading, 2, len(lines), map[int]bool{}); got != tc.want {
			t.Errorf("DefiningLine(%q) = %d, want %d", tc.heading, got, tc.want)
		}
	}
	if got := DefiningLine(lines, "max", 2, len(lines), map[int]bool{4: true}); got != 0 {
		t.Errorf("a line shown already is not shown again: got %d", got)
	}
}
