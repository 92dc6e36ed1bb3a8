// Package docindextest is the contract suite of the docindex port: every
// index source (adapters/jsonindex, adapters/frontmatterindex, ...) runs Run
// unchanged, in the manner of testing/fstest.TestFS. The suite owns one
// convention-neutral corpus of documents; a Convention encodes it into a
// library folder the adapter's way and opens a Source over it.
//
// Symlinks are made at run time with os.Symlink (never committed), so the
// symlink subtests skip where the platform cannot make them.
package docindextest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/docindex"
)

// Doc is one document of the shared corpus, convention-neutral. Its id is
// always Path without ".md".
type Doc struct {
	Path, Title, Summary string
	Tags                 []string
	Tokens               int // 0 = not given
	Body                 string
}

// Convention writes docs into dir in the adapter's encoding (replacing what
// it wrote before) and opens sources.
type Convention struct {
	Write func(t *testing.T, dir string, docs []Doc)     // (re)write the whole library in dir
	Open  func(t *testing.T, dir string) docindex.Source // a source over dir
}

// Corpus returns the documents every subtest starts from: paths whose byte
// order differs from a directory walk's order ("a-b.md" < "a.md" < "a/b.md",
// upper case before lower case), CRLF lines, a body without a final newline,
// an empty body, non-ASCII text, docs with and without tokens, tags and
// summary. Bodies never start with "---", so they are frontmatter-free.
func Corpus() []Doc {
	return []Doc{
		{Path: "guides/getting-started.md", Title: "Getting started", Summary: "Install, configure and run the server.",
			Tags: []string{"guide", "setup"}, Tokens: 120,
			Body: "# Getting started\n\nRun `librarian --root ./library`.\n\n---\n\nA thematic break above.\n"},
		{Path: "backend/auth.md", Title: "Authentication", Summary: "Gateway token validation: login flow, refresh tokens.",
			Tags: []string{"security", "backend"}, Tokens: 353,
			Body: "# Authentication\r\n\r\nCRLF lines are returned as written.\r\n"},
		{Path: "backend/storage/caching.md", Title: "Caching", Summary: "Redis key conventions.",
			Body: "# Caching\n\n```go\nkey := \"user:\" + id\n```\n\nno final newline"},
		{Path: "B-upper.md", Title: "Upper case first", Summary: "Sorts before every lower-case path.", Tokens: 7,
			Body: "Upper.\n"},
		{Path: "a-b.md", Title: "A dash B", Tags: []string{"order"}, Body: "dash\n"},
		{Path: "a.md", Title: "A", Tags: []string{"order"}, Body: "a\n"},
		{Path: "a/b.md", Title: "A slash B", Tags: []string{"order", "nested"}, Body: "slash\n"},
		{Path: "empty.md", Title: "Empty", Summary: "A document with no body.", Body: ""},
		{Path: "notes/ünïcode.md", Title: "Ünïcode – en dash", Summary: "émoji 🚀 and “quotes”", Tags: []string{"ü", "🚀"},
			Tokens: 42, Body: "# Ünïcode\n\n— dashes —, “quotes”, 🚀\n"},
	}
}

