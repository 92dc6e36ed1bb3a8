package tscompat

import (
	"context"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/library/librarytest"
)

// tsComparePathsSplit is the original's order as first written, splitting
// both paths: the reference tsComparePaths, which does not allocate, must
// agree with.
func tsComparePathsSplit(a, b string) int {
	pa := strings.FieldsFunc(a, func(r rune) bool { return r == '/' })
	pb := strings.FieldsFunc(b, func(r rune) bool { return r == '/' })
	for i := 0; i < len(pa) && i < len(pb); i++ {
		lastA, lastB := i == len(pa)-1, i == len(pb)-1
		if lastA && lastB {
			switch {
			case pa[i] == pb[i]:
				return 0
			case pa[i] == "index.md":
				return -1
			case pb[i] == "index.md":
				return 1
			}
			return strings.Compare(pa[i], pb[i])
		}
		if pa[i] != pb[i] {
			switch {
			case lastA:
				return 1
			case lastB:
				return -1
			}
			return strings.Compare(pa[i], pb[i])
		}
	}
	return len(pa) - len(pb)
}

func TestTSComparePathsAgreesWithSplitting(t *testing.T) {
	paths := []string{"", "/", "//", "/index.md", "index.md", "/a", "/a/", "a//b", "/a/index.md", "/a/b.md",
		"/a/b", "/a/b/", "/a/b/index.md", "/a/b/c.md", "/ab/c.md", "/a.md", "/b/index.md", "/b//x.md",
		"//a//b//", "/a/b/c/d/e.md", "/z.md", "/a/a.md", "/a/z/index.md", "/index.md/x"}
	for _, a := range paths {
		for _, b := range paths {
			if got, want := tsComparePaths(a, b), tsComparePathsSplit(a, b); got != want {
				t.Errorf("tsComparePaths(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
		want := len(strings.FieldsFunc(a, func(r rune) bool { return r == '/' }))
		if got := tsSegments(a); got != want {
			t.Errorf("tsSegments(%q) = %d, want %d", a, got, want)
		}
	}
}

// BenchmarkWarmTSListDocuments is librarian-ts' listDocuments of the whole
// 10,000-doc frontmatter library (the side-by-side kit's warm list), with
// the catalog warm and no answer budget.
//
//	go test ./app/tscompat -run '^$' -bench 'WarmTSListDocuments' -benchtime 20x
func BenchmarkWarmTSListDocuments(b *testing.B) {
	dir := librarytest.BenchLibraryDir(b)
	ctx := context.Background()
	src, err := frontmatterindex.New(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	cfg := library.DefaultConfig()
	cfg.MaxAnswerTokens = 0 // the kit's LIBRARY_MAX_ANSWER_TOKENS=0: every doc
	lib := New(library.New(src, goldmarkmarkdown.New(), nil, cfg))
	first, err := lib.ListDocuments(ctx, ListRequest{Depth: -1})
	if err != nil {
		b.Fatal(err)
	}
	if got := strings.Count(first, "\n- /") + 1; got != librarytest.BenchDocs {
		b.Fatalf("listDocuments shows %d docs, want %d", got, librarytest.BenchDocs)
	}
	b.ReportAllocs()
	for b.Loop() {
		answer, err := lib.ListDocuments(ctx, ListRequest{Depth: -1})
		if err != nil {
			b.Fatal(err)
		}
		if len(answer) != len(first) {
			b.Fatalf("listDocuments changed: %d bytes, then %d", len(first), len(answer))
		}
	}
}
