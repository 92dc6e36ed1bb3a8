package postgressectionindex_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/librarian/librarian/adapters/postgresdb/postgrestest"
	"github.com/librarian/librarian/adapters/postgressectionindex"
	"github.com/librarian/librarian/ports/sectionindex"
	"github.com/librarian/librarian/ports/sectionindex/sectionindextest"
)

func openFor(t *testing.T, dsn, schema string, lib *postgressectionindex.Library) (*postgressectionindex.Index, error) {
	t.Helper()
	ix, err := postgressectionindex.Open(context.Background(), dsn, postgressectionindex.Options{Schema: schema, Logger: quiet, Library: lib})
	if err == nil {
		t.Cleanup(func() { ix.Close() })
	}
	return ix, err
}

func putDoc(ix *postgressectionindex.Index, path string) error {
	return ix.Apply(context.Background(), sectionindex.Update{Put: []sectionindex.Entry{
		sectionindextest.MarkdownEntry(path, "Doc", nil, "# Doc\n\ntext\n"),
	}})
}

// heldRow reads the schema's library record.
func heldRow(t *testing.T, dsn, schema string) (name, root, host string) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if err := conn.QueryRow(context.Background(), `SELECT name, root, host FROM `+schema+`.library`).Scan(&name, &root, &host); err != nil {
		t.Fatal(err)
	}
	return name, root, host
}

// TestOneLibraryPerSchema: the first library written into a schema is the
// one it holds. Another library (another name) is refused when it opens
// the schema and when it writes, with a sentence naming the library the
// schema holds and how to give the new one its own schema; the same
// library from another path or machine is welcome; a server with no
// library serves whatever the schema holds.
func TestOneLibraryPerSchema(t *testing.T) {
	d := postgrestest.DSN(t)
	schema := schemaFor(t.Name())
	postgrestest.DropSchema(t, d, schema)
	handbook := &postgressectionindex.Library{Name: "handbook", Root: "/srv/docs/handbook", Host: "ci-1"}
	first, err := openFor(t, d, schema, handbook)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a.md", "b.md", "c.md"} {
		if err := putDoc(first, p); err != nil {
			t.Fatal(err)
		}
	}

	ops := &postgressectionindex.Library{Name: "Ops Notes", Root: "/home/me/Ops Notes", Host: "laptop"}
	_, err = openFor(t, d, schema, ops)
	if !errors.Is(err, postgressectionindex.ErrOtherLibrary) {
		t.Fatalf("Open for another library: %v, want ErrOtherLibrary", err)
	}
	for _, want := range []string{`"handbook" (indexed from /srv/docs/handbook on ci-1), not "Ops Notes" (/home/me/Ops Notes)`,
		"schema " + schema, "add search_path=ops_notes to the DSN's query", "set LIBRARY_NAME=handbook"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q\ndoes not say %q", err, want)
		}
	}

	// The same library at another path on another machine opens and writes.
	same := &postgressectionindex.Library{Name: "handbook", Root: "/home/ci/work/handbook", Host: "ci-2"}
	again, err := openFor(t, d, schema, same)
	if err != nil {
		t.Fatalf("the same library from another path: %v", err)
	}
	if err := putDoc(again, "d.md"); err != nil {
		t.Fatalf("the same library from another path cannot write: %v", err)
	}
	if name, root, host := heldRow(t, d, schema); name != "handbook" || root != "/home/ci/work/handbook" || host != "ci-2" {
		t.Errorf("the record after the second ingest: %q %q %q, want handbook and where it came from last", name, root, host)
	}

	// A server with no library serves it.
	if ix, err := openFor(t, d, schema, nil); err != nil {
		t.Errorf("a server with no library: %v", err)
	} else if st, err := ix.Status(context.Background()); err != nil || st.Docs != 4 {
		t.Errorf("a server with no library sees %+v, %v; want the 4 docs", st, err)
	}
}

// TestSecondLibraryWriteRefused: two libraries that opened an empty schema
// at once both pass Open; the first to write claims it, and the second's
// write is refused before it changes anything.
func TestSecondLibraryWriteRefused(t *testing.T) {
	d := postgrestest.DSN(t)
	schema := schemaFor(t.Name())
	postgrestest.DropSchema(t, d, schema)
	a, err := openFor(t, d, schema, &postgressectionindex.Library{Name: "alpha", Root: "/x/alpha", Host: "h"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := openFor(t, d, schema, &postgressectionindex.Library{Name: "beta", Root: "/x/beta", Host: "h"})
	if err != nil {
		t.Fatal(err)
	}
	if err := putDoc(a, "a.md"); err != nil {
		t.Fatal(err)
	}
	err = b.Apply(context.Background(), sectionindex.Update{Remove: []string{"a.md"}, Put: []sectionindex.Entry{
		sectionindextest.MarkdownEntry("b.md", "B", nil, "# B\n"),
	}})
	if !errors.Is(err, postgressectionindex.ErrOtherLibrary) || !strings.Contains(err.Error(), `"alpha" (indexed from /x/alpha on h), not "beta"`) {
		t.Fatalf("the second library's write: %v, want ErrOtherLibrary naming alpha", err)
	}
	if c, err := a.Catalog(context.Background()); err != nil || len(c.Docs) != 1 || c.Docs[0].Path != "a.md" {
		t.Errorf("after the refused write the schema holds %+v, %v; want a.md alone", c, err)
	}
}

// TestLibraryUpgradeKeepsReaders: a schema of the first version (no
// library record) with a read-only role granted SELECT on its tables is
// upgraded by the next ingest; the reader keeps reading, the new table
// included, without a new GRANT, and the ingest claims the schema.
func TestLibraryUpgradeKeepsReaders(t *testing.T) {
	d, r := postgrestest.DSN(t), readerDSN(t)
	schema := schemaFor(t.Name())
	postgrestest.DropSchema(t, d, schema)
	if err := postgressectionindex.MigrateTo(context.Background(), d, schema, 1); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(r)
	role := u.User.Username()
	exec(t, d, "GRANT USAGE ON SCHEMA "+schema+" TO "+role+"; GRANT SELECT ON ALL TABLES IN SCHEMA "+schema+" TO "+role)

	lib := &postgressectionindex.Library{Name: "handbook", Root: "/srv/handbook", Host: "ci"}
	ix, err := openFor(t, d, schema, lib)
	if err != nil {
		t.Fatalf("upgrade: %v", err)
	}
	if err := putDoc(ix, "a.md"); err != nil {
		t.Fatal(err)
	}
	if name, _, _ := heldRow(t, d, schema); name != "handbook" {
		t.Errorf("the upgraded schema holds %q, want handbook", name)
	}
	if _, err := openFor(t, r, schema, lib); err != nil {
		t.Errorf("the reader after the upgrade, with a root: %v", err)
	}
	if _, err := openFor(t, r, schema, nil); err != nil {
		t.Errorf("the reader after the upgrade, with no root: %v", err)
	}
}
