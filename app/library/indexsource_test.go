package library_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/library/librarytest"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/domain"
)

// TestIndexSourceAnswersAsTheFiles indexes the search library, then serves
// it from the index alone (no root) and compares every answer, byte for
// byte, with the file-backed library's.
func TestIndexSourceAnswersAsTheFiles(t *testing.T) {
	for _, conv := range conventions {
		t.Run(conv, func(t *testing.T) {
			ctx := t.Context()
			root := librarytest.CopyTree(t, searchLibRoot)
			files := openSearchLibrary(t, conv, root)
			ix, err := sqlitesectionindex.OpenMemory()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ix.Close() })
			files.UseIndex(ix, nil)
			if _, err := files.Refresh(ctx, nil); err != nil {
				t.Fatal(err)
			}
			served := library.New(library.NewIndexSource(ix), goldmarkmarkdown.New(), nil, library.DefaultConfig())
			served.UseIndex(ix, nil)
			compare := func(name string, f func(l *library.Library) (string, error)) {
				t.Helper()
				want, err := f(files)
				if err != nil {
					t.Fatalf("%s from files: %v", name, err)
				}
				got, err := f(served)
				if err != nil {
					t.Fatalf("%s from the index: %v", name, err)
				}
				if got != want {
					t.Errorf("%s from the index differs:\n--- index\n%s\n--- files\n%s", name, got, want)
				}
			}
			for _, req := range []search.SearchRequest{
				{Query: "token", Scope: domain.Scope{Depth: -1}},
				{Query: "Token", CaseSensitive: true, Scope: domain.Scope{Depth: -1}},
				{Query: "token", MaxResults: 3, Scope: domain.Scope{Depth: -1}},
				{Query: "kubernetes", Scope: domain.Scope{Depth: -1}},
				{Query: "token", Scope: domain.Scope{Root: "backend", Tags: []string{"auth"}, Depth: 1}},
				{Query: `refresh\s+tokens?`, Mode: search.SearchRegex, Scope: domain.Scope{Depth: -1}},
				{Query: "cache|queue", Mode: search.SearchRegex, Context: 2, Scope: domain.Scope{Depth: -1}},
			} {
				compare(fmt.Sprintf("search %+v", req), func(l *library.Library) (string, error) { return search.New(l).SearchDocuments(ctx, req) })
			}
			for _, q := range []string{"token rotation", "cache invalidation", "migrations"} {
				compare("ranked "+q, func(l *library.Library) (string, error) {
					return search.New(l).SearchDocuments(ctx, search.SearchRequest{Query: q, Mode: search.SearchRanked, Scope: domain.Scope{Depth: -1}})
				})
			}
			compare("list", func(l *library.Library) (string, error) {
				return browse.New(l).ListDocuments(ctx, browse.ListRequest{Scope: domain.Scope{Depth: -1}, LineBounds: true})
			})
			compare("tags", func(l *library.Library) (string, error) {
				return browse.New(l).ListTags(ctx, browse.TagsRequest{Depth: -1, IncludePaths: true})
			})
			cat, err := files.Catalog(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range cat.Docs {
				compare("get "+d.Path, func(l *library.Library) (string, error) {
					a, err := browse.New(l).GetDocuments(ctx, browse.GetRequest{Select: []domain.Selector{{Doc: d.ID}}, IncludeCode: true})
					var text strings.Builder
					for _, p := range a.Parts {
						text.WriteString(p.Text)
						if p.Image != nil {
							fmt.Fprintf(&text, "[image %s]", p.Image.ID)
						}
					}
					return text.String(), err
				})
			}
			if _, _, err := library.NewIndexSource(ix).ReadFile(ctx, "no/such.md"); err == nil {
				t.Error("ReadFile of a path the index does not hold succeeded")
			}
		})
	}
}

// TestIndexSourceServesFreshDocsWithTheirSizes: a doc indexed within the
// racy window is stored under an unsettled stamp (negative size); a server
// reading the index alone still lists and stats it with the file's size.
func TestIndexSourceServesFreshDocsWithTheirSizes(t *testing.T) {
	ctx := t.Context()
	root := librarytest.CopyTree(t, searchLibRoot)
	files := openSearchLibrary(t, "frontmatter", root)
	cat, err := files.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fresh := cat.Docs[0]
	now := time.Now()
	if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(fresh.Path)), now, now); err != nil {
		t.Fatal(err)
	}
	ix, err := sqlitesectionindex.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	files.UseIndex(ix, nil)
	if st, err := files.Refresh(ctx, nil); err != nil || st.Deferred == 0 {
		t.Fatalf("refresh: %+v, %v; want the fresh doc stored as unsettled", st, err)
	}
	src := library.NewIndexSource(ix)
	served, err := src.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range served.Docs {
		if d.Stamp.Size < 0 {
			t.Errorf("%s is served with size %d", d.Path, d.Stamp.Size)
		}
		st, err := src.Stat(ctx, d.Path)
		if err != nil || st != d.Stamp {
			t.Errorf("Stat(%s) = %+v, %v; want the catalog's %+v", d.Path, st, err, d.Stamp)
		}
		_, rst, err := src.ReadFile(ctx, d.Path)
		if err != nil || rst != d.Stamp {
			t.Errorf("ReadFile(%s) stamp %+v, %v; want the catalog's %+v", d.Path, rst, err, d.Stamp)
		}
	}
	if ix2, _ := ix.Entry(ctx, fresh.Path); ix2.Doc.Stamp.Size >= 0 {
		t.Fatalf("%s stored with size %d: the test did not make it unsettled", fresh.Path, ix2.Doc.Stamp.Size)
	}
}
