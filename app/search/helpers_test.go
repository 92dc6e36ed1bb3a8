package search

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/docindex"
)

// countingSource counts the document files read through it.
type countingSource struct {
	docindex.Source
	reads atomic.Int64
}

func (c *countingSource) ReadFile(ctx context.Context, p string) ([]byte, domain.Stamp, error) {
	c.reads.Add(1)
	return c.Source.ReadFile(ctx, p)
}

// indexedLibrary opens the library at root with the real adapters of a
// convention and the section index in file.
func indexedLibrary(t *testing.T, convention, root, file string) (*library.Library, *countingSource) {
	t.Helper()
	src := &countingSource{Source: openSource(t, convention, root)}
	l := library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
	ix, err := sqlitesectionindex.OpenFile(t.Context(), file, sqlitesectionindex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	l.UseIndex(ix, nil)
	return l, src
}

// copyTree copies a test library to a temporary folder with old times
// (outside the racy window, so every read is stored).
func copyTree(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return err
		}
		return os.Chtimes(dst, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}
