package jsonindex_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/docindex"
	"github.com/librarian/librarian/ports/docindex/docindextest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixtures holds the malformed doc indexes shared at the repository root.
const fixtures = "../../testdata/indexes/doc-index"

// indexEntry is one entry of seed 000's doc index as a test writes it.
type indexEntry struct {
	ID      string   `json:"id"`
	Path    string   `json:"path"`
	Title   string   `json:"title,omitempty"`
	Summary string   `json:"summary,omitempty"`
	Tokens  int      `json:"approx_tokens,omitempty"`
	Tags    []string `json:"tags,omitempty"`
}

// convention encodes the contract suite's corpus as index.json (ids are
// paths without ".md") plus one file per doc holding exactly its body.
func convention() docindextest.Convention {
	var mu sync.Mutex
	written := map[string][]string{} // dir -> doc paths of the last Write
	return docindextest.Convention{
		Write: func(t *testing.T, dir string, docs []docindextest.Doc) {
			t.Helper()
			mu.Lock()
			defer mu.Unlock()
			var paths []string
			for _, d := range docs {
				paths = append(paths, d.Path)
			}
			for _, old := range written[dir] {
				if !slices.Contains(paths, old) {
					if err := os.Remove(filepath.Join(dir, filepath.FromSlash(old))); err != nil && !errors.Is(err, os.ErrNotExist) {
						t.Fatal(err)
					}
				}
			}
			written[dir] = paths
			var entries []indexEntry
			for _, d := range docs {
				writeFile(t, filepath.Join(dir, filepath.FromSlash(d.Path)), d.Body)
				entries = append(entries, indexEntry{ID: strings.TrimSuffix(d.Path, ".md"), Path: d.Path,
					Title: d.Title, Summary: d.Summary, Tokens: d.Tokens, Tags: d.Tags})
			}
			writeIndex(t, dir, entries)
		},
		Open: func(t *testing.T, dir string) docindex.Source {
			t.Helper()
			return open(t, dir, "")
		},
	}
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	// Remove first, so a symlink in the way is replaced, not written through.
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeIndex rewrites dir/index.json in place, as a person editing it would.
func writeIndex(t *testing.T, dir string, entries []indexEntry) {
	t.Helper()
	data, err := json.MarshalIndent(map[string][]indexEntry{"documents": entries}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, dir, docIndex string) *jsonindex.Index {
	t.Helper()
	x, err := jsonindex.New(dir, docIndex)
	if err != nil {
		t.Fatalf("New(%q, %q): %v", dir, docIndex, err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot make symlinks here: %v", err)
	}
}

func TestContract(t *testing.T) {
	docindextest.Run(t, convention())
}

// The json convention stores bodies verbatim, so ReadFile must return them
// exactly (the shared suite can only check the suffix).
func TestReadFileIsExact(t *testing.T) {
	dir := t.TempDir()
	docs := docindextest.Corpus()
	convention().Write(t, dir, docs)
	x := open(t, dir, "")
	for _, d := range docs {
		got, _, err := x.ReadFile(context.Background(), d.Path)
		if err != nil || string(got) != d.Body {
			t.Errorf("ReadFile(%q) = %q, %v; want %q", d.Path, got, err, d.Body)
		}
	}
}

func TestMalformedIndexes(t *testing.T) {
	names, err := filepath.Glob(filepath.Join(fixtures, "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no fixtures in %s: %v", fixtures, err)
	}
	for _, name := range names {
		base := strings.TrimSuffix(filepath.Base(name), ".json")
		t.Run(base, func(t *testing.T) {
			ie := catalogError(t, name)
			got := ie.Error() + "\n"
			golden := filepath.Join("testdata", "malformed", base+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("Catalog error for %s:\n got:\n%s\nwant:\n%s", base, got, want)
			}
		})
	}
}

// catalogError installs fixture as a library's index.json and returns the
// *domain.IndexError its Catalog fails with.
func catalogError(t *testing.T, fixture string) *domain.IndexError {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "index.json"), string(data))
	x := open(t, dir, "")
	cat, err := x.Catalog(context.Background())
	ie, ok := errors.AsType[*domain.IndexError](err)
	if !ok {
		t.Fatalf("Catalog = %+v, %v; want a *domain.IndexError", cat, err)
	}
	if ie.File != "index.json" || len(ie.Problems) == 0 {
		t.Fatalf("IndexError file %q with %d problems, want index.json with some", ie.File, len(ie.Problems))
	}
	return ie
}

// TestAllProblemsListsEveryClass checks that the all-problems fixture
// reports, in one error, every problem that each single-class fixture
// reports (entry numbers aside), so no class stops validation early.
func TestAllProblemsListsEveryClass(t *testing.T) {
	entryNumber := regexp.MustCompile(`documents\[\d+\]`)
	messages := func(ie *domain.IndexError) []string {
		var out []string
		for _, p := range ie.Problems {
			out = append(out, entryNumber.ReplaceAllString(p.String(), "documents[N]"))
		}
		return out
	}
	all := messages(catalogError(t, filepath.Join(fixtures, "all-problems.json")))
	names, _ := filepath.Glob(filepath.Join(fixtures, "*.json"))
	wholeFile := map[string]bool{ // problems that leave no entries to check
		"all-problems": true, "invalid-json": true, "truncated-json": true,
		"top-level-not-object": true, "documents-missing": true, "documents-not-a-list": true,
	}
	for _, name := range names {
		base := strings.TrimSuffix(filepath.Base(name), ".json")
		if wholeFile[base] {
			continue
		}
		for _, m := range messages(catalogError(t, name)) {
			if !slices.Contains(all, m) {
				t.Errorf("all-problems lacks %s's problem %q", base, m)
			}
		}
	}
}

func TestNotesForRefusedAndMissingDocs(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "lib")
	writeFile(t, filepath.Join(base, "lib_evil", "secret.md"), "SECRET")
	writeFile(t, filepath.Join(dir, "backend", "auth.md"), "# Auth\n")
	writeFile(t, filepath.Join(dir, "guides", "intro.md"), "# Intro\n")
	if err := os.MkdirAll(filepath.Join(dir, "folder.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "../lib_evil/secret.md", filepath.Join(dir, "secret.md"))
	symlink(t, filepath.Join(dir, "backend", "auth.md"), filepath.Join(dir, "absolute.md"))
	symlink(t, filepath.Join(base, "lib_evil", "secret.md"), filepath.Join(dir, "absolute-evil.md"))
	symlink(t, "../backend/auth.md", filepath.Join(dir, "guides", "auth-alias.md"))
	symlink(t, "loop-b.md", filepath.Join(dir, "loop-a.md"))
	symlink(t, "loop-a.md", filepath.Join(dir, "loop-b.md"))
	symlink(t, filepath.Join(dir, "abs-loop-b.md"), filepath.Join(dir, "abs-loop-a.md"))
	symlink(t, "abs-loop-a.md", filepath.Join(dir, "abs-loop-b.md"))
	writeIndex(t, dir, []indexEntry{
		{ID: "auth", Path: "backend/auth.md", Title: "Auth"},
		{ID: "intro", Path: "guides/intro.md"},
		{ID: "evil", Path: "secret.md", Title: "Evil"},
		{ID: "absolute", Path: "absolute.md"},
		{ID: "gone", Path: "gone.md"},
		{ID: "folder", Path: "folder.md"},
		{ID: "alias", Path: "guides/auth-alias.md"},
		{ID: "loop", Path: "loop-a.md"},
		{ID: "under-a-file", Path: "backend/auth.md/x.md"},
		{ID: "absolute-evil", Path: "absolute-evil.md"},
		{ID: "absolute-loop", Path: "abs-loop-a.md"},
	})
	x := open(t, dir, "")
	cat, err := x.Catalog(context.Background())
	if err != nil {
		t.Fatalf("Catalog: %v", err)
	}
	var ids []string
	for _, d := range cat.Docs {
		ids = append(ids, d.ID)
	}
	if want := []string{"absolute", "auth", "alias", "intro"}; !slices.Equal(ids, want) {
		t.Errorf("Catalog ids = %q, want %q (path order, refused and missing left out)", ids, want)
	}
	wantNotes := []string{
		"refused: documents[2] (id 'evil'): 'secret.md' resolves outside the library root",
		"missing: documents[4] (id 'gone'): file 'gone.md' not found",
		"refused: documents[5] (id 'folder'): 'folder.md' is not a regular file",
		"refused: documents[7] (id 'loop'): 'loop-a.md' cannot be read: statat loop-a.md: too many levels of symbolic links",
		"missing: documents[8] (id 'under-a-file'): file 'backend/auth.md/x.md' not found",
		"refused: documents[9] (id 'absolute-evil'): 'absolute-evil.md' resolves outside the library root",
		"refused: documents[10] (id 'absolute-loop'): 'abs-loop-a.md' cannot be read: resolve abs-loop-a.md: too many levels of symbolic links",
	}
	if !slices.Equal(cat.Notes, wantNotes) {
		t.Errorf("Catalog notes:\n got %q\nwant %q", cat.Notes, wantNotes)
	}
	if strings.Contains(fmt.Sprint(cat), "SECRET") {
		t.Errorf("Catalog shows the secret: %+v", cat)
	}
}

// A doc checked by Catalog and then swapped for a symlink out is still
// refused when read: the open goes through the root, not through a path
// checked earlier.
func TestSwapAfterCatalogIsRefused(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "lib")
	writeFile(t, filepath.Join(base, "outside", "secret.md"), "SECRET")
	writeFile(t, filepath.Join(dir, "doc.md"), "# Doc\n")
	writeIndex(t, dir, []indexEntry{{ID: "doc", Path: "doc.md"}})
	x := open(t, dir, "")
	if cat, err := x.Catalog(context.Background()); err != nil || len(cat.Docs) != 1 {
		t.Fatalf("Catalog = %+v, %v; want the doc", cat, err)
	}
	if err := os.Remove(filepath.Join(dir, "doc.md")); err != nil {
		t.Fatal(err)
	}
	symlink(t, "../outside/secret.md", filepath.Join(dir, "doc.md"))
	got, _, err := x.ReadFile(context.Background(), "doc.md")
	if !errors.Is(err, domain.ErrRefused) || got != nil {
		t.Errorf("ReadFile after the swap = %q, %v; want no bytes and domain.ErrRefused", got, err)
	}
}

func TestIndexFileOutsideRootIsRefused(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "lib")
	writeFile(t, filepath.Join(dir, "a.md"), "# A\n")
	writeFile(t, filepath.Join(base, "outside", "index.json"), `{"documents": [{"id": "a", "path": "a.md"}]}`)
	writeFile(t, filepath.Join(base, "lib_evil", "index.json"), `{"documents": [{"id": "a", "path": "a.md"}]}`)
	ctx := context.Background()

	t.Run("refused setting", func(t *testing.T) {
		tests := []struct{ setting, want string }{
			{"../outside/index.json", "doc index setting '../outside/index.json' refused: 'doc index' may not contain '..'"},
			{"../lib_evil/index.json", "doc index setting '../lib_evil/index.json' refused: 'doc index' may not contain '..'"},
			{"/etc/passwd", "doc index setting '/etc/passwd' refused: 'doc index' must be relative, not absolute"},
			{`meta\index.json`, `doc index setting 'meta\index.json' refused: 'doc index' may not contain '\' (use '/')`},
		}
		for _, tt := range tests {
			x := open(t, dir, tt.setting) // the server starts; every call says why it cannot list
			for range 2 {
				cat, err := x.Catalog(ctx)
				if !errors.Is(err, domain.ErrRefused) || cat != nil || err.Error() != tt.want {
					t.Errorf("Catalog with setting %q = %+v, %v; want %q wrapping domain.ErrRefused", tt.setting, cat, err, tt.want)
				}
			}
			// Document files are still reached by their own paths.
			if got, _, err := x.ReadFile(ctx, "a.md"); err != nil || string(got) != "# A\n" {
				t.Errorf("ReadFile(a.md) with setting %q = %q, %v; want its bytes", tt.setting, got, err)
			}
		}
	})
	t.Run("symlinked index pointing out", func(t *testing.T) {
		for name, target := range map[string]string{
			"relative":        "../outside/index.json",
			"absolute":        filepath.Join(base, "outside", "index.json"),
			"absolute prefix": filepath.Join(base, "lib_evil", "index.json"),
		} {
			symlink(t, target, filepath.Join(dir, "index.json"))
			x := open(t, dir, "")
			_, err := x.Catalog(ctx)
			if want := "doc index 'index.json' resolves outside the library root"; !errors.Is(err, domain.ErrRefused) || err.Error() != want {
				t.Errorf("Catalog with index.json symlinked out (%s): %v; want %q wrapping domain.ErrRefused", name, err, want)
			}
			os.Remove(filepath.Join(dir, "index.json"))
		}
	})
	t.Run("index swapped for a symlink out after New", func(t *testing.T) {
		writeFile(t, filepath.Join(dir, "index.json"), `{"documents": [{"id": "a", "path": "a.md"}]}`)
		x := open(t, dir, "")
		if _, err := x.Catalog(ctx); err != nil {
			t.Fatalf("Catalog: %v", err)
		}
		os.Remove(filepath.Join(dir, "index.json"))
		symlink(t, "../lib_evil/index.json", filepath.Join(dir, "index.json"))
		defer os.Remove(filepath.Join(dir, "index.json"))
		if cat, err := x.Catalog(ctx); !errors.Is(err, domain.ErrRefused) {
			t.Errorf("Catalog after the swap = %+v, %v; want domain.ErrRefused", cat, err)
		}
	})
	t.Run("symlinked index inside the root", func(t *testing.T) {
		writeFile(t, filepath.Join(dir, "meta", "docs.json"), `{"documents": [{"id": "a", "path": "a.md"}]}`)
		for _, target := range []string{"meta/docs.json", filepath.Join(dir, "meta", "docs.json")} {
			symlink(t, target, filepath.Join(dir, "index.json"))
			x := open(t, dir, "")
			if cat, err := x.Catalog(ctx); err != nil || len(cat.Docs) != 1 {
				t.Errorf("Catalog with index.json a symlink to %s = %+v, %v; want one doc", target, cat, err)
			}
			os.Remove(filepath.Join(dir, "index.json"))
		}
	})
}

