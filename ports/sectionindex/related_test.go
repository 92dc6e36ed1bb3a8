package sectionindex_test

import (
	"context"
	"slices"
	"testing"

	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
	"github.com/librarian/librarian/ports/sectionindex/sectionindextest"
)

// The search with the related words finds what the question's words
// alone do not, and both answers come back merged, each section once.
func TestRankedWithRelated(t *testing.T) {
	ix, err := sqlitesectionindex.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	if err := ix.Apply(ctx, sectionindex.Update{Put: []sectionindex.Entry{
		sectionindextest.MarkdownEntry("server/start.md", "Server start", nil, "# Server start\n\nThe server reads its config at start.\n"),
		sectionindextest.MarkdownEntry("http/limits.md", "Limits", nil, "# Limits\n\nThe default body limit is 100kb.\n"),
	}}); err != nil {
		t.Fatal(err)
	}
	paths := func(secs []domain.RankedSection) []string {
		var out []string
		for _, s := range secs {
			out = append(out, s.Path)
		}
		slices.Sort(out)
		return out
	}
	q := domain.RankedQuery{Text: "server config", Limit: 5}
	alone, err := sectionindex.RankedWithRelated(ctx, ix, q, nil)
	if err != nil || !slices.Equal(paths(alone), []string{"server/start.md"}) {
		t.Fatalf("no related words: %v %v, want server/start.md alone", paths(alone), err)
	}
	both, err := sectionindex.RankedWithRelated(ctx, ix, q, []string{"default"})
	if err != nil || !slices.Equal(paths(both), []string{"http/limits.md", "server/start.md"}) {
		t.Errorf("with default: %v %v, want both docs, each once", paths(both), err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := sectionindex.RankedWithRelated(cancelled, ix, q, []string{"default"}); err == nil {
		t.Error("a cancelled search answered no error")
	}
}
