package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkPostgresVsSQLite puts a server on a PostgreSQL index alone
// beside a server on the same library with its embedded SQLite index, and
// times the same native-tool calls on both over stdio: after a round of
// every call but the regex and a pause, the median of five calls after one
// warm-up call, each kind of call in turn on both servers.
//
//	LIBRARIAN_BENCH_POSTGRES=postgres://… (indexed with librarian index --to)
//	LIBRARIAN_BENCH_LIBRARY=DIR (the generated library, bench_terms.json)
//	LIBRARIAN_BENCH_SQLITE_DIR=DIR (LIBRARY_INDEX_DIR of a built SQLite index)
//	LIBRARIAN_BENCH_BINARY=FILE (optional: another build, to compare)
//	go test ./cmd/librarian -run '^$' -bench PostgresVsSQLite -benchtime 1x
//
// Each call's median is reported for both (pg-…-ms, sqlite-…-ms), and each
// server's peak RSS before and after the regex calls.
func BenchmarkPostgresVsSQLite(b *testing.B) {
	dsn, lib, dir := os.Getenv("LIBRARIAN_BENCH_POSTGRES"), os.Getenv("LIBRARIAN_BENCH_LIBRARY"), os.Getenv("LIBRARIAN_BENCH_SQLITE_DIR")
	if dsn == "" || lib == "" || dir == "" {
		b.Skip("set LIBRARIAN_BENCH_POSTGRES, LIBRARIAN_BENCH_LIBRARY and LIBRARIAN_BENCH_SQLITE_DIR")
	}
	bin := benchBinary()
	start := func(env ...string) (*mcp.ClientSession, int) {
		cmd := exec.Command(bin)
		cmd.Dir = b.TempDir()
		cmd.Env = append(os.Environ(), append([]string{"LIBRARIAN_DOCS_ROOT=", "LIBRARIAN_TOOLS=library"}, env...)...)
		client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		cs, err := client.Connect(b.Context(), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cs.Close() })
		return cs, cmd.Process.Pid
	}
	abs, err := filepath.Abs(lib)
	if err != nil {
		b.Fatal(err)
	}
	type server struct {
		name string
		cs   *mcp.ClientSession
		pid  int
	}
	pgS, pgPid := start("LIBRARY_ROOT=", "LIBRARY_INDEX="+dsn)
	sqS, sqPid := start("LIBRARY_ROOT="+abs, "LIBRARY_INDEX=on", "LIBRARY_INDEX_DIR="+dir)
	servers := []server{{"pg", pgS, pgPid}, {"sqlite", sqS, sqPid}}
	calls := []struct {
		name, tool string
		args       map[string]any
	}{
		{"listing-depth1", "list_documents", map[string]any{"depth": 1}},
		{"rare", "search_documents", map[string]any{"query": "quillwort"}},
		{"medium", "search_documents", map[string]any{"query": "lanthanide"}},
		{"ranked-rare", "search_documents", map[string]any{"query": "quillwort habitat", "mode": "ranked"}},
		{"ranked-common", "search_documents", map[string]any{"query": "what is the calibration procedure", "mode": "ranked"}},
		{"regex", "search_documents", map[string]any{"query": `\b(rotor|stator|turbine)\b[^.]{0,40}\b(voltage|current)\b`, "mode": "regex"}},
	}
	// One round of every call first, then a pause: a server with a root
	// checks its files in the background after it starts.
	for _, c := range calls {
		if c.name == "regex" {
			continue // its RSS is measured below
		}
		for _, s := range servers {
			benchCall(b, s.cs, c.tool, c.args)
		}
	}
	time.Sleep(benchPause())
	for b.Loop() {
		for _, c := range calls {
			if c.name == "regex" {
				for _, s := range servers {
					b.ReportMetric(float64(peakRSS(b, s.pid))/(1<<20), s.name+"-rss-before-regex-MiB")
				}
			}
			var answers []string
			for _, s := range servers {
				text, isErr := benchCall(b, s.cs, c.tool, c.args) // warm-up
				if isErr {
					b.Fatalf("%s %s: %s", s.name, c.name, text)
				}
				answers = append(answers, text)
				var took []time.Duration
				for range 5 {
					t0 := time.Now()
					benchCall(b, s.cs, c.tool, c.args)
					took = append(took, time.Since(t0))
				}
				slices.Sort(took)
				b.ReportMetric(ms(took[2]), s.name+"-"+c.name+"-ms")
			}
			if c.name != "ranked-rare" && c.name != "ranked-common" && answers[0] != answers[1] {
				b.Logf("%s: the two servers answer differently", c.name)
			}
		}
		for _, s := range servers {
			b.ReportMetric(float64(peakRSS(b, s.pid))/(1<<20), s.name+"-rss-MiB")
		}
	}
}

// benchPause is LIBRARIAN_BENCH_PAUSE (a duration), 3 s by default.
func benchPause() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("LIBRARIAN_BENCH_PAUSE")); err == nil {
		return d
	}
	return 3 * time.Second
}
