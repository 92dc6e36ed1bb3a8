//go:build unix

package frontmatterindex

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/librarian/librarian/domain"
)

// TestFIFOIsNeverOpened: opening a named pipe blocks until a writer comes,
// so a *.md pipe (or a symlink to one) is left out with a note, and Stat and
// ReadFile refuse it without opening it.
func TestFIFOIsNeverOpened(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"ok.md": "# OK\n"})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	if err := os.Symlink("pipe.md", filepath.Join(dir, "pipe-link.md")); err != nil {
		t.Skipf("cannot make symlinks here: %v", err)
	}
	ix := openIndex(t, dir)
	done := make(chan struct{})
	go func() {
		defer close(done)
		cat, err := ix.Catalog(context.Background())
		if err != nil {
			t.Errorf("Catalog: %v", err)
			return
		}
		if got, want := paths(cat), []string{"ok.md"}; !reflect.DeepEqual(got, want) {
			t.Errorf("paths = %q, want %q", got, want)
		}
		wantNotes := []string{
			"skipped: 'pipe-link.md' is not a regular file",
			"skipped: 'pipe.md' is not a regular file",
		}
		if !reflect.DeepEqual(cat.Notes, wantNotes) {
			t.Errorf("notes:\n got %q\nwant %q", cat.Notes, wantNotes)
		}
		for _, p := range []string{"pipe.md", "pipe-link.md"} {
			if _, err := ix.Stat(context.Background(), p); !errors.Is(err, domain.ErrRefused) {
				t.Errorf("Stat(%q): err = %v, want one wrapping domain.ErrRefused", p, err)
			}
			if _, _, err := ix.ReadFile(context.Background(), p); !errors.Is(err, domain.ErrRefused) {
				t.Errorf("ReadFile(%q): err = %v, want one wrapping domain.ErrRefused", p, err)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Catalog, Stat or ReadFile blocked on a FIFO")
	}
}
