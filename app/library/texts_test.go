package library_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/library/librarytest"
	"github.com/librarian/librarian/app/tscompat"
	"github.com/librarian/librarian/domain"
)

// TestRestartLoadsTextsThenParsesWhatIsOpened: after a restart the library
// loads every doc's text from the index, not its parse; the librarian-ts
// tools answer from the texts, and a native tool that needs a doc's
// sections gets the same answer as a library that parsed every file.
func TestRestartLoadsTextsThenParsesWhatIsOpened(t *testing.T) {
	root := librarytest.CopyTree(t, searchLibRoot)
	file := filepath.Join(t.TempDir(), "index.sqlite")
	ctx := context.Background()
	first, _ := indexedLibrary(t, "frontmatter", root, file)
	if _, err := first.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	sel := []domain.Selector{{Doc: "guides/faq", Sections: []string{"where-are-the-logs"}}}
	want, err := browse.New(first).GetDocuments(ctx, browse.GetRequest{Select: sel, IncludeCode: true})
	if err != nil {
		t.Fatal(err)
	}
	wantSearch, err := tscompat.New(first).SearchDocuments(ctx, tscompat.SearchRequest{Query: "logs", Depth: -1})
	if err != nil {
		t.Fatal(err)
	}

	again, src := indexedLibrary(t, "frontmatter", root, file)
	if _, err := again.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	library.WarmTexts(ctx, again)
	n, textOnly := library.CachedDocs(again)
	if n == 0 || textOnly != n {
		t.Fatalf("after a restart %d of %d cached docs are texts only, want all", textOnly, n)
	}
	got, err := tscompat.New(again).SearchDocuments(ctx, tscompat.SearchRequest{Query: "logs", Depth: -1})
	if err != nil || got != wantSearch {
		t.Errorf("searchDocuments from the texts:\n%s (%v)\nwant\n%s", got, err, wantSearch)
	}
	ans, err := browse.New(again).GetDocuments(ctx, browse.GetRequest{Select: sel, IncludeCode: true})
	if err != nil || ans.String() != want.String() {
		t.Errorf("a section after a restart:\n%s (%v)\nwant\n%s", ans.String(), err, want.String())
	}
	if !strings.Contains(ans.String(), "Where are the logs?") {
		t.Errorf("the section is missing: %s", ans.String())
	}
	opened, openedTextOnly := library.CachedDoc(again, "guides/faq.md")
	if opened == nil || openedTextOnly || len(opened.Structure.Sections) == 0 {
		t.Errorf("the opened doc is not parsed: %+v", opened)
	}
	if n := src.reads.Load(); n != 0 {
		t.Errorf("the restarted library read %d files; the index holds them", n)
	}
}
