package frontmatterindex

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/rootfs"
	"github.com/librarian/librarian/domain"
)

// writeTree writes files (slash paths relative to dir) and ages them by an
// hour, so none counts as just modified (see racyWindow) unless a test
// wants that.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		age(t, p, time.Hour)
	}
}

// withoutChangeTime is s with its change time zeroed: an edit can put back
// every other field of a stamp, never that one.
func withoutChangeTime(s domain.Stamp) domain.Stamp {
	s.Changed = time.Time{}
	return s
}

// age sets a file's modification time to ago before now.
func age(t *testing.T, p string, ago time.Duration) {
	t.Helper()
	old := time.Now().Add(-ago)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
}

func openIndex(t *testing.T, dir string, opts ...Option) *Index {
	t.Helper()
	ix, err := New(dir, opts...)
	if err != nil {
		t.Fatalf("New(%q): %v", dir, err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func catalogOf(t *testing.T, ix *Index) *domain.Catalog {
	t.Helper()
	cat, err := ix.Catalog(context.Background())
	if err != nil {
		t.Fatalf("Catalog: %v", err)
	}
	return cat
}

func paths(cat *domain.Catalog) []string {
	var out []string
	for _, d := range cat.Docs {
		out = append(out, d.Path)
	}
	return out
}

func tagsByPath(cat *domain.Catalog) map[string][]string {
	out := map[string][]string{}
	for _, d := range cat.Docs {
		out[d.Path] = d.Tags
	}
	return out
}

func TestTagInheritanceAndFolders(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"index.md":     "---\ntitle: Library\nsummary: All docs\ntags: [root, shared]\n---\n# Ignored heading\n",
		"top.md":       "---\ntags: [own, root]\n---\n# Top\n",
		"a/index.md":   "---\ntags: [a, shared]\n---\n# Folder A\n",
		"a/doc.md":     "---\ntags: [x]\n---\n",
		"a/b/index.md": "---\ndescription: Folder B things\ntags: [b]\n---\n",
		"a/b/deep.md":  "---\ntags: [deep, a]\n---\n",
		"a/nob/c.md":   "---\ntags: [c]\n---\n",
		"z/plain.md":   "no frontmatter\n",
	})
	cat := catalogOf(t, openIndex(t, dir))

	wantTags := map[string][]string{
		"a/b/deep.md":  {"root", "shared", "a", "b", "deep"},
		"a/b/index.md": {"root", "shared", "a", "b"},
		"a/doc.md":     {"root", "shared", "a", "x"},
		"a/index.md":   {"root", "shared", "a"},
		"a/nob/c.md":   {"root", "shared", "a", "c"},
		"index.md":     {"root", "shared"},
		"top.md":       {"root", "shared", "own"},
		"z/plain.md":   {"root", "shared"},
	}
	if got := tagsByPath(cat); !reflect.DeepEqual(got, wantTags) {
		t.Errorf("tags:\n got %q\nwant %q", got, wantTags)
	}
	wantFolders := map[string]domain.Folder{
		"":    {Path: "", Title: "Library", Summary: "All docs", Tags: []string{"root", "shared"}},
		"a":   {Path: "a", Title: "Folder A", Tags: []string{"root", "shared", "a"}},
		"a/b": {Path: "a/b", Summary: "Folder B things", Tags: []string{"root", "shared", "a", "b"}},
	}
	if !reflect.DeepEqual(cat.Folders, wantFolders) {
		t.Errorf("folders:\n got %+v\nwant %+v", cat.Folders, wantFolders)
	}
	if len(cat.Notes) != 0 {
		t.Errorf("notes = %q, want none", cat.Notes)
	}
}

func TestBrokenIndexTagsAreNotInherited(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"index.md":   "---\ntags: [root]\n---\n",
		"a/index.md": "---\ntitle: A\ntags: a-scalar\n---\n",
		"a/doc.md":   "---\ntags: [own]\n---\n",
	})
	cat := catalogOf(t, openIndex(t, dir))
	wantTags := map[string][]string{
		"a/doc.md":   {"root", "own"},
		"a/index.md": {"root"},
		"index.md":   {"root"},
	}
	if got := tagsByPath(cat); !reflect.DeepEqual(got, wantTags) {
		t.Errorf("tags:\n got %q\nwant %q", got, wantTags)
	}
	if got, want := cat.Folders["a"], (domain.Folder{Path: "a", Title: "A", Tags: []string{"root"}}); !reflect.DeepEqual(got, want) {
		t.Errorf("folder a = %+v, want %+v", got, want)
	}
	wantNotes := []string{`frontmatter: 'a/index.md': 'tags' must be a list of strings, e.g. tags: ["a", "b"]; served without its own tags`}
	if !reflect.DeepEqual(cat.Notes, wantNotes) {
		t.Errorf("notes:\n got %q\nwant %q", cat.Notes, wantNotes)
	}
}

