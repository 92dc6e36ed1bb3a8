package tscompat

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/app/library"
)

// slowRegex costs RE2 about 8 µs a byte of words (its program runs 200
// repetitions side by side, and there is no literal to prefilter with):
// minutes on a few MB, whatever the machine.
const slowRegex = `[a-y](?:\w|\s){0,200}[^\w\s]`

// slowTools writes a library whose a.md has a hit of slowRegex and whose
// z.md is mb MB of lowercase words, which slowRegex scans for tens of
// seconds and never matches.
func slowTools(t *testing.T, mb int, cfg library.Config) *Tools {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("# A\n\nfind the needle!\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	var b strings.Builder
	b.WriteString("# Z\n\n")
	for b.Len() < mb<<20 {
		for range 12 {
			for n := 2 + rng.IntN(8); n > 0; n-- {
				b.WriteByte(byte('a' + rng.IntN(26)))
			}
			b.WriteByte(' ')
		}
		b.WriteString("\n\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "z.md"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
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
	_, err := lib.SearchDocuments(context.Background(), SearchRequest{Query: slowRegex, Mode: "regex", Depth: -1})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "searchDocuments stopped at its time limit (1s) after 1 of 2 documents") {
		t.Errorf("got %v", err)
	}
	if elapsed := time.Since(start); elapsed > 30*time.Second {
		t.Errorf("the search took %v with a 1s limit", elapsed)
	}
}