// New fails only when the root cannot be opened; a missing doc index fails
// every Catalog call with an error naming it, and is seen once it appears.
func TestNewErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := jsonindex.New(filepath.Join(dir, "missing"), ""); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("New on a missing root: %v; want an error wrapping os.ErrNotExist", err)
	}
	x := open(t, dir, "")
	ctx := context.Background()
	for range 2 {
		_, err := x.Catalog(ctx)
		if want := "doc index 'index.json' not found in library root " + dir; !errors.Is(err, domain.ErrNotFound) || err.Error() != want {
			t.Errorf("Catalog without index.json: %v; want %q wrapping domain.ErrNotFound", err, want)
		}
	}
	writeIndex(t, dir, []indexEntry{})
	if cat, err := x.Catalog(ctx); err != nil || len(cat.Docs) != 0 {
		t.Errorf("Catalog once index.json appeared = %+v, %v; want no docs, no error", cat, err)
	}
	y := open(t, dir, "../index.json")
	_, err := y.Catalog(ctx)
	if want := "doc index setting '../index.json' refused: 'doc index' may not contain '..'"; err == nil || err.Error() != want {
		t.Errorf("Catalog error %v, want %q", err, want)
	}
}

// A doc index that disappears after New fails Catalog with domain.ErrNotFound.
func TestIndexRemovedAfterNew(t *testing.T) {
	dir := t.TempDir()
	writeIndex(t, dir, nil)
	x := open(t, dir, "")
	os.Remove(filepath.Join(dir, "index.json"))
	if _, err := x.Catalog(context.Background()); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Catalog with the index removed: %v; want domain.ErrNotFound", err)
	}
}

