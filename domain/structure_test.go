package domain

import "testing"

// TestOwnEnd: a section's own lines end before its first subsection, or
// at its end when it has none.
func TestOwnEnd(t *testing.T) {
	s := Structure{Sections: []Section{
		{ID: "options", Start: 1, End: 20, Parent: -1},
		{ID: "options/max", Start: 8, End: 14, Parent: 0},
		{ID: "options/min", Start: 15, End: 20, Parent: 0},
		{ID: "related", Start: 21, End: 30, Parent: -1},
	}}
	for i, want := range []int{7, 14, 20, 30} {
		if got := s.OwnEnd(i); got != want {
			t.Errorf("OwnEnd(%d) (%s) = %d, want %d", i, s.Sections[i].ID, got, want)
		}
	}
}
