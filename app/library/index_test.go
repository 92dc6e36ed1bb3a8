package library_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/config"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/library/librarytest"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/docindex"
	"github.com/librarian/librarian/ports/markdown"
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
	plain := openSearchLibrary(t, convention, root)
	src := &countingSource{Source: library.SourceOf(plain)}
	l := library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
	ix, err := sqlitesectionindex.OpenFile(t.Context(), file, sqlitesectionindex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	l.UseIndex(ix, nil)
	return l, src
}

func TestRefreshByStampsAndRestartFromTheIndex(t *testing.T) {
	for _, conv := range conventions {
		t.Run(conv, func(t *testing.T) {
			root := librarytest.CopyTree(t, searchLibRoot)
			file := filepath.Join(t.TempDir(), "index.sqlite")
			ctx := context.Background()
			l, _ := indexedLibrary(t, conv, root, file)
			var steps []int
			st, err := l.Refresh(ctx, func(done, total int) { steps = append(steps, done) })
			if err != nil {
				t.Fatal(err)
			}
			if st.Parsed == 0 || st.Parsed != st.Docs || st.Deferred != 0 {
				t.Fatalf("first refresh %+v, want every doc parsed", st)
			}
			if len(steps) < 2 || steps[len(steps)-1] != st.Docs {
				t.Errorf("progress steps %v, want 0 … %d", steps, st.Docs)
			}
			want, err := browse.New(l).ListDocuments(ctx, browse.ListRequest{Scope: domain.Scope{Depth: -1}, LineBounds: true})
			if err != nil {
				t.Fatal(err)
			}
			// The indexer stores the names and links the domain extracts.
			cat0, _ := l.Catalog(ctx)
			names := 0
			for _, d := range cat0.Docs {
				e, err := l.Index().Entry(ctx, d.Path)
				if err != nil {
					t.Fatal(err)
				}
				names += len(e.Names)
			}
			if names == 0 {
				t.Errorf("no names stored for %d docs", len(cat0.Docs))
			}
			if hits, _ := l.Index().Names(ctx, "rotation", 5); len(hits) == 0 {
				t.Errorf("Names(rotation): nothing; the auth doc has a Rotation heading")
			}
			if st, _ := l.Refresh(ctx, nil); st.Parsed != 0 || st.Removed != 0 {
				t.Errorf("refresh of an unchanged library %+v, want nothing parsed", st)
			}

			// A restart: a new process with the same index file reads no
			// document file to list the library.
			l2, src2 := indexedLibrary(t, conv, root, file)
			got, err := browse.New(l2).ListDocuments(ctx, browse.ListRequest{Scope: domain.Scope{Depth: -1}, LineBounds: true})
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("listing after a restart differs:\n%s\nwant\n%s", got, want)
			}
			if n := src2.reads.Load(); n != 0 {
				t.Errorf("the restarted library read %d document files; the index holds them all", n)
			}
			if st, _ := l2.Refresh(ctx, nil); st.Parsed != 0 {
				t.Errorf("refresh after a restart %+v, want nothing parsed", st)
			}

			// One edited file is seen and re-indexed alone.
			cat, _ := l2.Catalog(ctx)
			victim := filepath.Join(root, filepath.FromSlash(cat.Docs[0].Path))
			body, _ := os.ReadFile(victim)
			os.WriteFile(victim, append(body, []byte("\nA new closing line about zanzibar.\n")...), 0o644)
			old := time.Now().Add(-time.Minute)
			os.Chtimes(victim, old, old)
			began := time.Now()
			st, err = l2.Refresh(ctx, nil)
			if err != nil || st.Parsed != 1 {
				t.Errorf("refresh after one edit %+v, %v; want exactly one doc parsed", st, err)
			}
			t.Logf("one edited file re-indexed in %v", time.Since(began))
			e, err := l2.Index().Entry(ctx, cat.Docs[0].Path)
			if err != nil || !strings.Contains(string(e.Content), "zanzibar") {
				t.Errorf("the index holds the old text of the edited doc (%v)", err)
			}
			os.Remove(victim)
			if st, _ := l2.Refresh(ctx, nil); st.Removed != 1 {
				t.Errorf("refresh after a removal %+v, want one removed", st)
			}
		})
	}
}

func TestRefreshDefersFreshFiles(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "fresh.md"), []byte("# Fresh\n\njust written\n"), 0o644)
	l, _ := indexedLibrary(t, "frontmatter", root, filepath.Join(t.TempDir(), "i.sqlite"))
	st, err := l.Refresh(context.Background(), nil)
	if err != nil || st.Deferred != 1 || st.Parsed != 0 {
		t.Errorf("refresh of a file modified just now: %+v, %v; want it deferred (its stamp cannot prove its bytes yet)", st, err)
	}
}