func TestCustomIndexPathAndEntryFields(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.md"), "a")
	writeFile(t, filepath.Join(dir, "meta", "docs.json"), `{"version": 2, "documents": [
		{"id": "a", "path": "./a.md", "title": "A", "approx_tokens": 0, "tags": ["x", "y", "x"], "owner": "docs-team", "extra": {"any": [1]}},
		{"id": "b", "path": "a.md"}
	]}`)
	x := open(t, dir, "meta/docs.json")
	cat, err := x.Catalog(context.Background())
	if err != nil {
		t.Fatalf("two entries with the same path (an alias) should fail nothing, got %v", err)
	}
	var ids []string
	for _, d := range cat.Docs {
		ids = append(ids, d.ID+"="+d.Path)
	}
	if got, want := strings.Join(ids, ","), "a=a.md,b=a.md"; got != want {
		t.Errorf("alias docs = %s, want %s (both ids served)", got, want)
	}
	wantWarnings := []string{"documents[1] (id 'b'): same path 'a.md' as documents[0] (id 'a'): both ids serve that file"}
	if !slices.Equal(cat.Warnings, wantWarnings) || len(cat.Notes) != 0 {
		t.Errorf("warnings = %q, notes = %q; want warnings %q and no notes", cat.Warnings, cat.Notes, wantWarnings)
	}
	writeFile(t, filepath.Join(dir, "meta", "docs.json"), `{"documents": [
		{"id": "a", "path": "./a.md", "title": "A", "approx_tokens": 0, "tags": ["x", "y", "x"], "owner": "docs-team"}]}`)
	cat, err = x.Catalog(context.Background())
	if err != nil {
		t.Fatalf("Catalog: %v", err)
	}
	wantDoc := domain.Document{ID: "a", Path: "a.md", Title: "A", Tokens: 0, HasTokens: true, Tags: []string{"x", "y"}}
	if len(cat.Docs) == 1 {
		cat.Docs[0].Stamp = domain.Stamp{} // checked by the contract suite
	}
	if len(cat.Docs) != 1 || fmt.Sprint(cat.Docs[0]) != fmt.Sprint(wantDoc) {
		t.Errorf("Catalog docs = %+v, want [%+v] (clean path, tokens as given, repeated tag dropped, unknown fields ignored)", cat.Docs, wantDoc)
	}
}

