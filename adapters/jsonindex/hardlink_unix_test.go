//go:build unix

package jsonindex_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/domain"
)

// TestHardLinksAreRefused: a doc file that is a hard link (perhaps to a
// file outside the library) is refused unless AllowHardLinks.
func TestHardLinksAreRefused(t *testing.T) {
	dir := t.TempDir()
	index := `{"docs": [{"id": "linked", "file": "linked.md", "summary": "s"}]}`
	if err := os.WriteFile(filepath.Join(dir, "index.json"), []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("# Secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, filepath.Join(dir, "linked.md")); err != nil {
		t.Skipf("cannot make hard links here: %v", err)
	}
	ctx := context.Background()
	for _, allow := range []bool{false, true} {
		x, err := jsonindex.New(dir, "index.json", jsonindex.AllowHardLinks(allow))
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		data, _, err := x.ReadFile(ctx, "linked.md")
		switch {
		case !allow && (!errors.Is(err, domain.ErrRefused) || !strings.Contains(err.Error(), "2 hard links")):
			t.Errorf("ReadFile(linked.md) = %q, %v; want a refusal saying it has 2 hard links", data, err)
		case allow && (err != nil || string(data) != "# Secret\n"):
			t.Errorf("with AllowHardLinks: ReadFile = %q, %v", data, err)
		}
	}
}