func TestIndexSettings(t *testing.T) {
	env := map[string]string{"LIBRARY_INDEX": " OFF ", "LIBRARY_INDEX_DIR": "/tmp/idx"}
	s, err := config.LoadSettings(func(k string) string { return env[k] }, nil)
	if err != nil || s.Validate() != nil || s.Index != "off" || s.IndexDir != "/tmp/idx" {
		t.Errorf("LIBRARY_INDEX=OFF: %+v, %v", s, err)
	}
	s, _ = config.LoadSettings(func(string) string { return "" }, []config.FlagValue{{Name: "index", Value: "on"}})
	if s.Validate() != nil || s.Index != "on" || s.IndexDir != "" {
		t.Errorf("--index on: index %q dir %q, want on and the cache folder", s.Index, s.IndexDir)
	}
	_, err = config.LoadSettings(func(k string) string { return map[string]string{"LIBRARY_INDEX": "sometimes"}[k] }, nil)
	if err == nil || !strings.Contains(err.Error(), "LIBRARY_INDEX") || !strings.Contains(err.Error(), `"sometimes"`) {
		t.Errorf("a bad LIBRARY_INDEX: %v", err)
	}
}

// TestKeepIndexedBuildsThenWarmsThenFollowsEdits: the background refresher
// builds the index, then a restarted library's refresher loads the parses
// from it, and a search noticing a changed doc gets it refreshed.
func TestKeepIndexedBuildsThenWarmsThenFollowsEdits(t *testing.T) {
	root := librarytest.CopyTree(t, searchLibRoot)
	file := filepath.Join(t.TempDir(), "index.sqlite")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l, _ := indexedLibrary(t, "frontmatter", root, file)
	go l.KeepIndexed(ctx)
	if err := l.WaitBuilt(ctx, nil); err != nil {
		t.Fatal(err)
	}
	l2, src2 := indexedLibrary(t, "frontmatter", root, file)
	go l2.KeepIndexed(ctx)
	if err := l2.WaitBuilt(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		n, _ := library.CachedDocs(l2)
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the restarted library's refresher did not load the parses from the index")
		}
	}
	if n := src2.reads.Load(); n != 0 {
		t.Errorf("warming read %d files; the index holds them", n)
	}
	victim := filepath.Join(root, "guides", "faq.md")
	body, _ := os.ReadFile(victim)
	os.WriteFile(victim, append(body, []byte("\nquokka appears here.\n")...), 0o644)
	old := time.Now().Add(-time.Minute)
	os.Chtimes(victim, old, old)
	got, err := search.New(l2).SearchDocuments(ctx, search.SearchRequest{Query: "quokka", Scope: domain.Scope{Depth: -1}})
	if err != nil || !strings.Contains(got, "quokka appears here") {
		t.Fatalf("search right after the edit: %v\n%s", err, got)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if e, err := l2.Index().Entry(ctx, "guides/faq.md"); err == nil && strings.Contains(string(e.Content), "quokka") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the edit noticed by a search was not re-indexed in the background")
		}
	}
}

func TestPostgresIndexSetting(t *testing.T) {
	env := map[string]string{"LIBRARY_INDEX": " postgres://Reader:S3cret@db.example:5432/Docs "}
	s, err := config.LoadSettings(func(k string) string { return env[k] }, nil)
	if err != nil || s.Validate() != nil || !s.PostgresIndex() || s.Index != "postgres://Reader:S3cret@db.example:5432/Docs" {
		t.Errorf("a postgres URL: %q (postgres %v), %v; want it kept as written, case and all", s.Index, s.PostgresIndex(), err)
	}
	env["LIBRARY_INDEX"] = "postgress://Reader:S3cret@db.example/Docs"
	_, err = config.LoadSettings(func(k string) string { return env[k] }, nil)
	if err == nil || strings.Contains(err.Error(), "S3cret") || !strings.Contains(err.Error(), `"postgress:"`) || !strings.Contains(err.Error(), "LIBRARY_INDEX") {
		t.Errorf("a mistyped URL: %v; want an error naming the setting and the scheme, never the password", err)
	}
}

// olderParser is a parser of before standard images: it finds the same
// sections and stubs, no standard image, and writes no Version.
type olderParser struct{ goldmarkmarkdown.Parser }

func (p *olderParser) Parse(src []byte) domain.Structure {
	s := p.Parser.Parse(src)
	s.Version = 0
	var stubs []domain.ImageStub
	for _, im := range s.Images {
		if !im.Standard() {
			stubs = append(stubs, im)
		}
	}
	s.Images = stubs
	return s
}

