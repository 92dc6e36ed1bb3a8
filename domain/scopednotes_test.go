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
