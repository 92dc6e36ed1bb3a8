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
)

// TestCheckCountsTheDocsWithProblems: the report's header says how many
// docs have problems, not only how many were checked; a doc with two
// problems counts once.
func TestCheckCountsTheDocsWithProblems(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.md"), "---\ntags: go\n---\n# A\n\n![[image:img-one]]\n")
	writeFile(t, filepath.Join(dir, "b.md"), "# B\n\n![[image:img-two]]\n")
	writeFile(t, filepath.Join(dir, "c.md"), "# C\n")
	src, err := frontmatterindex.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	lib := library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
	rep, err := browse.New(lib).Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	text := rep.Text()
	if first, _, _ := strings.Cut(text, "\n"); first != "3 problems in 2 docs (3 checked):" {
		t.Errorf("header = %q, want %q\n%s", first, "3 problems in 2 docs (3 checked):", text)
	}
	for _, want := range []string{"frontmatter: 'a.md': 'tags' must be a list", "unknown image: a (a.md) L6", "unknown image: b (b.md) L3"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}