// A section index built by an older parser keeps its parses under the
// files' stamps; a library parses those files again rather than serve
// parses without their standard images, and stores the new parse when the
// file next changes; a current parse is used as it is.
func TestParsesOfAnOlderVersionAreParsedAgain(t *testing.T) {
	root := t.TempDir()
	doc := filepath.Join(root, "doc.md")
	if err := os.WriteFile(doc, []byte("# Doc\n\n![Arch](arch.png)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Minute)
	os.Chtimes(doc, old, old)
	file := filepath.Join(t.TempDir(), "index.sqlite")
	open := func(p markdown.Parser) (*library.Library, *countingSource) {
		plain := openSearchLibrary(t, "frontmatter", root)
		src := &countingSource{Source: library.SourceOf(plain)}
		l := library.New(src, p, nil, library.DefaultConfig())
		ix, err := sqlitesectionindex.OpenFile(t.Context(), file, sqlitesectionindex.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		l.UseIndex(ix, nil)
		return l, src
	}
	ctx := t.Context()
	opened := func(l *library.Library, src *countingSource, wantReads int64) {
		t.Helper()
		cat, err := l.Catalog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		d, err := l.Open(ctx, cat.Docs[0])
		if err != nil {
			t.Fatal(err)
		}
		if n := src.reads.Load(); n != wantReads || len(d.Structure.Images) != 1 {
			t.Errorf("read %d files, found %d images; want %d and 1", n, len(d.Structure.Images), wantReads)
		}
	}
	before, _ := open(&olderParser{})
	if st, err := before.Refresh(ctx, nil); err != nil || st.Parsed != 1 {
		t.Fatalf("Refresh = %+v, %v; want the doc parsed", st, err)
	}
	l, src := open(goldmarkmarkdown.New())
	opened(l, src, 1) // the stored parse is older: read and parsed again

	os.WriteFile(doc, []byte("# Doc\n\n![Arch](arch.png)\nEdited.\n"), 0o644)
	os.Chtimes(doc, old.Add(time.Second), old.Add(time.Second))
	if st, err := l.Refresh(ctx, nil); err != nil || st.Parsed != 1 {
		t.Fatalf("Refresh after an edit = %+v, %v; want the doc parsed", st, err)
	}
	l, src = open(goldmarkmarkdown.New())
	opened(l, src, 0) // the stored parse is current: nothing read
}

// A doc whose file is unchanged is stored again when what the index
// searches it by beyond its file changes: here the tags its folder's
// index.md gives it (the frontmatter convention's inheritance).
func TestRefreshFollowsInheritedTags(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Minute)
		os.Chtimes(p, old, old)
	}
	write("guides/index.md", "---\ntitle: Guides\ntags: [alpha]\n---\n\n# Guides\n")
	write("guides/setup.md", "---\ntitle: Setup\n---\n\n# Setup\n\nInstall it first.\n")
	file := filepath.Join(t.TempDir(), "index.sqlite")
	ctx := context.Background()
	l, _ := indexedLibrary(t, "frontmatter", root, file)
	if st, err := l.Refresh(ctx, nil); err != nil || st.Parsed == 0 {
		t.Fatalf("first refresh %+v, %v", st, err)
	}
	if st, _ := l.Refresh(ctx, nil); st.Parsed != 0 {
		t.Errorf("refresh of an unchanged library %+v, want nothing parsed", st)
	}
	write("guides/index.md", "---\ntitle: Guides\ntags: [zephyrine]\n---\n\n# Guides\n")
	st, err := l.Refresh(ctx, nil)
	if err != nil || st.Parsed == 0 {
		t.Errorf("refresh after the folder's tags changed %+v, %v; want setup.md stored again", st, err)
	}
	rs, err := l.Index().Ranked(ctx, domain.RankedQuery{Text: "zephyrine"})
	if err != nil || len(rs) == 0 || rs[0].Path != "guides/setup.md" && (len(rs) < 2 || rs[1].Path != "guides/setup.md") {
		t.Errorf("Ranked(zephyrine) = %+v, %v; want guides/setup.md, searched by its new tag", rs, err)
	}
	if st, _ := l.Refresh(ctx, nil); st.Parsed != 0 {
		t.Errorf("refresh after that %+v, want nothing parsed", st)
	}
	l2, _ := indexedLibrary(t, "frontmatter", root, file) // a restart
	if st, _ := l2.Refresh(ctx, nil); st.Parsed != 0 {
		t.Errorf("refresh after a restart %+v, want nothing parsed", st)
	}
}