func TestUnchangedIndexIsNotReparsed(t *testing.T) {
	dir := t.TempDir()
	docs := docindextest.Corpus()
	c := convention()
	c.Write(t, dir, docs)
	x := open(t, dir, "")
	ctx := context.Background()
	for range 5 {
		if _, err := x.Catalog(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if got := jsonindex.Parses(x); got != 1 {
		t.Errorf("5 Catalogs of an unchanged index parsed it %d times, want 1", got)
	}

	// A broken index is cached too: its error comes back without a re-parse.
	writeFile(t, filepath.Join(dir, "index.json"), `{"documents": [{"id": "a"}]}`)
	for range 3 {
		if _, err := x.Catalog(ctx); !errors.As(err, new(*domain.IndexError)) {
			t.Fatalf("Catalog of a broken index: %v, want a *domain.IndexError", err)
		}
	}
	if got := jsonindex.Parses(x); got != 2 {
		t.Errorf("after one edit and 3 Catalogs: %d parses, want 2", got)
	}

	// Editing a doc file, not the index, needs no re-parse either.
	c.Write(t, dir, docs)
	x.Catalog(ctx)
	writeFile(t, filepath.Join(dir, "a.md"), "a longer body than before\n")
	if _, err := x.Catalog(ctx); err != nil {
		t.Fatal(err)
	}
	if got := jsonindex.Parses(x); got != 3 {
		t.Errorf("after fixing the index and editing a doc: %d parses, want 3", got)
	}
}

func TestContextCancelled(t *testing.T) {
	dir := t.TempDir()
	convention().Write(t, dir, docindextest.Corpus())
	x := open(t, dir, "")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := x.Catalog(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Catalog with a cancelled context: %v, want context.Canceled", err)
	}
}

// BenchmarkCatalog10k measures Catalog over a 10,000-doc index in 500
// folders: the first call (parse and check) and later calls (the index
// unchanged, every doc file checked again).
func BenchmarkCatalog10k(b *testing.B) {
	dir := b.TempDir()
	var entries []indexEntry
	for i := range 10_000 {
		p := fmt.Sprintf("area-%02d/topic-%02d/doc-%04d.md", i%20, i%25, i)
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("# Doc\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		entries = append(entries, indexEntry{ID: strings.TrimSuffix(p, ".md"), Path: p, Title: "Doc", Summary: "A doc.", Tokens: 10, Tags: []string{"a", "b"}})
	}
	data, _ := json.Marshal(map[string][]indexEntry{"documents": entries})
	if err := os.WriteFile(filepath.Join(dir, "index.json"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	x, err := jsonindex.New(dir, "")
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	ctx := context.Background()
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			y, _ := jsonindex.New(dir, "")
			if cat, err := y.Catalog(ctx); err != nil || len(cat.Docs) != 10_000 {
				b.Fatal(err)
			}
			y.Close()
		}
	})
	// The baseline Catalog's folder-wise check improves on: every doc
	// resolved from the root, one after the other.
	b.Run("baseline-stat-each-from-root", func(b *testing.B) {
		r, err := os.OpenRoot(dir)
		if err != nil {
			b.Fatal(err)
		}
		defer r.Close()
		for b.Loop() {
			for _, e := range entries {
				if _, err := r.Stat(e.Path); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		for b.Loop() {
			if cat, err := x.Catalog(ctx); err != nil || len(cat.Docs) != 10_000 {
				b.Fatal(err)
			}
		}
	})
}

// TestSameStampEditIsSeen: an index rewritten with the same size within one
// timestamp tick keeps its stamp; the next Catalog must still see it.
func TestSameStampEditIsSeen(t *testing.T) {
	dir := t.TempDir()
	mtime := time.Now()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	write("a.md", "# A\n")
	write("index.json", `{"documents": [{"id": "aaa", "path": "a.md"}]}`)
	x, err := jsonindex.New(dir, "index.json")
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	cat, err := x.Catalog(context.Background())
	if err != nil || len(cat.Docs) != 1 || cat.Docs[0].ID != "aaa" {
		t.Fatalf("first Catalog = %+v, %v", cat, err)
	}
	write("index.json", `{"documents": [{"id": "bbb", "path": "a.md"}]}`)
	cat, err = x.Catalog(context.Background())
	if err != nil || len(cat.Docs) != 1 || cat.Docs[0].ID != "bbb" {
		t.Fatalf("after a same-stamp edit, Catalog = %+v, %v; want id bbb", cat.Docs, err)
	}
}

// TestAnyMarkdownExtension: the index names its docs, so a path's
// extension is the index's business: README.MD and .markdown files are
// served like any other, and read exactly.
func TestAnyMarkdownExtension(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "ops", "README.MD"), "# Ops\n")
	writeFile(t, filepath.Join(dir, "guide.Markdown"), "# Guide\n")
	writeIndex(t, dir, []indexEntry{{ID: "ops-readme", Path: "ops/README.MD"}, {ID: "guide", Path: "guide.Markdown"}})
	x := open(t, dir, "")
	cat, err := x.Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Docs) != 2 || len(cat.Notes) != 0 || cat.Docs[0].Path != "guide.Markdown" || cat.Docs[1].Path != "ops/README.MD" {
		t.Fatalf("catalog = %+v, notes %q; want both docs, no note", cat.Docs, cat.Notes)
	}
	if b, _, err := x.ReadFile(context.Background(), "ops/README.MD"); err != nil || string(b) != "# Ops\n" {
		t.Errorf("ReadFile(ops/README.MD) = %q, %v", b, err)
	}
}
