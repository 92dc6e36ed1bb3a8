package localretrieval_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/adapters/localretrieval"
	"github.com/librarian/librarian/adapters/memjournal"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/domain/extract"
	"github.com/librarian/librarian/ports/docindex"
	"github.com/librarian/librarian/ports/journal"
	"github.com/librarian/librarian/ports/sectionindex"
)

// The tests run the engine honestly: a real library on disk, read by its
// convention's adapter, parsed by goldmark, its names and links extracted
// by the domain's rules, stored in a real (in-memory) SQLite section index.

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// builtAt is the build time the test indexes record.
var builtAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// indexLibrary stores every doc of src in ix.
func indexLibrary(t testing.TB, src docindex.Source, ix sectionindex.Index) {
	t.Helper()
	ctx := context.Background()
	cat, err := src.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	parser := goldmarkmarkdown.New()
	resolver := extract.NewLinkResolver(cat.Docs)
	u := sectionindex.Update{Folders: cat.Folders, Notes: cat.Notes, BuiltAt: builtAt.Unix()}
	for _, d := range cat.Docs {
		content, stamp, err := src.ReadFile(ctx, d.Path)
		if err != nil {
			continue
		}
		d.Stamp = stamp
		s := parser.Parse(content)
		u.Put = append(u.Put, sectionindex.Entry{Doc: d, Content: content, Structure: s,
			Names: extract.Names(content, s), Links: resolver.Resolve(d.Path, extract.Links(content, s, d.Path))})
	}
	if err := ix.Apply(ctx, u); err != nil {
		t.Fatal(err)
	}
}

// newLocal returns a local engine over the library at root (json when it
// has an index.json, else frontmatter).
func newLocal(t testing.TB, root string) *localretrieval.Engine {
	t.Helper()
	var src docindex.Source
	var err error
	if _, statErr := os.Stat(filepath.Join(root, "index.json")); statErr == nil {
		src, err = jsonindex.New(root, "index.json")
	} else {
		src, err = frontmatterindex.New(root)
	}
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := src.(interface{ Close() error }); ok {
		t.Cleanup(func() { c.Close() })
	}
	ix, err := sqlitesectionindex.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	indexLibrary(t, src, ix)
	eng, err := localretrieval.New(localretrieval.Options{Index: ix, Journal: memjournal.New(journal.Limits{}), Library: src})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// copyDir copies the library at src into a new temporary folder.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
