package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRankedSaysWhenAChangedDocIsLeftOut: a doc edited since the section
// index read it is left out of ranked answers until the refresh catches up
// (its line ranges may have moved); the answer must say so rather than
// claim that no doc holds the words.
func TestRankedSaysWhenAChangedDocIsLeftOut(t *testing.T) {
	root := copyTree(t, searchLibRoot)
	l, _ := indexedLibrary(t, "json", root, filepath.Join(t.TempDir(), "i.sqlite"))
	ctx := context.Background()
	if _, err := l.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	req := SearchRequest{Query: "kelvin temperatures", Mode: SearchRanked, Scope: Scope{Depth: -1}}
	before, err := l.SearchDocuments(ctx, req)
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
	got, err := l.SearchDocuments(ctx, req)
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
