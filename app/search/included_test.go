package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
)

// A ranked section whose body is an include line shows the included file's
// lines with its path, in the text answer and as data; an include naming a
// file outside the library shows nothing of it.
func TestRankedShowsIncludedLines(t *testing.T) {
	src := t.TempDir()
	put := func(rel, content string) {
		p := filepath.Join(src, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("languages/go/tracing.md", "# Tracing in Go\n\n## Set span status\n\n{{% include \"span-status-preamble.md\" %}}\n\n## Record errors\n\nCall RecordError on the span.\n")
	put("languages/_includes/span-status-preamble.md", "A status can be set on a span.\n\nBy default, all spans are `Unset`, which means a span completed without error.\n")
	put("guide/escape.md", "# Escape\n\n## Secret status\n\n<!--@include: ../../../outside.md-->\n")
	lib := indexedCopy(t, "frontmatter", src)
	ctx := context.Background()
	req := SearchRequest{Query: "tracing in Go: set span status, which by default is?", Mode: SearchRanked, Scope: domain.Scope{Depth: -1}}
	got, err := New(lib).SearchDocuments(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "L3 (languages/_includes/span-status-preamble.md): By default, all spans are `Unset`") {
		t.Errorf("the included line is not shown with its path:\n%s", got)
	}
	if strings.Contains(got, "{{% include") {
		t.Errorf("the include line is shown, not what it includes:\n%s", got)
	}
	data, err := New(lib).SearchData(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	from := false
	for _, g := range data.Groups {
		for _, s := range g.Sections {
			for _, h := range s.Hits {
				from = from || h.From == "languages/_includes/span-status-preamble.md" && h.Line == 3
			}
		}
	}
	if !from {
		t.Errorf("the data lacks the included line: %+v", data.Groups)
	}
	got, err = New(lib).SearchDocuments(ctx, SearchRequest{Query: "secret status", Mode: SearchRanked, Scope: domain.Scope{Depth: -1}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "outside.md)") {
		t.Errorf("a file outside the library is shown:\n%s", got)
	}
}