func TestDocumentFields(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"from-frontmatter.md": "---\ntitle: FM Title\nsummary: FM summary\ntokens: 99\n---\n# Heading loses\n",
		"from-heading.md":     "---\ndescription: Described\n---\nIntro.\n\n## Second-level **first** heading\n",
		"from-setext.md":      "Setext Title\n============\n",
		"from-name.md":        "No heading at all.\n",
		"B.md":                "# Upper\n",
		"a-b.md":              "# Dash\n",
		"a.md":                "# Plain\n",
		"a/b.md":              "# Nested\n",
		"a/index.md":          "plain text index\n",
	})
	cat := catalogOf(t, openIndex(t, dir))
	want := []domain.Document{
		{ID: "B", Path: "B.md", Title: "Upper"},
		{ID: "a-b", Path: "a-b.md", Title: "Dash"},
		{ID: "a", Path: "a.md", Title: "Plain"},
		{ID: "a/b", Path: "a/b.md", Title: "Nested"},
		{ID: "a/index", Path: "a/index.md", Title: "index"},
		{ID: "from-frontmatter", Path: "from-frontmatter.md", Title: "FM Title", Summary: "FM summary", Tokens: 99, HasTokens: true},
		{ID: "from-heading", Path: "from-heading.md", Title: "Second-level first heading", Summary: "Described"},
		{ID: "from-name", Path: "from-name.md", Title: "from-name"},
		{ID: "from-setext", Path: "from-setext.md", Title: "Setext Title"},
	}
	if !reflect.DeepEqual(withoutStamps(cat.Docs), want) {
		t.Errorf("docs:\n got %+v\nwant %+v", cat.Docs, want)
	}
	// An index.md with neither title nor heading gives its folder no title:
	// the folder's path already names it.
	if got, want := cat.Folders["a"], (domain.Folder{Path: "a"}); !reflect.DeepEqual(got, want) {
		t.Errorf("folder a = %+v, want %+v", got, want)
	}
}

