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

// TestOpening: a doc's opening is its text before the first heading
// (after the frontmatter), or under its title (after the title's line),
// up to its first subsection; a doc that opens with a section of its own
// has none, nor one whose title has no line under it.
func TestOpening(t *testing.T) {
	for _, c := range []struct {
		name     string
		s        Structure
		from, to int
		ok       bool
	}{
		{"a preamble after frontmatter", Structure{FrontmatterEnd: 4, Sections: []Section{
			{ID: "_preamble", Level: 0, Start: 5, End: 20, Parent: -1},
			{ID: "options", Level: 2, Start: 21, End: 40, Parent: -1},
		}}, 5, 20, true},
		{"a title and its intro", Structure{Sections: []Section{
			{ID: "_intro", Level: 1, Start: 1, End: 9, Parent: -1},
			{ID: "usage", Level: 2, Start: 10, End: 30, Parent: -1},
		}}, 2, 9, true},
		{"a title and its children", Structure{Sections: []Section{
			{ID: "title", Level: 1, Start: 3, End: 30, Parent: -1},
			{ID: "title/usage", Level: 2, Start: 6, End: 30, Parent: 0},
		}}, 4, 5, true},
		{"a title alone on its line", Structure{Sections: []Section{
			{ID: "_intro", Level: 1, Start: 1, End: 1, Parent: -1},
			{ID: "usage", Level: 2, Start: 2, End: 30, Parent: -1},
		}}, 0, 0, false},
		{"no opening", Structure{Sections: []Section{
			{ID: "usage", Level: 2, Start: 1, End: 30, Parent: -1},
		}}, 0, 0, false},
		{"no sections", Structure{}, 0, 0, false},
	} {
		i, from, to, ok := c.s.Opening()
		if ok != c.ok || ok && (i != 0 || from != c.from || to != c.to) {
			t.Errorf("%s: Opening() = %d, %d, %d, %v; want 0, %d, %d, %v", c.name, i, from, to, ok, c.from, c.to, c.ok)
		}
	}
}

func TestSlugOf(t *testing.T) {
	for id, want := range map[string]string{
		"refresh-tokens/rotation": "rotation",
		"prometheus-port":         "prometheus-port",
		"_intro":                  "_intro",
		"a/b/c-1":                 "c-1",
	} {
		if got := SlugOf(id); got != want {
			t.Errorf("SlugOf(%q) = %q, want %q", id, got, want)
		}
	}
}
