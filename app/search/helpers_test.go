package search

import (
	"context"
	"sync/atomic"
	"testing"

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