// Run checks every property of the docindex.Source contract, one subtest each.
func Run(t *testing.T, c Convention) {
	t.Helper()
	if c.Write == nil || c.Open == nil {
		t.Fatal("docindextest: Convention needs both Write and Open")
	}
	t.Run("CatalogListsEveryDocInPathOrder", func(t *testing.T) { testCatalog(t, c) })
	t.Run("ReadFileReturnsTheFileBytes", func(t *testing.T) { testReadFile(t, c) })
	t.Run("StatMatchesReadFile", func(t *testing.T) { testStatMatchesReadFile(t, c) })
	t.Run("EditShowsInNextCatalog", func(t *testing.T) { testEdit(t, c) })
	t.Run("AddedAndRemovedDocsShowInNextCatalog", func(t *testing.T) { testAddRemove(t, c) })
	t.Run("MalformedPathsAreRefused", func(t *testing.T) { testMalformedPaths(t, c) })
	t.Run("MissingFileIsNotFound", func(t *testing.T) { testMissing(t, c) })
	t.Run("SymlinkOutsideRootIsRefused", func(t *testing.T) { testSymlinkOutside(t, c) })
	t.Run("SymlinkInsideRootIsFine", func(t *testing.T) { testSymlinkInside(t, c) })
	t.Run("SiblingWithRootPrefixIsRefused", func(t *testing.T) { testSiblingPrefix(t, c) })
	t.Run("SymlinkLoopIsRefused", func(t *testing.T) { testSymlinkLoop(t, c) })
	t.Run("ConcurrentCallsAreSafe", func(t *testing.T) { testConcurrent(t, c) })
}

// library lays out base/lib (the library), base/lib_evil and base/outside
// (places a path trick might reach), writes docs into lib and opens a source.
type library struct {
	base, dir string
	src       docindex.Source
}

func newLibrary(t *testing.T, c Convention, docs []Doc) *library {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "lib")
	for _, d := range []string{dir, filepath.Join(base, "lib_evil"), filepath.Join(base, "outside")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c.Write(t, dir, docs)
	return &library{base: base, dir: dir, src: c.Open(t, dir)}
}

// secret is written outside the library; no byte of it may come back.
const secretMarker = "SECRET-7f3a"

