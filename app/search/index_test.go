package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/library/librarytest"
	"github.com/librarian/librarian/app/tscompat"
	"github.com/librarian/librarian/domain"
)

// indexedCopy copies the library at from to a temporary folder with old
// times, opens it with an index and builds the index.
func indexedCopy(t *testing.T, conv, from string) *library.Library {
	t.Helper()
	root := librarytest.CopyTree(t, from)
	l, _ := indexedLibrary(t, conv, root, filepath.Join(t.TempDir(), "index.sqlite"))
	st, err := l.Refresh(context.Background(), nil)
	if err != nil || st.Deferred != 0 {
		t.Fatalf("building the index: %+v, %v", st, err)
	}
	return l
}

// TestSearchThroughTheIndexMatchesGolden: every recorded search answers
// byte for byte the same when the index narrows the docs.
func TestSearchThroughTheIndexMatchesGolden(t *testing.T) {
	for _, conv := range conventions {
		lib := indexedCopy(t, conv, searchLibRoot)
		for _, c := range searchCases {
			t.Run(conv+"/"+c.name, func(t *testing.T) {
				got, err := New(lib).SearchDocuments(context.Background(), c.req)
				if err != nil {
					t.Fatalf("SearchDocuments(%+v) error: %v", c.req, err)
				}
				want := filepath.Join("../testdata/search/golden", conv, "search-"+c.name+".txt")
				if updating() {
					return // the scan's test owns the golden files
				}
				checkGolden(t, want, got)
			})
		}
	}
}

func TestIndexNarrowsTheDocsScanned(t *testing.T) {
	lib := indexedCopy(t, "frontmatter", searchLibRoot)
	cat, _ := lib.Catalog(context.Background())
	for _, tc := range []struct {
		q    domain.CandidateQuery
		hits int // docs whose text holds it
	}{
		{domain.CandidateQuery{AnyOf: []string{"kubernetes"}, Fold: true}, 0},
		{domain.CandidateQuery{AnyOf: []string{"rotation key"}, Fold: true}, 1},
		{domain.CandidateQuery{AnyOf: []string{"CAFÉ"}, Fold: true}, 1},
	} {
		skip := lib.IndexSkips(context.Background(), cat, cat.Docs, tc.q)
		if skip == nil {
			t.Fatalf("%q: the index did not narrow", tc.q.AnyOf)
		}
		kept := 0
		for _, s := range skip {
			if !s {
				kept++
			}
		}
		if kept != tc.hits {
			t.Errorf("%q: %d docs left to scan, want %d", tc.q.AnyOf, kept, tc.hits)
		}
	}
}

// TestSearchThroughTheIndexIsTheScan compares answers with and without the
// index for generated queries: pieces of the docs' own lines, their case
// changed, as strings and regexes, over both tool sets.
func TestSearchThroughTheIndexIsTheScan(t *testing.T) {
	ctx := context.Background()
	for _, conv := range conventions {
		indexed := indexedCopy(t, conv, searchLibRoot)
		plain := openSearchLibrary(t, conv, searchLibRoot)
		cat, _ := plain.Catalog(ctx)
		var lines []string
		for _, d := range cat.Docs {
			p, err := plain.Open(ctx, d)
			if err != nil {
				continue
			}
			for _, l := range strings.Split(string(p.Content), "\n") {
				if strings.TrimSpace(l) != "" {
					lines = append(lines, l)
				}
			}
		}
		r := rand.New(rand.NewPCG(8, 1))
		for i := 0; i < 150; i++ {
			line := []rune(lines[r.IntN(len(lines))])
			start := r.IntN(len(line))
			q := string(line[start:min(len(line), start+1+r.IntN(12))])
			if r.IntN(2) == 0 {
				q = strings.ToUpper(q)
			}
			reqs := []SearchRequest{
				{Query: q, CaseSensitive: r.IntN(3) == 0, Scope: domain.Scope{Depth: -1}},
				{Query: regexpOf(r, q), Mode: SearchRegex, Scope: domain.Scope{Depth: -1}},
			}
			for _, req := range reqs {
				want, werr := New(plain).SearchDocuments(ctx, req)
				got, gerr := New(indexed).SearchDocuments(ctx, req)
				if want != got || fmt.Sprint(werr) != fmt.Sprint(gerr) {
					t.Fatalf("%s %+v:\nindexed %q (%v)\nscan    %q (%v)", conv, req, got, gerr, want, werr)
				}
				treq := tscompat.SearchRequest{Query: req.Query, Mode: req.Mode, CaseSensitive: req.CaseSensitive, Depth: -1}
				want, werr = tscompat.New(plain).SearchDocuments(ctx, treq)
				got, gerr = tscompat.New(indexed).SearchDocuments(ctx, treq)
				if want != got || fmt.Sprint(werr) != fmt.Sprint(gerr) {
					t.Fatalf("%s searchDocuments %+v:\nindexed %q (%v)\nscan    %q (%v)", conv, treq, got, gerr, want, werr)
				}
			}
		}
	}
}

// regexpOf makes a regex that matches q and more: a letter class, a dot,
// an alternation.
func regexpOf(r *rand.Rand, q string) string {
	quoted := regexpQuote(q)
	switch r.IntN(3) {
	case 0:
		return quoted + `\w*`
	case 1:
		return "(?:" + quoted + "|zzqzz)"
	}
	return `\b` + quoted
}

func regexpQuote(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}
