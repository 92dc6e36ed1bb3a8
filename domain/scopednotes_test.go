package domain

import (
	"strings"
	"testing"
)

func TestScopedNotes(t *testing.T) {
	notes := []string{
		"frontmatter: 'ops/broken.md': 'tags' must be a list of strings",
		"frontmatter: 'api/bad.md': unreadable frontmatter",
		"index.json: entry 3 has no path",
	}
	got := ScopedNotes(notes, "api", MCPTools)
	want := []string{notes[1], notes[2], "1 note about docs outside api/: librarian check lists every problem of the library"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("under api:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := ScopedNotes(notes, ".", MCPTools); len(got) != 3 {
		t.Errorf("the whole library keeps every note: %v", got)
	}
	if got := ScopedNotes(notes, "ops/broken.md", MCPTools); len(got) != 3 || got[0] != notes[0] {
		t.Errorf("a doc's own outline keeps its note: %v", got)
	}
}

// TestShownNotes: a search answer keeps the notes about the docs it shows
// and about no doc, and counts the rest in one line naming check.
func TestShownNotes(t *testing.T) {
	notes := []string{
		"frontmatter: 'ops/broken.md': 'tags' must be a list of strings",
		"frontmatter: 'api/bad.md': unreadable frontmatter",
		"frontmatter: 'api/worse.md': unreadable frontmatter",
		"index.json: entry 3 has no path",
	}
	shown := func(p string) bool { return p == "api/bad.md" }
	got := ShownNotes(notes, shown, MCPTools)
	want := []string{notes[1], notes[3], "2 notes about docs this answer does not show: librarian check lists every problem of the library"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := ShownNotes(notes[3:], shown, MCPTools); len(got) != 1 || got[0] != notes[3] {
		t.Errorf("a note about no doc is kept alone: %v", got)
	}
}
