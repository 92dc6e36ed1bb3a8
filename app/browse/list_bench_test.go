package browse_test

import (
	"context"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/library/librarytest"
	"github.com/librarian/librarian/domain"
)

// The list benchmarks run over the 10,000-doc frontmatter library the search
// benchmarks generate (search_bench_test.go, cached under $TMPDIR), with
// list_documents' default arguments: the whole library, every outline.
//
//	go test ./app/browse -run '^$' -bench 'ListDocumentsFrontmatter' -benchtime 5x
//
// "First" is a server's first list_documents after a start: a new index
// source, parser and Library each iteration, so nothing is cached but the
// operating system's file cache. "Warm" is every later call.

// listBenchDir returns the generated library's folder, writing it on the
// first run (the folder the search benchmarks use).
func listBenchDir(tb testing.TB) string { return librarytest.BenchLibraryDir(tb) }

// listBenchDocs is how many docs the generated library holds.
const listBenchDocs = librarytest.BenchDocs

// listBenchNoLimit is max_tokens=0: the whole 10,000-doc listing.
var listBenchNoLimit = 0

// listBenchRequests are the two ways to list the root with default
// arguments (SectionDepth nil: every outline): the whole listing
// (max_tokens=0, every doc read and parsed), and with the default answer
// budget (only the docs shown are read and parsed).
var listBenchRequests = []struct {
	name string
	req  browse.ListRequest
	full bool
}{
	{"max_tokens=0", browse.ListRequest{Scope: domain.Scope{Depth: -1}, MaxTokens: &listBenchNoLimit}, true},
	{"default-budget", browse.ListRequest{Scope: domain.Scope{Depth: -1}}, false},
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
				lib := library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
				answer, err := browse.New(lib).ListDocuments(ctx, tc.req)
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
			lib := library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
			answer, err := browse.New(lib).ListDocuments(ctx, tc.req)
			if err != nil {
				b.Fatal(err)
			}
			checkBenchAnswer(b, answer, tc.full)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := browse.New(lib).ListDocuments(ctx, tc.req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
