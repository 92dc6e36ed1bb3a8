package browse_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
)

// TestGetRefusedFrontmatterDocIsExplained: a doc the frontmatter index
// refused (a symlink out of the root) is named as refused, not unknown, and
// none of its bytes appear.
func TestGetRefusedFrontmatterDocIsExplained(t *testing.T) {
	base := t.TempDir()
	lib := filepath.Join(base, "lib")
	writeFile(t, filepath.Join(lib, "a.md"), "# A\n")
	writeFile(t, filepath.Join(base, "secret.md"), "TOP SECRET\n")
	if err := os.Symlink(filepath.Join(base, "secret.md"), filepath.Join(lib, "out.md")); err != nil {
		t.Skip(err)
	}
	src, err := frontmatterindex.New(lib)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	l := library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
	ans, err := browse.New(l).GetDocuments(context.Background(), browse.GetRequest{Select: parseSelect(t, `["out", "a"]`), IncludeCode: true})
	if err != nil {
		t.Fatal(err)
	}
	got := ans.String()
	if !strings.Contains(got, "refused: 'out.md' resolves outside the library root") || strings.Contains(got, "unknown doc") || strings.Contains(got, "TOP SECRET") {
		t.Errorf("answer:\n%s", got)
	}
}
