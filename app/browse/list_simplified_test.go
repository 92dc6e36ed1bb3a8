package browse_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
)

// TestListNotesASimplifiedOutline: a doc too costly to parse in full (list
// items nested 1,500 deep) is listed with the headings a plain scan finds
// and a note saying so; an ordinary doc beside it gets none.
func TestListNotesASimplifiedOutline(t *testing.T) {
	lib := t.TempDir()
	var nested strings.Builder
	nested.WriteString("# Nested\n\n## Before\n\n")
	for i := range 1500 {
		nested.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	nested.WriteString("\n## After\n")
	writeFile(t, filepath.Join(lib, "nested.md"), nested.String())
	writeFile(t, filepath.Join(lib, "plain.md"), "# Plain\n\n## One\n")
	src, err := frontmatterindex.New(lib)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	l := library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
	got, err := browse.New(l).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Root: ".", Depth: -1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`§ before "Before"`, `§ after "After"`, `§ one "One"`,
		"simplified: nested (nested.md): too costly to parse in full (list items nested too deep); its sections come from a plain heading scan",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("listing lacks %q:\n%.2000s", want, got)
		}
	}
	if strings.Count(got, "simplified:") != 1 {
		t.Errorf("want exactly one simplified note:\n%.2000s", got)
	}
}
