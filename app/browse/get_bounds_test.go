package browse_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain/answer"
)

// longLineLibrary holds one.md, one line of n characters, and two.md, that
// line then a short one, in the json convention; and the fuzz checker's
// view of it.
func longLineLibrary(t *testing.T, n int) (*library.Library, *fuzzWorld) {
	t.Helper()
	dir := t.TempDir()
	line := strings.Repeat("a", n)
	index := `{"documents": [{"id": "one", "path": "one.md", "title": "One", "summary": "", "approx_tokens": 250000},
		{"id": "two", "path": "two.md", "title": "Two", "summary": "", "approx_tokens": 250000}]}`
	for name, text := range map[string]string{"one.md": line + "\n", "two.md": line + "\nshort\n", "index.json": index} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := jsonindex.New(dir, "index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig()), loadWorldAt(t, dir)
}

// TestGetDocumentsCutsALineOverTheBudget (issue 14.5): a one-line doc of
// 1,000,000 characters fetched with max_tokens 100 came back whole, with no
// Left out note; now the line is cut, and the answer says where and what
// budget reads it whole.
func TestGetDocumentsCutsALineOverTheBudget(t *testing.T) {
	lib, world := longLineLibrary(t, 1_000_000)
	ctx := context.Background()
	ans, err := browse.New(lib).GetDocuments(ctx, browse.GetRequest{Select: parseSelect(t, `["one"]`), IncludeCode: true, MaxTokens: intPtr(100)})
	if err != nil {
		t.Fatal(err)
	}
	if err := world.explain(ans); err != nil {
		t.Errorf("the fuzz checker refuses the answer: %v", err)
	}
	got := ans.String()
	// The marker and the Left out block count against the budget too
	// (issue 20), so what is kept of the line is the least a cut keeps.
	want := "=== one (one.md) · L1 ===\n" + strings.Repeat("a", answer.MinLineCut) + "\n" +
		"[L1 cut after 200 of its 1000000 bytes: the line alone is over max_tokens=100; to read it whole, ask for lines [1, 1] with max_tokens of at least 250007, or 0 (no limit)]\n" +
		"\nLeft out (over max_tokens=100; ~"
	if !strings.HasPrefix(got, want) {
		t.Fatalf("got\n%.1200s\nwant it to start\n%s", got, want)
	}
	if !strings.Contains(got, `- {"doc": "one", "lines": [1,1]} (~250007 tokens): continues select[0] (one, whole doc), cut inside L1 to fit max_tokens`) || len(got) > 2000 {
		t.Errorf("the Left out block does not continue the line (%d bytes):\n%.2000s", len(got), got)
	}

	// Two lines, the first over the budget: its rest and the next line are
	// left out together.
	ans, err = browse.New(lib).GetDocuments(ctx, browse.GetRequest{Select: parseSelect(t, `["two"]`), IncludeCode: true, MaxTokens: intPtr(100)})
	if err != nil {
		t.Fatal(err)
	}
	if err := world.explain(ans); err != nil {
		t.Errorf("the fuzz checker refuses the answer: %v", err)
	}
	if got := ans.String(); !strings.Contains(got, "\n[L1 cut after ") || !strings.Contains(got, `- {"doc": "two", "lines": [1,2]}`) || strings.Contains(got, "\nshort\n") || len(got) > 2000 {
		t.Errorf("two lines: got\n%.2000s", got)
	}

	// The default budget (20,000 tokens) cuts a 2 MB line too.
	big, _ := longLineLibrary(t, 2<<20)
	ans, err = browse.New(big).GetDocuments(ctx, browse.GetRequest{Select: parseSelect(t, `["one"]`), IncludeCode: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := ans.String(); len(got) > 81000 || !strings.Contains(got, "[L1 cut after ") {
		t.Errorf("a 2 MB line under the default budget: %d bytes back", len(got))
	}
	// No budget: the line comes back whole, as asked.
	ans, err = browse.New(lib).GetDocuments(ctx, browse.GetRequest{Select: parseSelect(t, `["one"]`), IncludeCode: true, MaxTokens: intPtr(0)})
	if err != nil {
		t.Fatal(err)
	}
	if got := ans.String(); !strings.Contains(got, strings.Repeat("a", 1_000_000)) {
		t.Errorf("max_tokens 0: the line was cut (%d bytes back)", len(got))
	}
}