// TestBadFrontmatterIsServedWithANote: no file's content fails the call; each
// is listed, with what could be read, and a note saying what could not.
func TestBadFrontmatterIsServedWithANote(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"index.md":       "---\ntags: [root]\n---\n",
		"bad-yaml.md":    "---\ntitle: x\ntags: [a, b\n---\n# Bad YAML\n",
		"scalar-tags.md": "---\ntitle: Scalar tags\ntags: go\n---\n",
		"js.md":          "---js\n{ title: require('child_process').execSync('touch /tmp/pwned') }\n---\n# JS\n",
		"unclosed.md":    "---\ntitle: Open\n# Unclosed\n",
		"bom.md":         "\ufeff---\ntitle: With BOM\ntags: [bom]\n---\n",
		"not-a-map.md":   "---\n- a\n---\n",
		"bad-tokens.md":  "---\ntokens: lots\ntags: [t]\n---\n",
		"two-bad.md":     "---\ntitle: [a]\ntags: go\n---\n# Two\n",
	})
	ix := openIndex(t, dir)
	cat := catalogOf(t, ix)
	wantDocs := []domain.Document{
		{ID: "bad-tokens", Path: "bad-tokens.md", Title: "bad-tokens", Tags: []string{"root", "t"}},
		{ID: "bad-yaml", Path: "bad-yaml.md", Title: "x", Tags: []string{"root"}},
		{ID: "bom", Path: "bom.md", Title: "With BOM", Tags: []string{"root", "bom"}},
		{ID: "index", Path: "index.md", Title: "index", Tags: []string{"root"}},
		{ID: "js", Path: "js.md", Title: "JS", Tags: []string{"root"}},
		{ID: "not-a-map", Path: "not-a-map.md", Title: "not-a-map", Tags: []string{"root"}},
		{ID: "scalar-tags", Path: "scalar-tags.md", Title: "Scalar tags", Tags: []string{"root"}},
		{ID: "two-bad", Path: "two-bad.md", Title: "Two", Tags: []string{"root"}},
		{ID: "unclosed", Path: "unclosed.md", Title: "Unclosed", Tags: []string{"root"}},
	}
	if !reflect.DeepEqual(withoutStamps(cat.Docs), wantDocs) {
		t.Errorf("docs:\n got %+v\nwant %+v", cat.Docs, wantDocs)
	}
	wantNotes := []string{
		"frontmatter: 'bad-tokens.md': 'tokens' must be a whole number ≥ 0; the size estimate is used instead",
		"frontmatter: 'bad-yaml.md': the frontmatter is not valid YAML (line 3: did not find expected ',' or ']'); read line by line: served with its title",
		"frontmatter: 'js.md': '---js' frontmatter (line 1) is never executed or read: only YAML frontmatter ('---') is; served without its title, summary and tags",
		"frontmatter: 'not-a-map.md': the frontmatter (line 1) is not a set of 'key: value' lines; served without its title, summary and tags",
		`frontmatter: 'scalar-tags.md': 'tags' must be a list of strings, e.g. tags: ["a", "b"]; served without its own tags`,
		// A doc's problems are one note.
		`frontmatter: 'two-bad.md': 'title' must be text; the first heading is used instead; 'tags' must be a list of strings, e.g. tags: ["a", "b"]; served without its own tags`,
		"frontmatter: 'unclosed.md': the frontmatter opened on line 1 is never closed with '---'; read as markdown, without title, summary and tags",
	}
	if !reflect.DeepEqual(cat.Notes, wantNotes) {
		t.Errorf("notes:\n got %q\nwant %q", cat.Notes, wantNotes)
	}
	// The notes stay while the files stay, though they are not read again.
	ix.metaReads.Store(0)
	if again := catalogOf(t, ix); !reflect.DeepEqual(again.Notes, wantNotes) || ix.metaReads.Load() != 0 {
		t.Errorf("notes on the next call:\n got %q\nwant %q", again.Notes, wantNotes)
	}
}

func TestWalkSkipsHiddenAndVendoredFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"kept.md":                        "# Kept\n",
		".git/notes.md":                  "# hidden folder\n",
		".hidden/deep/x.md":              "# hidden folder\n",
		"docs/.drafts/draft.md":          "# hidden folder below\n",
		"node_modules/pkg/README.md":     "# vendored\n",
		"docs/node_modules/pkg/y.md":     "# vendored below\n",
		".dotfile.md":                    "# dot-file\n",
		"docs/notes.txt":                 "not markdown\n",
		"docs/UPPER.MD":                  "# upper-case extension\n",
		"docs/guide.md":                  "# Guide\n",
		"folder.md/inner.md":             "# a folder whose name ends in .md\n",
		"docs/node_modules-not/ok.md":    "# only the exact name is skipped\n",
		"docs/images/diagram.md.png":     "png",
		"docs/.well-known-not-a-dir.txt": "x",
	})
	cat := catalogOf(t, openIndex(t, dir))
	// An upper-case extension is a doc too (TestMarkdownExtensionsInAnyCase).
	want := []string{"docs/UPPER.MD", "docs/guide.md", "docs/node_modules-not/ok.md", "folder.md/inner.md", "kept.md"}
	if got := paths(cat); !reflect.DeepEqual(got, want) {
		t.Errorf("paths:\n got %q\nwant %q", got, want)
	}
	if len(cat.Notes) != 0 {
		t.Errorf("notes = %q, want none", cat.Notes)
	}
}