func (l *library) writeSecret(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join(l.base, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	content := "---\ntitle: " + secretMarker + " title\nsummary: " + secretMarker + " summary\n---\n# " + secretMarker + "\n" + secretMarker + " body\n"
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// symlink replaces the library file rel (if any) with a symlink to target.
func (l *library) symlink(t *testing.T, target, rel string) {
	t.Helper()
	p := filepath.Join(l.dir, filepath.FromSlash(rel))
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Skipf("cannot make symlinks here: %v", err)
	}
}

func catalog(t *testing.T, src docindex.Source) *domain.Catalog {
	t.Helper()
	cat, err := src.Catalog(context.Background())
	if err != nil {
		t.Fatalf("Catalog: %v", err)
	}
	if cat == nil {
		t.Fatal("Catalog returned nil and no error")
	}
	return cat
}

// want is the Document a source must report for d.
func want(d Doc) domain.Document {
	return domain.Document{
		ID:        strings.TrimSuffix(d.Path, ".md"),
		Path:      d.Path,
		Title:     d.Title,
		Summary:   d.Summary,
		Tokens:    d.Tokens,
		HasTokens: d.Tokens != 0,
		Tags:      d.Tags,
	}
}

func sortedByPath(docs []Doc) []Doc {
	out := slices.Clone(docs)
	slices.SortFunc(out, func(a, b Doc) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// checkDocs compares a catalog's docs with the corpus docs, in byte order of
// Path. Tokens are compared only when the corpus gives them: without them a
// source leaves HasTokens false and the value is the caller's to estimate.
func checkDocs(t *testing.T, got []domain.Document, docs []Doc) {
	t.Helper()
	wantDocs := sortedByPath(docs)
	var gotPaths, wantPaths []string
	for _, d := range got {
		gotPaths = append(gotPaths, d.Path)
	}
	for _, d := range wantDocs {
		wantPaths = append(wantPaths, d.Path)
	}
	if !slices.Equal(gotPaths, wantPaths) {
		t.Fatalf("Catalog paths:\n got %q\nwant %q (every doc, byte order of Path)", gotPaths, wantPaths)
	}
	for i, g := range got {
		w := want(wantDocs[i])
		if g.ID != w.ID || g.Title != w.Title || g.Summary != w.Summary || !equalTags(g.Tags, w.Tags) ||
			g.HasTokens != w.HasTokens || (w.HasTokens && g.Tokens != w.Tokens) {
			t.Errorf("Catalog doc %s:\n got %s\nwant %s", g.Path, describe(g), describe(w))
		}
	}
}

func equalTags(a, b []string) bool { return len(a) == 0 && len(b) == 0 || slices.Equal(a, b) }

func describe(d domain.Document) string {
	tokens := "no tokens"
	if d.HasTokens {
		tokens = fmt.Sprintf("%d tokens", d.Tokens)
	}
	return fmt.Sprintf("{id %q, title %q, summary %q, tags %q, %s}", d.ID, d.Title, d.Summary, d.Tags, tokens)
}

func testCatalog(t *testing.T, c Convention) {
	docs := Corpus()
	l := newLibrary(t, c, docs)
	cat := catalog(t, l.src)
	checkDocs(t, cat.Docs, docs)
	if len(cat.Notes) != 0 {
		t.Errorf("Catalog of a clean library has notes %q, want none", cat.Notes)
	}
	again := catalog(t, l.src)
	checkDocs(t, again.Docs, docs)
	checkCatalogStamps(t, l.src, again)
}

// checkCatalogStamps: a stamp the catalog carries is the file's current
// one, so callers may skip their own Stat.
func checkCatalogStamps(t *testing.T, src docindex.Source, cat *domain.Catalog) {
	t.Helper()
	for _, d := range cat.Docs {
		if d.Stamp == (domain.Stamp{}) {
			continue
		}
		st, err := src.Stat(context.Background(), d.Path)
		if err != nil || !st.Equal(d.Stamp) {
			t.Errorf("Catalog stamp of %q = %+v, Stat = %+v (%v): want equal", d.Path, d.Stamp, st, err)
		}
	}
}

func testReadFile(t *testing.T, c Convention) {
	docs := Corpus()
	l := newLibrary(t, c, docs)
	ctx := context.Background()
	for _, d := range docs {
		got, stamp, err := l.src.ReadFile(ctx, d.Path)
		if err != nil {
			t.Errorf("ReadFile(%q): %v", d.Path, err)
			continue
		}
		if !bytes.HasSuffix(got, []byte(d.Body)) {
			t.Errorf("ReadFile(%q) = %q, want bytes ending with the body %q", d.Path, got, d.Body)
		}
		if stamp.Size != int64(len(got)) {
			t.Errorf("ReadFile(%q) stamp size %d, want %d (the bytes read)", d.Path, stamp.Size, len(got))
		}
	}
}

func testStatMatchesReadFile(t *testing.T, c Convention) {
	docs := Corpus()
	l := newLibrary(t, c, docs)
	ctx := context.Background()
	for _, d := range docs {
		st, err := l.src.Stat(ctx, d.Path)
		if err != nil {
			t.Errorf("Stat(%q): %v", d.Path, err)
			continue
		}
		got, rst, err := l.src.ReadFile(ctx, d.Path)
		if err != nil {
			t.Errorf("ReadFile(%q): %v", d.Path, err)
			continue
		}
		if !st.Equal(rst) {
			t.Errorf("Stat(%q) = %+v, ReadFile stamp %+v: want equal for an unchanged file", d.Path, st, rst)
		}
		if st.Size != int64(len(got)) {
			t.Errorf("Stat(%q).Size = %d, want %d (len of ReadFile bytes)", d.Path, st.Size, len(got))
		}
	}
}

func testEdit(t *testing.T, c Convention) {
	docs := Corpus()
	l := newLibrary(t, c, docs)
	ctx := context.Background()
	const edited = "backend/auth.md"
	before, err := l.src.Stat(ctx, edited)
	if err != nil {
		t.Fatalf("Stat(%q): %v", edited, err)
	}
	catalog(t, l.src) // let the source cache what it caches

	// Every edited field changes length, so the stamp changes even on file
	// systems with coarse modification times.
	for i := range docs {
		if docs[i].Path == edited {
			docs[i].Title = "Authentication, edited"
			docs[i].Summary = "Rewritten: now with sessions and much longer text."
			docs[i].Tags = []string{"security"}
			docs[i].Body = "# Authentication, edited\n\nSessions too.\nAnd one more line.\n"
		}
	}
	c.Write(t, l.dir, docs)

	after, err := l.src.Stat(ctx, edited)
	if err != nil {
		t.Fatalf("Stat(%q) after edit: %v", edited, err)
	}
	if before.Equal(after) {
		t.Errorf("Stat(%q) after edit = %+v, same as before: want a new stamp", edited, after)
	}
	got, _, err := l.src.ReadFile(ctx, edited)
	if err != nil {
		t.Fatalf("ReadFile(%q) after edit: %v", edited, err)
	}
	if !bytes.HasSuffix(got, []byte("Sessions too.\nAnd one more line.\n")) {
		t.Errorf("ReadFile(%q) after edit = %q, want the new body", edited, got)
	}
	edCat := catalog(t, l.src)
	checkDocs(t, edCat.Docs, docs)
	checkCatalogStamps(t, l.src, edCat)
}

func testAddRemove(t *testing.T, c Convention) {
	docs := Corpus()
	l := newLibrary(t, c, docs)
	ctx := context.Background()
	catalog(t, l.src)

	const removed, added = "a.md", "guides/zz-new.md"
	docs = slices.DeleteFunc(docs, func(d Doc) bool { return d.Path == removed })
	docs = append(docs, Doc{Path: added, Title: "Added later", Summary: "Shows up without a new source.",
		Tags: []string{"new"}, Tokens: 5, Body: "# Added later\n"})
	c.Write(t, l.dir, docs)

	checkDocs(t, catalog(t, l.src).Docs, docs)
	if _, err := l.src.Stat(ctx, removed); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Stat(%q) of a removed doc: err = %v, want one wrapping domain.ErrNotFound", removed, err)
	}
	if got, _, err := l.src.ReadFile(ctx, added); err != nil || string(got) == "" {
		t.Errorf("ReadFile(%q) of an added doc = %q, %v; want its bytes", added, got, err)
	}
}

func testMalformedPaths(t *testing.T, c Convention) {
	l := newLibrary(t, c, Corpus())
	// A file literally named `a\b` exists on Unix; it must still be refused.
	_ = os.WriteFile(filepath.Join(l.dir, `a\b`), []byte("backslash"), 0o644)
	ctx := context.Background()
	for _, p := range []string{"../x", "/etc/passwd", `a\b`, "", "guides/../../x", "./../lib/a.md", "..", "guides/../.."} {
		if _, err := l.src.Stat(ctx, p); !errors.Is(err, domain.ErrRefused) {
			t.Errorf("Stat(%q): err = %v, want one wrapping domain.ErrRefused", p, err)
		}
		if got, _, err := l.src.ReadFile(ctx, p); !errors.Is(err, domain.ErrRefused) || got != nil {
			t.Errorf("ReadFile(%q) = %q, %v; want no bytes and an error wrapping domain.ErrRefused", p, got, err)
		}
	}
}

func testMissing(t *testing.T, c Convention) {
	l := newLibrary(t, c, Corpus())
	ctx := context.Background()
	for _, p := range []string{"nope.md", "guides/nope.md", "no-such-folder/x.md", "a.md/below-a-file.md"} {
		if _, err := l.src.Stat(ctx, p); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("Stat(%q): err = %v, want one wrapping domain.ErrNotFound", p, err)
		}
		if got, _, err := l.src.ReadFile(ctx, p); !errors.Is(err, domain.ErrNotFound) || got != nil {
			t.Errorf("ReadFile(%q) = %q, %v; want no bytes and an error wrapping domain.ErrNotFound", p, got, err)
		}
	}
}

// checkRefusedDoc asserts that the library doc rel, a symlink that escapes
// or loops, is refused by Stat and ReadFile, that the catalog does not
// fail, and that it either omits rel with a note naming it or lists it,
// never showing a byte of the secret.
func checkRefusedDoc(t *testing.T, src docindex.Source, rel string) {
	t.Helper()
	ctx := context.Background()
	if _, err := src.Stat(ctx, rel); !errors.Is(err, domain.ErrRefused) {
		t.Errorf("Stat(%q) of a refused symlink: err = %v, want one wrapping domain.ErrRefused", rel, err)
	}
	got, _, err := src.ReadFile(ctx, rel)
	if !errors.Is(err, domain.ErrRefused) || got != nil {
		t.Errorf("ReadFile(%q) of a refused symlink = %q, %v; want no bytes and an error wrapping domain.ErrRefused", rel, got, err)
	}
	if err != nil && strings.Contains(err.Error(), secretMarker) {
		t.Errorf("ReadFile(%q) error %q shows the secret", rel, err)
	}
	cat, err := src.Catalog(ctx)
	if err != nil {
		t.Fatalf("Catalog with a refused symlink failed: %v; want the doc left out with a note, or listed", err)
	}
	if dump := fmt.Sprintf("%+v", *cat); strings.Contains(dump, secretMarker) {
		t.Errorf("Catalog shows bytes of a file outside the root: %s", dump)
	}
	listed := slices.ContainsFunc(cat.Docs, func(d domain.Document) bool { return d.Path == rel })
	noted := slices.ContainsFunc(cat.Notes, func(n string) bool { return strings.Contains(n, rel) })
	if !listed && !noted {
		t.Errorf("Catalog neither lists %q nor has a note naming it; notes: %q", rel, cat.Notes)
	}
}

func testSymlinkOutside(t *testing.T, c Convention) {
	docs := append(Corpus(),
		Doc{Path: "evil-relative.md", Title: "Evil relative", Body: "placeholder\n"},
		Doc{Path: "guides/evil-absolute.md", Title: "Evil absolute", Body: "placeholder\n"},
	)
	l := newLibrary(t, c, docs)
	secret := l.writeSecret(t, "outside/secret.md")
	l.symlink(t, "../outside/secret.md", "evil-relative.md")
	l.symlink(t, secret, "guides/evil-absolute.md")
	checkRefusedDoc(t, l.src, "evil-relative.md")
	checkRefusedDoc(t, l.src, "guides/evil-absolute.md")

	// A folder on the way that is a symlink out, relative or absolute, is
	// refused the same way.
	l.symlink(t, "../outside", "linked-out")
	l.symlink(t, filepath.Join(l.base, "outside"), "linked-out-absolute")
	ctx := context.Background()
	for _, p := range []string{"linked-out/secret.md", "linked-out-absolute/secret.md"} {
		if _, err := l.src.Stat(ctx, p); !errors.Is(err, domain.ErrRefused) {
			t.Errorf("Stat(%q) through a folder symlinked out: err = %v, want one wrapping domain.ErrRefused", p, err)
		}
		if got, _, err := l.src.ReadFile(ctx, p); !errors.Is(err, domain.ErrRefused) || got != nil {
			t.Errorf("ReadFile(%q) through a folder symlinked out = %q, %v; want no bytes and domain.ErrRefused", p, got, err)
		}
	}
	if _, err := l.src.Catalog(ctx); err != nil {
		t.Errorf("Catalog with a folder symlinked out failed: %v", err)
	}
}

func testSymlinkInside(t *testing.T, c Convention) {
	docs := Corpus()
	var target Doc
	for _, d := range docs {
		if d.Path == "backend/auth.md" {
			target = d
		}
	}
	// The aliases carry the target's metadata, so every convention (index
	// entry or the file's own frontmatter) describes them the same way.
	alias := func(p string) Doc {
		a := target
		a.Path = p
		return a
	}
	relative, absolute, chained := alias("guides/auth-alias.md"), alias("guides/auth-absolute.md"), alias("a/auth-chain.md")
	docs = append(docs, relative, absolute, chained)
	l := newLibrary(t, c, docs)
	l.symlink(t, "../backend/auth.md", relative.Path) // climbs, but stays inside the root
	// os.Root refuses every absolute link; one that lands inside the root
	// is fine all the same (seed 000: only what resolves elsewhere is refused).
	l.symlink(t, filepath.Join(l.dir, "backend", "auth.md"), absolute.Path)
	l.symlink(t, "../guides/auth-absolute.md", chained.Path) // relative, to an absolute one
	l.symlink(t, filepath.Join(l.dir, "backend"), "linked-in-absolute")
	l.symlink(t, "backend", "linked-in")

	ctx := context.Background()
	wantBytes, wantStamp, err := l.src.ReadFile(ctx, target.Path)
	if err != nil {
		t.Fatalf("ReadFile(%q): %v", target.Path, err)
	}
	checkAliases := func(src docindex.Source, how string, paths ...string) {
		t.Helper()
		for _, p := range paths {
			got, stamp, err := src.ReadFile(ctx, p)
			if err != nil || !bytes.Equal(got, wantBytes) {
				t.Errorf("ReadFile(%q), a symlink to %q inside the root (%s) = %q, %v; want %q", p, target.Path, how, got, err, wantBytes)
			}
			if err == nil && !stamp.Equal(wantStamp) {
				t.Errorf("ReadFile(%q) stamp %+v (%s), want the target's %+v", p, stamp, how, wantStamp)
			}
			if st, err := src.Stat(ctx, p); err != nil || !st.Equal(wantStamp) {
				t.Errorf("Stat(%q) (%s) = %+v, %v; want the target's stamp %+v", p, how, st, err, wantStamp)
			}
		}
	}
	aliases := []string{relative.Path, absolute.Path, chained.Path, "linked-in/auth.md", "linked-in-absolute/auth.md"}
	checkAliases(l.src, "source opened at the root's own path", aliases...)
	cat := catalog(t, l.src)
	checkDocs(t, cat.Docs, docs)
	if len(cat.Notes) != 0 {
		t.Errorf("Catalog with symlinks inside the root has notes %q, want none", cat.Notes)
	}
	checkCatalogStamps(t, l.src, cat)

	// The root opened through another name of its folder: an absolute
	// link written with either name lands inside.
	other := filepath.Join(t.TempDir(), "lib-by-another-name")
	if err := os.Symlink(l.dir, other); err != nil {
		t.Skipf("cannot make symlinks here: %v", err)
	}
	l.symlink(t, filepath.Join(other, "backend", "auth.md"), "guides/auth-other-name.md")
	src := c.Open(t, other)
	checkAliases(src, "source opened through another name", append(aliases, "guides/auth-other-name.md")...)
	checkAliases(l.src, "link written with another name of the root", "guides/auth-other-name.md")
}

// testSiblingPrefix covers the CVE-2025-53110 class: a check that the
// resolved path starts with the root's name lets "/tmp/x/lib_evil" pass for
// root "/tmp/x/lib".
func testSiblingPrefix(t *testing.T, c Convention) {
	docs := append(Corpus(), Doc{Path: "trick.md", Title: "Trick", Body: "placeholder\n"})
	l := newLibrary(t, c, docs)
	l.writeSecret(t, "lib_evil/secret.md")
	ctx := context.Background()
	for _, p := range []string{"../lib_evil/secret.md", "guides/../../lib_evil/secret.md", "./../lib_evil/secret.md"} {
		if _, err := l.src.Stat(ctx, p); !errors.Is(err, domain.ErrRefused) {
			t.Errorf("Stat(%q): err = %v, want one wrapping domain.ErrRefused", p, err)
		}
		if got, _, err := l.src.ReadFile(ctx, p); !errors.Is(err, domain.ErrRefused) || got != nil {
			t.Errorf("ReadFile(%q) = %q, %v; want no bytes and domain.ErrRefused", p, got, err)
		}
	}
	l.symlink(t, "../lib_evil/secret.md", "trick.md")
	checkRefusedDoc(t, l.src, "trick.md")
	// Absolute links: one to the sibling, one that starts with the root's
	// path and climbs out of it.
	for _, target := range []string{
		filepath.Join(l.base, "lib_evil", "secret.md"),
		l.dir + string(filepath.Separator) + filepath.Join("..", "lib_evil", "secret.md"),
	} {
		l.symlink(t, target, "trick.md")
		checkRefusedDoc(t, l.src, "trick.md")
	}
}

// testSymlinkLoop: links that never end in a file, relative or absolute
// (which os.Root does not follow itself), are refused, not followed forever.
func testSymlinkLoop(t *testing.T, c Convention) {
	loops := []string{"loop-self.md", "guides/loop-a.md", "guides/loop-b.md", "loop-absolute.md"}
	docs := Corpus()
	for _, p := range loops {
		docs = append(docs, Doc{Path: p, Title: "Loop", Body: "placeholder\n"})
	}
	l := newLibrary(t, c, docs)
	l.symlink(t, "loop-self.md", "loop-self.md")
	l.symlink(t, filepath.Join(l.dir, "guides", "loop-b.md"), "guides/loop-a.md")
	l.symlink(t, "loop-a.md", "guides/loop-b.md")
	l.symlink(t, filepath.Join(l.dir, "loop-absolute.md"), "loop-absolute.md")
	for _, p := range loops {
		checkRefusedDoc(t, l.src, p)
	}
	checkDocs(t, catalog(t, l.src).Docs, Corpus())
}

// testConcurrent runs Catalog, Stat and ReadFile from several goroutines,
// first on a still library (every answer checked), then while the library is
// rewritten (answers may be of either version; run with -race to catch data
// races), and finally checks that the source settles on the last version.
func testConcurrent(t *testing.T, c Convention) {
	docs := Corpus()
	l := newLibrary(t, c, docs)
	ctx := context.Background()
	// Workers read only these; the rewrite below changes titles, never bodies.
	paths := make([]string, len(docs))
	wantBodies := map[string]string{}
	for i, d := range docs {
		paths[i] = d.Path
		wantBodies[d.Path] = d.Body
	}

	const workers, rounds = 6, 15
	run := func(strict bool) {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for r := range rounds {
					p := paths[(w+r)%len(paths)]
					cat, err := l.src.Catalog(ctx)
					got, _, rerr := l.src.ReadFile(ctx, p)
					_, serr := l.src.Stat(ctx, p)
					if !strict {
						continue
					}
					switch {
					case err != nil:
						t.Errorf("concurrent Catalog: %v", err)
					case len(cat.Docs) != len(paths):
						t.Errorf("concurrent Catalog: %d docs, want %d", len(cat.Docs), len(paths))
					}
					if rerr != nil || !bytes.HasSuffix(got, []byte(wantBodies[p])) {
						t.Errorf("concurrent ReadFile(%q) = %q, %v; want bytes ending with %q", p, got, rerr, wantBodies[p])
					}
					if serr != nil {
						t.Errorf("concurrent Stat(%q): %v", p, serr)
					}
				}
			})
		}
		if !strict {
			// Rewrite the library from this, the test's goroutine, while
			// the workers read.
			for i := range 4 {
				for j := range docs {
					docs[j].Title = fmt.Sprintf("%s (v%d)", strings.Split(docs[j].Title, " (v")[0], i+2)
				}
				c.Write(t, l.dir, docs)
			}
		}
		wg.Wait()
	}
	run(true)
	run(false)
	checkDocs(t, catalog(t, l.src).Docs, docs)
}
