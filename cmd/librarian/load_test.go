//go:build loadtest

// The load test of `serve --http` (issue 11), outside the default test run:
//
//	go test -tags loadtest -run TestHTTPLoad -v -timeout 10m ./cmd/librarian
//
// LIBRARIAN_LOAD_CLIENTS (64) and LIBRARIAN_LOAD_DURATION (60s) change its size.

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// writeLoadLibrary writes a frontmatter library of folders × docs, each doc
// with a title, tags and five sections, plus edits/live.md, the doc the
// editor rewrites.
func writeLoadLibrary(t *testing.T, root string, folders, docs int) {
	t.Helper()
	words := strings.Fields("cache token session index render queue schema migrate invalidate rotate shard replica batch stream")
	for f := range folders {
		dir := filepath.Join(root, fmt.Sprintf("f%02d", f))
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "index.md"), []byte(fmt.Sprintf("---\ntitle: Folder %d\ntags: [folder-%d]\n---\n# Folder %d\n", f, f, f)), 0o644)
		for d := range docs {
			var b strings.Builder
			fmt.Fprintf(&b, "---\ntitle: Doc %d.%d\ntags: [t%d, shared]\n---\n# Doc %d.%d\n\nIntro line.\n", f, d, d%5, f, d)
			for s := range 5 {
				fmt.Fprintf(&b, "\n## Section %d\n\n", s)
				for l := range 8 {
					fmt.Fprintf(&b, "Line %d of section %d mentions %s and %s.\n", l, s, words[(f+d+s+l)%len(words)], words[(d*s+l)%len(words)])
				}
			}
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("d%02d.md", d)), []byte(b.String()), 0o644)
		}
	}
	os.MkdirAll(filepath.Join(root, "edits"), 0o755)
	writeLive(t, root, 0, false)
}

// writeLive rewrites edits/live.md with marker n: in place, or as an
// editor's atomic save (a temporary file renamed over it).
func writeLive(t *testing.T, root string, n int, atomic bool) {
	body := fmt.Sprintf("---\ntitle: Live\n---\n# Live\n\nmarker-%d\n%s", n, strings.Repeat("filler line\n", n%7))
	path := filepath.Join(root, "edits", "live.md")
	if !atomic {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Error(err)
		}
		return
	}
	tmp := filepath.Join(root, "edits", ".live.md.tmp")
	if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
		t.Error(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Error(err)
	}
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

var markerRE = regexp.MustCompile(`marker-(\d+)`)