// TestMarkdownExtensionsInAnyCase: .md and .markdown in any case are docs,
// their ids the path without the extension; index with any of them
// describes its folder; of files that would share an id, the one named
// .md keeps it (else the first in path order) and each other is skipped
// with a note.
func TestMarkdownExtensionsInAnyCase(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"ops/README.MD":         "# Ops readme\n",
		"ops/index.markdown":    "---\ntitle: Operations\ntags: [ops]\n---\n# Ops\n",
		"ops/runbook.Markdown":  "Runbook text.\n",
		"guide.md":              "# Guide\n",
		"guide.MD":              "# Another guide\n",
		"notes.markdown":        "# Notes\n",
		"notes.Md":              "# Notes again\n",
		"not-markdown.mdx":      "# MDX is not markdown\n",
		"ops/.hidden.MARKDOWN":  "# dot-file\n",
		"archive/old.markdown~": "backup\n",
	})
	cat := catalogOf(t, openIndex(t, dir))
	var got []string
	for _, d := range cat.Docs {
		got = append(got, fmt.Sprintf("%s=%s %q %v", d.Path, d.ID, d.Title, d.Tags))
	}
	want := []string{
		`guide.md=guide "Guide" []`,
		`notes.Md=notes "Notes again" []`,
		`ops/README.MD=ops/README "Ops readme" [ops]`,
		`ops/index.markdown=ops/index "Operations" [ops]`,
		`ops/runbook.Markdown=ops/runbook "runbook" [ops]`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("docs:\n got %q\nwant %q", got, want)
	}
	if f, ok := cat.Folders["ops"]; !ok || f.Title != "Operations" {
		t.Errorf("folder ops = %+v, %v; want it described by index.markdown", f, ok)
	}
	wantNotes := []string{
		"skipped: 'guide.MD': 'guide.md' has the same id 'guide' and is served",
		"skipped: 'notes.markdown': 'notes.Md' has the same id 'notes' and is served",
	}
	if !reflect.DeepEqual(cat.Notes, wantNotes) {
		t.Errorf("notes:\n got %q\nwant %q", cat.Notes, wantNotes)
	}
}

func TestSymlinksInTheWalk(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "lib")
	writeTree(t, base, map[string]string{
		"outside.md":           "---\ntitle: SECRET\n---\n",
		"lib_evil/x.md":        "---\ntitle: SECRET\n---\n",
		"lib/index.md":         "---\ntags: [root]\n---\n",
		"lib/docs/real.md":     "---\ntitle: Real\ntags: [real]\n---\n",
		"lib/aliases/index.md": "---\ntags: [aliases]\n---\n",
	})
	links := map[string]string{
		"evil.md":          filepath.Join(base, "outside.md"),
		"prefix.md":        "../lib_evil/x.md",
		"aliases/alias.md": "../docs/real.md",
		"dangling.md":      "nothing-here.md",
		"loop1.md":         "loop2.md",
		"loop2.md":         "loop1.md",
		"linkdir":          "docs",
		"loopdir":          ".",
		"outdir":           "..",
		"dir-link.md":      "docs",
		// Absolute links: os.Root refuses them all; inside the root they
		// are fine, like relative ones.
		"aliases/absolute.md": filepath.Join(dir, "docs", "real.md"),
		"abs-prefix.md":       filepath.Join(base, "lib_evil", "x.md"),
		"abs-climb.md":        dir + string(filepath.Separator) + filepath.Join("..", "lib_evil", "x.md"),
		"abs-loop.md":         filepath.Join(dir, "abs-loop.md"),
		"abs-dir-link.md":     filepath.Join(dir, "docs"),
		"abslinkdir":          filepath.Join(dir, "docs"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Skipf("cannot make symlinks here: %v", err)
		}
	}
	ix := openIndex(t, dir)
	cat := catalogOf(t, ix)
	wantDocs := []domain.Document{
		{ID: "aliases/absolute", Path: "aliases/absolute.md", Title: "Real", Tags: []string{"root", "aliases", "real"}},
		{ID: "aliases/alias", Path: "aliases/alias.md", Title: "Real", Tags: []string{"root", "aliases", "real"}},
		{ID: "aliases/index", Path: "aliases/index.md", Title: "index", Tags: []string{"root", "aliases"}},
		{ID: "docs/real", Path: "docs/real.md", Title: "Real", Tags: []string{"root", "real"}},
		{ID: "index", Path: "index.md", Title: "index", Tags: []string{"root"}},
	}
	if !reflect.DeepEqual(withoutStamps(cat.Docs), wantDocs) {
		t.Errorf("docs:\n got %+v\nwant %+v", cat.Docs, wantDocs)
	}
	wantNotes := []string{
		"refused: 'abs-climb.md' resolves outside the library root",
		"refused: 'abs-loop.md' is a symlink loop (too many levels of symbolic links)",
		"refused: 'abs-prefix.md' resolves outside the library root",
		"missing: 'dangling.md' is a symlink to a file that does not exist",
		"refused: 'evil.md' resolves outside the library root",
		"refused: 'loop1.md' is a symlink loop (too many levels of symbolic links)",
		"refused: 'loop2.md' is a symlink loop (too many levels of symbolic links)",
		"refused: 'prefix.md' resolves outside the library root",
	}
	if !reflect.DeepEqual(cat.Notes, wantNotes) {
		t.Errorf("notes:\n got %q\nwant %q", cat.Notes, wantNotes)
	}

	// The walk does not follow symlinked folders, but a path through one
	// that stays inside the root can still be read, as in the json convention.
	ctx := context.Background()
	for _, p := range []string{"linkdir/real.md", "abslinkdir/real.md", "aliases/absolute.md"} {
		if _, _, err := ix.ReadFile(ctx, p); err != nil {
			t.Errorf("ReadFile(%q) through a symlink inside the root: %v", p, err)
		}
	}
	for _, p := range []string{"evil.md", "prefix.md", "outdir/outside.md", "abs-prefix.md", "abs-climb.md", "abs-loop.md", "loop1.md"} {
		if _, _, err := ix.ReadFile(ctx, p); !errors.Is(err, domain.ErrRefused) {
			t.Errorf("ReadFile(%q): err = %v, want one wrapping domain.ErrRefused", p, err)
		}
	}
	if _, err := ix.Stat(ctx, "dangling.md"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Stat of a dangling symlink: err = %v, want one wrapping domain.ErrNotFound", err)
	}
}

func TestStatAndReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"docs/a.md": "# A\n"})
	ix := openIndex(t, dir)
	ctx := context.Background()
	tests := []struct {
		path string
		want error
	}{
		{"docs", domain.ErrNotFound},
		{"docs/", domain.ErrRefused},
		{"./docs/a.md", domain.ErrRefused},
		{"docs//a.md", domain.ErrRefused},
		{".", domain.ErrRefused},
		{"docs/missing.md", domain.ErrNotFound},
	}
	for _, tt := range tests {
		if _, err := ix.Stat(ctx, tt.path); !errors.Is(err, tt.want) {
			t.Errorf("Stat(%q): err = %v, want one wrapping %v", tt.path, err, tt.want)
		}
		if got, _, err := ix.ReadFile(ctx, tt.path); !errors.Is(err, tt.want) || got != nil {
			t.Errorf("ReadFile(%q) = %q, %v; want no bytes and an error wrapping %v", tt.path, got, err, tt.want)
		}
	}
	got, stamp, err := ix.ReadFile(ctx, "docs/a.md")
	if err != nil || string(got) != "# A\n" || stamp.Size != 4 || stamp.Inode == 0 {
		t.Errorf("ReadFile(docs/a.md) = %q, %+v, %v; want its bytes, size 4 and an inode", got, stamp, err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := ix.Stat(cancelled, "docs/a.md"); !errors.Is(err, context.Canceled) {
		t.Errorf("Stat with a cancelled context: err = %v, want context.Canceled", err)
	}
	if _, err := ix.Catalog(cancelled); !errors.Is(err, context.Canceled) {
		t.Errorf("Catalog with a cancelled context: err = %v, want context.Canceled", err)
	}
}

func TestNewNamesABadRoot(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.md")
	writeTree(t, dir, map[string]string{"file.md": "x"})
	for _, root := range []string{filepath.Join(dir, "missing"), file} {
		ix, err := New(root)
		if err == nil {
			ix.Close()
			t.Errorf("New(%q) succeeded, want an error", root)
			continue
		}
		if !strings.Contains(err.Error(), root) {
			t.Errorf("New(%q) error %q does not name the path", root, err)
		}
	}
}

// TestUnchangedFilesAreNotReread proves the cache: a second call reads no
// file, and after edits only the changed, added files are read, while a
// changed index.md's tags reach every doc below it.
func TestUnchangedFilesAreNotReread(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"index.md":   "---\ntags: [root]\n---\n",
		"top.md":     "---\ntags: [top]\n---\n",
		"a/doc.md":   "---\ntitle: Doc\n---\n",
		"a/other.md": "---\ntitle: Other\n---\n",
	})
	ix := openIndex(t, dir)
	reads := func() int64 { return ix.metaReads.Swap(0) }

	first := catalogOf(t, ix)
	if got := reads(); got != 4 {
		t.Errorf("first Catalog read %d files, want 4", got)
	}
	second := catalogOf(t, ix)
	if got := reads(); got != 0 {
		t.Errorf("unchanged Catalog read %d files, want 0", got)
	}
	if !reflect.DeepEqual(second, first) {
		t.Errorf("unchanged Catalog = %+v, want %+v", second, first)
	}

	writeTree(t, dir, map[string]string{
		"index.md": "---\ntags: [root, more]\n---\n",
		"a/doc.md": "---\ntitle: Doc, edited\n---\n",
		"a/new.md": "---\ntitle: New\n---\n",
	})
	// writeTree ages files to one hour ago; give the edits a time of their
	// own, as a real edit would have.
	for _, p := range []string{"index.md", "a/doc.md", "a/new.md"} {
		age(t, filepath.Join(dir, p), 30*time.Minute)
	}
	if err := os.Remove(filepath.Join(dir, "top.md")); err != nil {
		t.Fatal(err)
	}
	third := catalogOf(t, ix)
	if got := reads(); got != 3 {
		t.Errorf("Catalog after editing 2 files and adding 1 read %d files, want 3", got)
	}
	wantTags := map[string][]string{
		"a/doc.md":   {"root", "more"},
		"a/new.md":   {"root", "more"},
		"a/other.md": {"root", "more"},
		"index.md":   {"root", "more"},
	}
	if got := tagsByPath(third); !reflect.DeepEqual(got, wantTags) {
		t.Errorf("tags after edits:\n got %q\nwant %q", got, wantTags)
	}
	if got := third.Docs[0].Title; got != "Doc, edited" {
		t.Errorf("edited title = %q, want %q", got, "Doc, edited")
	}
	catalogOf(t, ix)
	if got := reads(); got != 0 {
		t.Errorf("Catalog after the edits settled read %d files, want 0", got)
	}
}

