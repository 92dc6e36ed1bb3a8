//go:build unix

package frontmatterindex

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
)

// TestHardLinksAreRefused: a doc that is a hard link (perhaps to a file
// outside the library) is left out with a note and refused by ReadFile,
// unless AllowHardLinks.
func TestHardLinksAreRefused(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"ok.md": "# OK\n"})
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("# Secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, filepath.Join(dir, "linked.md")); err != nil {
		t.Skipf("cannot make hard links here: %v", err)
	}
	ctx := context.Background()

	ix := openIndex(t, dir)
	cat, err := ix.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := paths(cat), []string{"ok.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("paths = %q, want %q", got, want)
	}
	if len(cat.Notes) != 1 || !strings.HasPrefix(cat.Notes[0], "refused: 'linked.md': it has 2 hard links") {
		t.Errorf("notes = %q, want one refusing linked.md", cat.Notes)
	}
	if _, _, err := ix.ReadFile(ctx, "linked.md"); !errors.Is(err, domain.ErrRefused) || !strings.Contains(err.Error(), "LIBRARY_ALLOW_HARDLINKS") {
		t.Errorf("ReadFile(linked.md): err = %v, want a refusal naming LIBRARY_ALLOW_HARDLINKS", err)
	}

	allowed := openIndex(t, dir, AllowHardLinks(true))
	if cat, err := allowed.Catalog(ctx); err != nil || len(cat.Docs) != 2 {
		t.Errorf("with AllowHardLinks: %v, %d docs, want 2", err, len(cat.Docs))
	}
	if data, _, err := allowed.ReadFile(ctx, "linked.md"); err != nil || string(data) != "# Secret\n" {
		t.Errorf("with AllowHardLinks: ReadFile = %q, %v", data, err)
	}
}
