package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
)

// The list benchmarks run over the 10,000-doc frontmatter library the search
// benchmarks generate (search_bench_test.go, cached under $TMPDIR), with
// list_documents' default arguments: the whole library, every outline.
//
//	go test ./app -run '^$' -bench 'ListDocumentsFrontmatter' -benchtime 5x
//
// "First" is a server's first list_documents after a start: a new index
// source, parser and Library each iteration, so nothing is cached but the
// operating system's file cache. "Warm" is every later call.
//
// This file is in package app, not app_test, to reuse the unexported
// generator of the search benchmarks.

// listBenchDir returns the generated library's folder, writing it on the
// first run (the same folder and marker benchLibrary uses).
func listBenchDir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv("LIBRARIAN_BENCH_LIBRARY")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "librarian-search-bench-"+benchVersion)
	}
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err != nil {
		if err := generateBenchLibrary(dir); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// listBenchDocs is how many docs the generated library holds: every topic's
// docs and the index.md of the root, each area and each topic.
const listBenchDocs = benchAreas*benchTopics*benchDocsPerTopic + 1 + benchAreas*(1+benchTopics)

// listBenchNoLimit is max_tokens=0: the whole 10,000-doc listing.
var listBenchNoLimit = 0

// listBenchRequests are the two ways to list the root with default
// arguments (SectionDepth nil: every outline): the whole listing
// (max_tokens=0, every doc read and parsed), and with the default answer
// budget (only the docs shown are read and parsed).
var listBenchRequests = []struct {
	name string
	req  ListRequest
	full bool
}{
	{"max_tokens=0", ListRequest{Scope: Scope{Depth: -1}, MaxTokens: &listBenchNoLimit}, true},
	{"default-budget", ListRequest{Scope: Scope{Depth: -1}}, false},
}

// checkBenchAnswer checks a whole or a budgeted listing.
func checkBenchAnswer(tb testing.TB, answer string, full bool) {
	tb.Helper()
	if full {
		checkListAnswer(tb, answer)
		return
	}
	if !strings.Contains(answer, "\nLeft out (over max_tokens=") {
		tb.Fatalf("a default-budget listing of %d docs should be cut; it starts %q", listBenchDocs, firstLine(answer))
	}
}

// checkListAnswer fails the benchmark unless the answer lists every doc
// with its outline.
func checkListAnswer(tb testing.TB, answer string) {
	tb.Helper()
	if got := strings.Count(answer, "\n- "); got != listBenchDocs {
		tb.Fatalf("list_documents shows %d docs, want %d; it starts %q", got, listBenchDocs, firstLine(answer))
	}
	if !strings.Contains(answer, "\n§ section-") {
		tb.Fatalf("list_documents shows no outline; it starts %q", firstLine(answer))
	}
}

func BenchmarkFirstListDocumentsFrontmatter(b *testing.B) {
	dir := listBenchDir(b)
	ctx := context.Background()
	for _, tc := range listBenchRequests {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				src, err := frontmatterindex.New(dir)
				if err != nil {
					b.Fatal(err)
				}
				lib := NewLibrary(src, goldmarkmarkdown.New(), nil, DefaultLibraryConfig())
				answer, err := lib.ListDocuments(ctx, tc.req)
				if err != nil {
					b.Fatal(err)
				}
				checkBenchAnswer(b, answer, tc.full)
				src.Close()
			}
		})
	}
}

func BenchmarkWarmListDocumentsFrontmatter(b *testing.B) {
	dir := listBenchDir(b)
	ctx := context.Background()
	for _, tc := range listBenchRequests {
		b.Run(tc.name, func(b *testing.B) {
			src, err := frontmatterindex.New(dir)
			if err != nil {
				b.Fatal(err)
			}
			defer src.Close()
			lib := NewLibrary(src, goldmarkmarkdown.New(), nil, DefaultLibraryConfig())
			answer, err := lib.ListDocuments(ctx, tc.req)
			if err != nil {
				b.Fatal(err)
			}
			checkBenchAnswer(b, answer, tc.full)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := lib.ListDocuments(ctx, tc.req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