// TestHTTPLoad: 64 go-sdk clients (half on 2026-07-28, stateless; half on
// 2025-11-25, in sessions) call list_documents, get_documents and
// search_documents for 60 s against the built binary while an editor
// rewrites one doc every 100 ms (in place and by rename) and appends to
// others. It reports calls/s, latency percentiles, errors, the server's
// peak RSS, and whether every read of the edited doc that started after an
// edit had settled showed that edit (or a later one).
func TestHTTPLoad(t *testing.T) {
	clients := envInt("LIBRARIAN_LOAD_CLIENTS", 64)
	duration, err := time.ParseDuration(os.Getenv("LIBRARIAN_LOAD_DURATION"))
	if err != nil || duration <= 0 {
		duration = 60 * time.Second
	}
	const settle = 20 * time.Millisecond
	root := t.TempDir()
	const folders, docs = 10, 20
	writeLoadLibrary(t, root, folders, docs)
	srv := startHTTPBinary(t, "LIBRARY_ROOT="+root, "LIBRARIAN_TOKEN="+httpToken, "LIBRARIAN_LOG=warn")

	// The editor: marker n's write began at began[n] and returned at
	// written[n].
	var mu sync.Mutex
	written, begun := []time.Time{time.Now()}, []time.Time{time.Now()}
	ctx, stop := context.WithTimeout(context.Background(), duration)
	defer stop()
	var editorDone sync.WaitGroup
	editorDone.Add(1)
	go func() {
		defer editorDone.Done()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for n := 1; ; n++ {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			mu.Lock()
			begun = append(begun, time.Now())
			mu.Unlock()
			writeLive(t, root, n, n%2 == 0)
			mu.Lock()
			written = append(written, time.Now())
			mu.Unlock()
			if n%5 == 0 { // and now and then an edit elsewhere
				p := filepath.Join(root, fmt.Sprintf("f%02d", n%folders), fmt.Sprintf("d%02d.md", n%docs))
				if f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0); err == nil {
					fmt.Fprintf(f, "Appended line %d.\n", n)
					f.Close()
				}
			}
		}
	}()
	// duringWrite reports whether a write was under way between from and to
	// (or ended less than settle before from).
	duringWrite := func(from, to time.Time) bool {
		mu.Lock()
		defer mu.Unlock()
		for n := range begun {
			end := time.Now()
			if n < len(written) {
				end = written[n]
			}
			if begun[n].Before(to) && end.Add(settle).After(from) {
				return true
			}
		}
		return false
	}
	// settledMarker is the newest marker whose write ended settle before at.
	settledMarker := func(at time.Time) int {
		mu.Lock()
		defer mu.Unlock()
		m := 0
		for n, w := range written {
			if w.Add(settle).Before(at) {
				m = n
			}
		}
		return m
	}

	var calls, failures, freshReads, staleReads, midWrite atomic.Int64
	var firstErr, firstMidWrite atomic.Value
	latencies := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			protocol := ""
			if c%2 == 1 {
				protocol = "2025-11-25"
			}
			cs := connectHTTPClient(t, srv.base+"/mcp", httpToken, protocol)
			rng := rand.New(rand.NewPCG(uint64(c), 1))
			for i := 0; ctx.Err() == nil; i++ {
				var name string
				var args map[string]any
				live := false
				switch i % 4 {
				case 0:
					name, args = "list_documents", map[string]any{"root": fmt.Sprintf("f%02d", rng.IntN(folders)), "section_depth": 2}
				case 1:
					name, args = "get_documents", map[string]any{"select": []any{
						fmt.Sprintf("f%02d/d%02d", rng.IntN(folders), rng.IntN(docs)),
						map[string]any{"doc": fmt.Sprintf("f%02d/d%02d", rng.IntN(folders), rng.IntN(docs)), "sections": []any{"section-2"}},
					}}
				case 2:
					name, args = "search_documents", map[string]any{"query": []string{"invalidate", "rotate", "replica", "marker-"}[rng.IntN(4)], "max_results": 20}
				case 3:
					name, args, live = "get_documents", map[string]any{"select": []any{"edits/live"}}, true
				}
				began := time.Now()
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
				latencies[c] = append(latencies[c], time.Since(began))
				calls.Add(1)
				if err != nil || res.IsError {
					failures.Add(1)
					if err == nil {
						err = fmt.Errorf("tool error: %s", allToolText(res))
					}
					firstErr.CompareAndSwap(nil, fmt.Sprintf("%s: %v", name, err))
					continue
				}
				if live {
					m := markerRE.FindStringSubmatch(allToolText(res))
					if m == nil && !duringWrite(began, time.Now()) {
						staleReads.Add(1)
						firstErr.CompareAndSwap(nil, "no marker, and no write under way: "+allToolText(res))
						continue
					}
					if m == nil {
						midWrite.Add(1)
						firstMidWrite.CompareAndSwap(nil, allToolText(res))
						continue
					}
					got, _ := strconv.Atoi(m[1])
					if got >= settledMarker(began) {
						freshReads.Add(1)
					} else {
						staleReads.Add(1)
						firstErr.CompareAndSwap(nil, fmt.Sprintf("stale read: marker %d, want at least %d", got, settledMarker(began)))
					}
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	editorDone.Wait()

	var all []time.Duration
	for _, l := range latencies {
		all = append(all, l...)
	}
	slices.Sort(all)
	pct := func(p float64) time.Duration {
		if len(all) == 0 {
			return 0
		}
		return all[min(len(all)-1, int(float64(len(all))*p))]
	}
	peakRSS := "unknown"
	if status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", srv.cmd.Process.Pid)); err == nil {
		for _, line := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(line, "VmHWM:") {
				peakRSS = strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))
			}
		}
	}
	mu.Lock()
	edits := len(written) - 1
	mu.Unlock()
	report := fmt.Sprintf("load: %d clients for %s over %d docs, %d edits of edits/live.md: %d calls, %.0f calls/s, p50 %s, p99 %s, max %s, errors %d, "+
		"reads of the edited doc %d fresh / %d stale (settle %s) / %d during an in-place write, server peak RSS %s",
		clients, elapsed.Round(time.Second), folders*(docs+1)+1, edits, calls.Load(), float64(calls.Load())/elapsed.Seconds(),
		pct(0.50).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond), pct(1).Round(time.Millisecond),
		failures.Load(), freshReads.Load(), staleReads.Load(), settle, midWrite.Load(), peakRSS)
	t.Log(report)
	fmt.Println(report)
	if v := firstMidWrite.Load(); v != nil {
		t.Logf("a read during an in-place write (the file was being rewritten) answered:\n%s", v)
	}
	if failures.Load() > 0 || staleReads.Load() > 0 {
		t.Errorf("%d errors, %d stale reads; first: %v", failures.Load(), staleReads.Load(), firstErr.Load())
	}
}

func allToolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
