package postgressectionindex_test

import (
	"context"
	"testing"

	"github.com/librarian/librarian/adapters/postgresdb/postgrestest"
	"github.com/librarian/librarian/adapters/postgressectionindex"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
	"github.com/librarian/librarian/ports/sectionindex/sectionindextest"
)

// Two servers on one database: a write through one is in the other's next
// Catalog, though each keeps the last catalog it read.
func TestTwoIndexesSeeEachOthersWrites(t *testing.T) {
	d := postgrestest.DSN(t)
	writer := fresh(t, d)
	reader, err := postgressectionindex.Open(context.Background(), d, postgressectionindex.Options{Schema: schemaFor(t.Name()), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	ctx := context.Background()
	put := func(body string) {
		t.Helper()
		e := sectionindextest.MarkdownEntry("a.md", "A", nil, body)
		if err := writer.Apply(ctx, sectionindex.Update{Put: []sectionindex.Entry{e}}); err != nil {
			t.Fatal(err)
		}
	}
	size := func() int64 {
		t.Helper()
		c, err := reader.Catalog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Docs) != 1 {
			t.Fatalf("reader sees %d docs", len(c.Docs))
		}
		return c.Docs[0].Stamp.Size
	}
	put("# A\n")
	if got := size(); got != 4 {
		t.Fatalf("size %d, want 4", got)
	}
	if got := size(); got != 4 { // from the kept catalog
		t.Fatalf("size %d, want 4", got)
	}
	put("# A\n\nedited\n")
	if got := size(); got != 12 {
		t.Errorf("after an edit through the other index: size %d, want 12", got)
	}
	// Unchanged, the catalog is the one kept: shared, read-only (the port
	// allows it), so 100,000 docs are not copied per call.
	if c, c2 := mustCatalog(t, reader), mustCatalog(t, reader); c != c2 {
		t.Errorf("two calls on an unchanged index return two catalogs, not the kept one")
	}
	if err := writer.Apply(ctx, sectionindex.Update{Remove: []string{"a.md"}}); err != nil {
		t.Fatal(err)
	}
	if c, _ := reader.Catalog(ctx); len(c.Docs) != 0 {
		t.Errorf("after a removal through the other index the reader lists %d docs", len(c.Docs))
	}
}

func mustCatalog(t *testing.T, ix *postgressectionindex.Index) *domain.Catalog {
	t.Helper()
	c, err := ix.Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c
}
