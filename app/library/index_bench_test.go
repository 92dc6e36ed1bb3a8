package library_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/app/tscompat"
	"github.com/librarian/librarian/domain"
)

// Section index benchmarks, over a library made by the shared generator:
//
//	python3 ../shared/bench/gen_library.py /tmp/lib10k --docs 10000 --seed 1
//	LIBRARIAN_INDEX_BENCH_LIBRARY=/tmp/lib10k go test ./app/library -run '^$' -bench 'Index|Indexed|Ranked' -benchtime 5x
//
// They skip when LIBRARIAN_INDEX_BENCH_LIBRARY is not set. The queries are
// the generator's bench_terms.json ones (the side-by-side kit's).

const (
	indexBenchRare   = "quillwort"
	indexBenchCommon = "the"
	indexBenchRegex  = `\b(rotor|stator|turbine)\b[^.]{0,40}\b(voltage|current)\b`
)

var indexBench struct {
	once    sync.Once
	root    string
	file    string
	indexed *library.Library // warm, with a built index
	plain   *library.Library // warm, no index
	err     error
}

func indexBenchRoot(b *testing.B) string {
	root := os.Getenv("LIBRARIAN_INDEX_BENCH_LIBRARY")
	if root == "" {
		b.Skip("set LIBRARIAN_INDEX_BENCH_LIBRARY to a library made by gen_library.py")
	}
	return root
}

// newIndexedLibrary opens the library with the index in file (fresh
// adapters: what a new process has).
func newIndexedLibrary(b *testing.B, root, file string) (*library.Library, *sqlitesectionindex.Index) {
	src, err := frontmatterindex.New(root)
	if err != nil {
		b.Fatal(err)
	}
	ix, err := sqlitesectionindex.OpenFile(context.Background(), file, sqlitesectionindex.Options{})
	if err != nil {
		b.Fatal(err)
	}
	l := library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
	l.UseIndex(ix, nil)
	return l, ix
}

// warmLibraries builds the index once and warms both libraries.
func warmLibraries(b *testing.B) {
	root := indexBenchRoot(b)
	indexBench.once.Do(func() {
		indexBench.root = root
		indexBench.file = filepath.Join(os.TempDir(), "librarian-index-bench.sqlite")
		for _, s := range []string{"", "-wal", "-shm"} {
			os.Remove(indexBench.file + s)
		}
		l, _ := newIndexedLibrary(b, root, indexBench.file)
		if _, indexBench.err = l.Refresh(context.Background(), nil); indexBench.err != nil {
			return
		}
		src, err := frontmatterindex.New(root)
		if err != nil {
			indexBench.err = err
			return
		}
		plain := library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
		for _, lib := range []*library.Library{l, plain} {
			if _, err := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Depth: -1}}); err != nil {
				indexBench.err = err
				return
			}
		}
		indexBench.indexed, indexBench.plain = l, plain
	})
	if indexBench.err != nil {
		b.Fatal(indexBench.err)
	}
}

// BenchmarkIndexFirstBuild: a new index of the whole library, from a new
// process's point of view (nothing cached).
func BenchmarkIndexFirstBuild(b *testing.B) {
	root := indexBenchRoot(b)
	for i := 0; i < b.N; i++ {
		file := filepath.Join(b.TempDir(), "i.sqlite")
		l, ix := newIndexedLibrary(b, root, file)
		st, err := l.Refresh(context.Background(), nil)
		if err != nil {
			b.Fatal(err)
		}
		status, _ := ix.Status(context.Background())
		b.ReportMetric(float64(status.Bytes)/(1<<20), "MiB-index")
		b.ReportMetric(float64(st.Parsed), "docs-parsed")
		ix.Close()
	}
}

// BenchmarkIndexRestartList: a new process over an indexed, unchanged
// library: open, then the first whole listing (frontmatter walk, parses
// from the index).
func BenchmarkIndexRestartList(b *testing.B) {
	warmLibraries(b)
	for i := 0; i < b.N; i++ {
		l, ix := newIndexedLibrary(b, indexBench.root, indexBench.file)
		if _, err := browse.New(l).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Depth: -1}}); err != nil {
			b.Fatal(err)
		}
		ix.Close()
	}
}

// BenchmarkIndexEditSeen: one file edited, the refresh that stores it.
func BenchmarkIndexEditSeen(b *testing.B) {
	warmLibraries(b)
	cat, err := indexBench.indexed.Catalog(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	victim := filepath.Join(indexBench.root, filepath.FromSlash(cat.Docs[len(cat.Docs)/2].Path))
	orig, err := os.ReadFile(victim)
	if err != nil {
		b.Fatal(err)
	}
	defer os.WriteFile(victim, orig, 0o644)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		text := append([]byte{}, orig...)
		text = append(text, []byte(strings.Repeat("x", i+1)+"\n")...)
		os.WriteFile(victim, text, 0o644)
		old := time.Now().Add(-time.Minute) // outside the racy window
		os.Chtimes(victim, old, old)
		b.StartTimer()
		st, err := indexBench.indexed.Refresh(context.Background(), nil)
		if err != nil || st.Parsed != 1 {
			b.Fatalf("refresh %+v, %v", st, err)
		}
	}
}

func BenchmarkIndexedSearch(b *testing.B) {
	warmLibraries(b)
	for _, q := range []struct {
		name string
		req  search.SearchRequest
	}{
		{"rare", search.SearchRequest{Query: indexBenchRare, Scope: domain.Scope{Depth: -1}, MaxResults: search.DefaultMaxResults}},
		{"common", search.SearchRequest{Query: indexBenchCommon, Scope: domain.Scope{Depth: -1}, MaxResults: search.DefaultMaxResults}},
		{"regex", search.SearchRequest{Query: indexBenchRegex, Mode: search.SearchRegex, Scope: domain.Scope{Depth: -1}, MaxResults: search.DefaultMaxResults}},
	} {
		for _, lib := range []struct {
			name string
			l    *library.Library
		}{{"indexed", indexBench.indexed}, {"scan", indexBench.plain}} {
			b.Run("native/"+q.name+"/"+lib.name, func(b *testing.B) {
				searcher := search.New(lib.l)
				for i := 0; i < b.N; i++ {
					if _, err := searcher.SearchDocuments(context.Background(), q.req); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("ts/"+q.name+"/"+lib.name, func(b *testing.B) {
				req := tscompat.SearchRequest{Query: q.req.Query, Mode: q.req.Mode, Depth: -1}
				tools := tscompat.New(lib.l)
				for i := 0; i < b.N; i++ {
					if _, err := tools.SearchDocuments(context.Background(), req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkRankedSearch(b *testing.B) {
	benchmarkRanked(b, "how do I calibrate the turbine voltage")
}

// BenchmarkRankedSearchRelated asks a question holding a phrase docs say
// otherwise ("out of the box": default), for which ranked search runs a
// second index search.
func BenchmarkRankedSearchRelated(b *testing.B) {
	benchmarkRanked(b, "what turbine voltage is calibrated out of the box")
}

func benchmarkRanked(b *testing.B, query string) {
	warmLibraries(b)
	searcher := search.New(indexBench.indexed)
	for i := 0; i < b.N; i++ {
		if _, err := searcher.SearchDocuments(context.Background(), search.SearchRequest{
			Query: query, Mode: search.SearchRanked, Scope: domain.Scope{Depth: -1}}); err != nil {
			b.Fatal(err)
		}
	}
}
