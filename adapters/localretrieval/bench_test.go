package localretrieval_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/adapters/localretrieval"
	"github.com/librarian/librarian/adapters/memjournal"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/journal"
	"github.com/librarian/librarian/ports/sectionindex"
)

// The benchmarks run on a generated library, indexed once into a SQLite
// file (the server's default):
//
//	python3 ../shared/bench/gen_library.py /tmp/lib10k --docs 10000 --seed 1
//	LIBRARIAN_BENCH_LIBRARY=/tmp/lib10k go test ./adapters/localretrieval -run '^$' -bench . -benchtime 20x
//
// LIBRARIAN_BENCH_INDEX=FILE keeps the index in FILE and reuses it on the
// next run (it is built only when FILE holds no docs).
// Without LIBRARIAN_BENCH_LIBRARY they are skipped.

var (
	benchOnce sync.Once
	benchEng  *localretrieval.Engine
	benchIx   sectionindex.Index
	benchErr  error
)

func benchEngine(b *testing.B) *localretrieval.Engine {
	root := os.Getenv("LIBRARIAN_BENCH_LIBRARY")
	if root == "" {
		b.Skip("set LIBRARIAN_BENCH_LIBRARY to a generated library (see bench_test.go)")
	}
	benchOnce.Do(func() {
		src, err := jsonindex.New(root, "index.json")
		if err != nil {
			benchErr = err
			return
		}
		file := os.Getenv("LIBRARIAN_BENCH_INDEX") // an index kept from an earlier run, to skip the build
		if file == "" {
			dir, err := os.MkdirTemp("", "localretrieval-bench")
			if err != nil {
				benchErr = err
				return
			}
			file = filepath.Join(dir, "index.sqlite")
		}
		ix, err := sqlitesectionindex.OpenFile(context.Background(), file, sqlitesectionindex.Options{})
		if err != nil {
			benchErr = err
			return
		}
		if st, err := ix.Status(context.Background()); err != nil || st.Docs == 0 {
			indexLibrary(b, src, ix)
		}
		benchIx = ix
		benchEng, benchErr = localretrieval.New(localretrieval.Options{Index: ix, Journal: memjournal.New(journal.Limits{}), Library: src})
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	// Warm: the catalog read and the first queries of the index's pages.
	benchEng.Locate(ctx, knowledge.LocateQuery{Query: "warm up", Limit: 10, Tags: benchTags})
	benchEng.Ask(ctx, knowledge.AskQuery{Query: "warm up", Tags: benchTags})
	return benchEng
}

var benchTags = knowledge.EngineTags{Session: "bench"}

// cpuTime is the process's user and system CPU time so far: on a machine
// shared with other work the wall time per op says more about the load
// than about the engine, so each benchmark also reports CPU ms per op.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loop runs op b.N times and reports its CPU time per op beside the wall time.
func loop(b *testing.B, op func() error) {
	start := cpuTime()
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

func BenchmarkLocateName(b *testing.B) {
	e := benchEngine(b)
	loop(b, func() error {
		_, err := e.Locate(ctx, knowledge.LocateQuery{Query: "cropSystem", Limit: 10, Tags: benchTags})
		return err
	})
}

func BenchmarkLocateWords(b *testing.B) {
	e := benchEngine(b)
	loop(b, func() error {
		_, err := e.Locate(ctx, knowledge.LocateQuery{Query: "queue deploy memory order", Limit: 10, Tags: benchTags})
		return err
	})
}

func BenchmarkAsk(b *testing.B) {
	e := benchEngine(b)
	loop(b, func() error {
		_, err := e.Ask(ctx, knowledge.AskQuery{Query: "how does the turbine voltage calibration work?", Tags: benchTags})
		return err
	})
}

func BenchmarkBrief(b *testing.B) {
	e := benchEngine(b)
	loop(b, func() error {
		_, err := e.Brief(ctx, knowledge.BriefQuery{Task: "add lanthanide crystal calibration to the ocean forecast pipeline", Tags: benchTags})
		return err
	})
}

// The Selective benchmarks ask with the generator's planted words
// (bench_terms.json: quillwort in 3 docs, lanthanide in 100), as a real
// question names its subject; the others use the generator's common
// vocabulary, in thousands of docs: the ranked search's worst case.

func BenchmarkLocateSelective(b *testing.B) {
	e := benchEngine(b)
	loop(b, func() error {
		_, err := e.Locate(ctx, knowledge.LocateQuery{Query: "quillwort lanthanide", Limit: 10, Tags: benchTags})
		return err
	})
}

func BenchmarkAskSelective(b *testing.B) {
	e := benchEngine(b)
	loop(b, func() error {
		_, err := e.Ask(ctx, knowledge.AskQuery{Query: "where is quillwort mentioned with lanthanide?", Tags: benchTags})
		return err
	})
}

func BenchmarkBriefSelective(b *testing.B) {
	e := benchEngine(b)
	loop(b, func() error {
		_, err := e.Brief(ctx, knowledge.BriefQuery{Task: "document the quillwort lanthanide experiment", Tags: benchTags})
		return err
	})
}

// The section index's own calls, as locate and ask make them: where their
// time goes.

func BenchmarkIndexNames(b *testing.B) {
	benchEngine(b)
	loop(b, func() error {
		_, err := benchIx.Names(ctx, "cropSystem", 30)
		return err
	})
}

func BenchmarkIndexRankedCommon(b *testing.B) {
	benchEngine(b)
	loop(b, func() error {
		_, err := benchIx.Ranked(ctx, domain.RankedQuery{Text: "queue deploy memory order", Limit: 5})
		return err
	})
}

func BenchmarkIndexRankedSelective(b *testing.B) {
	benchEngine(b)
	loop(b, func() error {
		_, err := benchIx.Ranked(ctx, domain.RankedQuery{Text: "quillwort lanthanide", Limit: 5})
		return err
	})
}
