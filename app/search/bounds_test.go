package search

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
	"github.com/librarian/librarian/domain"
)

// slowLibrary opens librarytest.WriteSlowLibrary's library of mb MB.
func slowLibrary(t *testing.T, mb int, cfg library.Config) *library.Library {
	t.Helper()
	dir := librarytest.WriteSlowLibrary(t, mb)
	src, err := frontmatterindex.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	lib := library.New(src, goldmarkmarkdown.New(), nil, cfg)
	// Parse and cache both docs first (a cheap string search), so the
	// tests time the scan, not goldmark on a loaded machine.
	if _, err := New(lib).SearchDocuments(context.Background(), SearchRequest{Query: "zzzzz", Scope: domain.Scope{Depth: -1}}); err != nil {
		t.Fatal(err)
	}
	return lib
}

// TestSearchStopsAtItsTimeLimit: a search that would scan for a minute
// answers at its time limit with the hits of the docs it searched, and says
// what it did not search and how to narrow.
func TestSearchStopsAtItsTimeLimit(t *testing.T) {
	cfg := library.DefaultConfig()
	cfg.SearchTimeout = time.Second
	lib := slowLibrary(t, 4, cfg)
	start := time.Now()
	got, err := New(lib).SearchDocuments(context.Background(), SearchRequest{Query: librarytest.SlowRegex, Mode: SearchRegex, Scope: domain.Scope{Depth: -1}, MaxResults: 50})
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 hit in 1 of 2 docs", "§ _intro L1–3 ~6 tokens\nL3: find the needle!",
		"the search stopped at its time limit (1s): the hits above are from the 1 of 2 docs searched whole; not searched (they may hold hits): z.md.",
		"Narrow root, tags or depth"} {
		if !strings.Contains(got, want) {
			t.Errorf("the answer lacks %q:\n%s", want, got)
		}
	}
	// The whole scan takes minutes; the answer comes at the limit, plus a
	// parse of z.md in progress, however loaded the machine.
	if elapsed > 30*time.Second {
		t.Errorf("the search took %v with a 1s limit", elapsed)
	}
}

// TestSearchStopsWhenItsClientCancels: cancelling the call (the client's
// notifications/cancelled, or the session ending, which cancels every
// request in flight) stops the scan inside the doc it is reading.
func TestSearchStopsWhenItsClientCancels(t *testing.T) {
	cfg := library.DefaultConfig()
	cfg.SearchTimeout = time.Hour
	lib := slowLibrary(t, 4, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	start := time.Now()
	_, err := New(lib).SearchDocuments(ctx, SearchRequest{Query: librarytest.SlowRegex, Mode: SearchRegex, Scope: domain.Scope{Depth: -1}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if elapsed := time.Since(start); elapsed > 30*time.Second {
		t.Errorf("a cancelled search returned after %v", elapsed)
	}
}

// TestSearchQueryLimits: every query is capped in length, a string is a
// literal (never compiled as a regex), a regex run over lines is capped in
// size, and neither a long query nor its error is echoed back whole.
func TestSearchQueryLimits(t *testing.T) {
	lib := openSearchLibrary(t, "json", searchLibRoot)
	ctx := context.Background()
	for _, mode := range []string{SearchString, SearchRegex} {
		huge := strings.Repeat("a", 8<<20)
		start := time.Now()
		_, err := New(lib).SearchDocuments(ctx, SearchRequest{Query: huge, Mode: mode, Scope: domain.Scope{Depth: -1}})
		if !errors.Is(err, domain.ErrInvalidArgument) || !strings.Contains(err.Error(), "'query' is 8388608 bytes, over the 65536-byte limit") || len(err.Error()) > 400 {
			t.Errorf("%s: an 8 MB query: got %.500v", mode, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: refusing an 8 MB query took %v", mode, d)
		}
	}
	// Under the cap, a string is found as a literal (textmatch's
	// TestCompileKeepsStringsLiteral), and quoted back short.
	long := strings.Repeat("quillwort ", 6000)
	got, err := New(lib).SearchDocuments(ctx, SearchRequest{Query: long, Scope: domain.Scope{Depth: -1}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, `No hits for "quillwort quillwort`) || !strings.Contains(got, `…" (60000 bytes in all)`) || len(got) > 400 {
		t.Errorf("a 60 KB query is quoted back whole or not at all: %.500s", got)
	}
	// A regex error quotes the regex, and the part Go's message names, short.
	_, err = New(lib).SearchDocuments(ctx, SearchRequest{Query: strings.Repeat("(", 30000), Mode: SearchRegex, Scope: domain.Scope{Depth: -1}})
	if !errors.Is(err, domain.ErrInvalidArgument) || len(err.Error()) > 400 || !strings.Contains(err.Error(), "(30000 bytes in all)") {
		t.Errorf("an invalid 30 KB regex: got %.600v", err)
	}
	_, err = New(lib).SearchDocuments(ctx, SearchRequest{Query: strings.Repeat(`\w{1000}`, 25), Mode: SearchRegex, Scope: domain.Scope{Depth: -1}})
	if !errors.Is(err, domain.ErrInvalidArgument) || !strings.Contains(err.Error(), "the regex is too large: it compiles to 25002 instructions, over the limit of 20000") {
		t.Errorf("a 25,000-instruction regex: got %v", err)
	}
	// 3,000 plain words are not "too large": they are matched as literals.
	words := make([]string, 3000)
	for i := range words {
		words[i] = "zq" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
	}
	words[1234] = "rotation"
	got, err = New(lib).SearchDocuments(ctx, SearchRequest{Query: strings.Join(words, "|"), Mode: SearchRegex, Scope: domain.Scope{Depth: -1}})
	if err != nil || !strings.Contains(got, "rotation") {
		t.Errorf("3,000 words: got %v\n%.300s", err, got)
	}
}
