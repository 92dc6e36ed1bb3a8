package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/app/library/librarytest"
	"github.com/librarian/librarian/domain"
)

// TestRankedSaysWhenAChangedDocIsLeftOut: a doc edited since the section
// index read it is left out of ranked answers until the refresh catches up
// (its line ranges may have moved); the answer must say so rather than
// claim that no doc holds the words.
func TestRankedSaysWhenAChangedDocIsLeftOut(t *testing.T) {
	root := librarytest.CopyTree(t, searchLibRoot)
	l, _ := indexedLibrary(t, "json", root, filepath.Join(t.TempDir(), "i.sqlite"))
	ctx := context.Background()
	if _, err := l.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	req := SearchRequest{Query: "kelvin temperatures", Mode: SearchRanked, Scope: domain.Scope{Depth: -1}}
	before, err := New(l).SearchDocuments(ctx, req)
	if err != nil || !strings.Contains(before, "§ ttl-rules") {
		t.Fatalf("before the edit: %q, %v; want the ttl-rules section", before, err)
	}
	p := filepath.Join(root, "backend", "storage", "caching.md")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// Just written: inside the racy window, so the refresh defers it.
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "# Caching\n", "# Caching\n\nA new first line.\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := New(l).SearchDocuments(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "none holds these words") {
		t.Errorf("after an edit, the answer claims no doc holds the words:\n%s", got)
	}
	if !strings.Contains(got, "caching (backend/storage/caching.md) changed since the section index read it") {
		t.Errorf("after an edit, the answer does not name the changed doc it left out:\n%s", got)
	}
}

// TestRankedFindsAFreshlyWrittenLibrary: a library whose files were all
// written just now (a checkout, a generated folder) is found by ranked
// search at once; its docs are stored under a stamp no file has, so the
// next refresh reads them again rather than trusting bytes their stamps
// cannot prove yet.
func TestRankedFindsAFreshlyWrittenLibrary(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "fresh.md"), []byte("# Fresh\n\n## Kelvin scale\n\nTemperatures are stored in kelvin.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, _ := indexedLibrary(t, "frontmatter", root, filepath.Join(t.TempDir(), "i.sqlite"))
	ctx := context.Background()
	st, err := l.Refresh(ctx, nil)
	if err != nil || st.Deferred != 1 || st.Parsed != 0 {
		t.Fatalf("first refresh: %+v, %v; want the fresh doc deferred", st, err)
	}
	got, err := New(l).SearchDocuments(ctx, SearchRequest{Query: "kelvin temperatures", Mode: SearchRanked, Scope: domain.Scope{Depth: -1}})
	if err != nil || !strings.Contains(got, "§ kelvin-scale L3–5") {
		t.Errorf("ranked search of a library written just now = %q, %v; want its kelvin-scale section", got, err)
	}
	if st, err := l.Refresh(ctx, nil); err != nil || st.Deferred != 1 {
		t.Errorf("second refresh: %+v, %v; want the still-fresh doc read again, not trusted", st, err)
	}
}
