package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
)

// TestSearchNotesAboutShownDocs: a search answer carries the catalog's
// notes about the docs it shows; those about other docs are counted in one
// line naming check, string and ranked alike.
func TestSearchNotesAboutShownDocs(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"hit.md": "---\ntags: oops\n---\n# Hit\n\nThe needle is here.\n",
		"ok.md":  "# Ok\n\nNothing to see.\n",
	}
	for i := range 5 {
		files["broken"+string(rune('a'+i))+".md"] = "---\ntags: [unclosed\n---\n# Broken\n\nNo match.\n"
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib, _ := indexedLibrary(t, "frontmatter", dir, filepath.Join(t.TempDir(), "i.sqlite"))
	for _, mode := range []string{SearchString, SearchRanked} {
		got, err := New(lib).SearchDocuments(context.Background(), SearchRequest{Query: "needle", Mode: mode, Scope: domain.Scope{Depth: -1}})
		if err != nil {
			t.Fatal(err)
		}
		_, notes, ok := strings.Cut(got, "\nNotes:\n")
		if !ok {
			t.Fatalf("%s: no Notes block:\n%s", mode, got)
		}
		lines := strings.Split(notes, "\n")
		if len(lines) != 2 || !strings.Contains(lines[0], "'hit.md'") ||
			lines[1] != "- 5 notes about docs this answer does not show: librarian check lists every problem of the library" {
			t.Errorf("%s: want the shown doc's note and one line counting the 5 others:\n%s", mode, got)
		}
	}
}