// TestRacyEditIsSeen: an edit that keeps size, inode and modification time
// (two saves within one tick of a coarse file-system clock) is still seen,
// because a file read within racyWindow of its modification is read again.
// (On Linux the rewrite also moves the change time, and the notification
// names the file; elsewhere the change time is not in the stamp.)
func TestRacyEditIsSeen(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "doc.md")
	if err := os.WriteFile(p, []byte("---\ntitle: Old1\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix := openIndex(t, dir)
	if got := catalogOf(t, ix).Docs[0].Title; got != "Old1" {
		t.Fatalf("title = %q, want Old1", got)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("---\ntitle: New1\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if st, _ := ix.Stat(context.Background(), "doc.md"); withoutChangeTime(st) != withoutChangeTime(rootfs.Stamp(info)) {
		t.Fatalf("the test needs unchanged size, time and inode: got %+v, had %+v", st, rootfs.Stamp(info))
	}
	if got := catalogOf(t, ix).Docs[0].Title; got != "New1" {
		t.Errorf("title after a same-stamp edit = %q, want New1", got)
	}
	// Once the file is older than the window when read, it is trusted.
	age(t, p, time.Hour)
	catalogOf(t, ix)
	ix.metaReads.Store(0)
	catalogOf(t, ix)
	if got := ix.metaReads.Load(); got != 0 {
		t.Errorf("Catalog of a settled file read %d files, want 0", got)
	}
}

// TestLargeFolderIsReadInChunks: a folder holding more files than one
// worker reads through one handle still yields every doc, each read once.
func TestLargeFolderIsReadInChunks(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"big/index.md": "---\ntags: [big]\n---\n"}
	const n = 3*chunkSize + 7
	for i := range n {
		files[fmt.Sprintf("big/doc-%04d.md", i)] = fmt.Sprintf("---\ntitle: Doc %d\n---\n", i)
	}
	writeTree(t, dir, files)
	ix := openIndex(t, dir)
	cat := catalogOf(t, ix)
	if got := len(cat.Docs); got != n+1 {
		t.Fatalf("Catalog has %d docs, want %d", got, n+1)
	}
	if got := ix.metaReads.Load(); got != n+1 {
		t.Errorf("Catalog read %d files, want %d (each once)", got, n+1)
	}
	for i, d := range cat.Docs[:n] {
		if want := fmt.Sprintf("Doc %d", i); d.Title != want || !reflect.DeepEqual(d.Tags, []string{"big"}) {
			t.Errorf("%s = title %q tags %q, want %q [big]", d.Path, d.Title, d.Tags, want)
		}
	}
}

// withoutStamps returns docs with their stamps zeroed, for comparing the
// metadata alone (the contract suite checks the stamps).
func withoutStamps(docs []domain.Document) []domain.Document {
	out := make([]domain.Document, len(docs))
	for i, d := range docs {
		d.Stamp = domain.Stamp{}
		out[i] = d
	}
	return out
}
