package tscompat

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/library/librarytest"
)

// slowTools opens librarytest.WriteSlowLibrary's library of mb MB with the
// librarian-ts tools.
func slowTools(t *testing.T, mb int, cfg library.Config) *Tools {
	t.Helper()
	dir := librarytest.WriteSlowLibrary(t, mb)
	src, err := frontmatterindex.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	tools := New(library.New(src, goldmarkmarkdown.New(), nil, cfg))
	// Read both docs first (a cheap string search), so the test times the
	// scan, not the reads on a loaded machine.
	if _, err := tools.SearchDocuments(context.Background(), SearchRequest{Query: "zzzzz", Depth: -1}); err != nil {
		t.Fatal(err)
	}
	return tools
}

// TestTSSearchIsBounded: librarian-ts's searchDocuments matches whole
// bodies; a costly regex over a big one stops at the time limit too, with
// an error that says so (the original's answer has no place for a note).
func TestTSSearchIsBounded(t *testing.T) {
	cfg := library.DefaultConfig()
	cfg.SearchTimeout = time.Second
	lib := slowTools(t, 4, cfg)
	start := time.Now()
	_, err := lib.SearchDocuments(context.Background(), SearchRequest{Query: librarytest.SlowRegex, Mode: "regex", Depth: -1})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "searchDocuments stopped at its time limit (1s) after 1 of 2 documents") {
		t.Errorf("got %v", err)
	}
	if elapsed := time.Since(start); elapsed > 30*time.Second {
		t.Errorf("the search took %v with a 1s limit", elapsed)
	}
}
