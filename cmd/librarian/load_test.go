//go:build loadtest

// The load test of `serve --http` (issues 11 and 20), outside the default
// test run:
//
//	go test -tags loadtest -run TestHTTPLoad -v -timeout 10m ./cmd/librarian
//
// LIBRARIAN_LOAD_CLIENTS (64), LIBRARIAN_LOAD_NONREADERS (40),
// LIBRARIAN_LOAD_TRICKLERS (20) and LIBRARIAN_LOAD_DURATION (60s) change
// its size; 0 non-readers and 0 tricklers is issue 11's run alone.

package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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
	// big/: the doc whose whole text the clients that never read ask for,
	// 1 MB: more than the answer ceiling lets through.
	os.MkdirAll(filepath.Join(root, "big"), 0o755)
	for b := range bigDocs {
		var body strings.Builder
		fmt.Fprintf(&body, "---\ntitle: Big %d\n---\n# Big %d\n\n", b, b)
		for l := 0; body.Len() < 1<<20; l++ {
			fmt.Fprintf(&body, "Filler line %d of big doc %d, long enough to make a megabyte soon: %s\n", l, b, strings.Repeat("z", 60))
		}
		os.WriteFile(filepath.Join(root, "big", fmt.Sprintf("b%d.md", b)), []byte(body.String()), 0o644)
	}
}

// bigDocs are the 1 MB docs of big/.
const bigDocs = 1

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

// Tokens of the load test: the well-behaved clients share one, the
// hostile ones another (one token holder trying to break the server for
// everyone else).
const (
	goodToken    = "good-token-0123456789"
	hostileToken = "hostile-token-9876543210"
)

// TestHTTPLoad: 64 go-sdk clients (half on 2026-07-28, stateless; half on
// 2025-11-25, in sessions) call list_documents, get_documents and
// search_documents for 60 s against the built binary while an editor
// rewrites one doc every 100 ms (in place and by rename) and appends to
// others. Meanwhile, under another token, 40 clients POST a call whose
// answer is as large as the server allows (get_documents of a 1 MB doc
// with max_tokens 0, which LIBRARIAN_HTTP_MAX_ANSWER_TOKENS caps), 32
// pipelined on one connection, and never read them, and 20 send POST
// bodies a byte a second. It reports the well-behaved clients' calls/s,
// latency percentiles and errors, the server's peak RSS, and whether every
// read of the edited doc that started after an edit had settled showed
// that edit (or a later one); it fails past the memory bound
// (memoryBound).
func TestHTTPLoad(t *testing.T) {
	clients := envInt("LIBRARIAN_LOAD_CLIENTS", 64)
	nonReaders := envCount("LIBRARIAN_LOAD_NONREADERS", 40)
	tricklers := envCount("LIBRARIAN_LOAD_TRICKLERS", 20)
	duration, err := time.ParseDuration(os.Getenv("LIBRARIAN_LOAD_DURATION"))
	if err != nil || duration <= 0 {
		duration = 60 * time.Second
	}
	const settle = 20 * time.Millisecond
	root := t.TempDir()
	const folders, docs = 10, 20
	writeLoadLibrary(t, root, folders, docs)
	tokens := filepath.Join(t.TempDir(), "tokens")
	os.WriteFile(tokens, []byte("good "+goodToken+"\nhostile "+hostileToken+"\n"), 0o600)
	srv := startHTTPBinary(t, "LIBRARY_ROOT="+root, "LIBRARIAN_TOKEN=", "LIBRARIAN_TOKEN_FILE="+tokens, "LIBRARIAN_LOG=warn",
		"LIBRARY_INDEX_DIR="+t.TempDir())
	answerBytes := bigAnswerBytes(t, srv.base)
	rss := watchRSS(srv.cmd.Process.Pid)

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

	var calls, failures, busy, freshReads, staleReads, midWrite atomic.Int64
	var firstErr, firstMidWrite atomic.Value
	latencies := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	var hostile hostileCounts
	for range nonReaders {
		wg.Add(1)
		go func() { defer wg.Done(); neverRead(ctx, srv.base, &hostile) }()
	}
	for range tricklers {
		wg.Add(1)
		go func() { defer wg.Done(); trickle(ctx, srv.base, &hostile) }()
	}
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			protocol := ""
			if c%2 == 1 {
				protocol = "2025-11-25"
			}
			cs := connectHTTPClient(t, srv.base+"/mcp", goodToken, protocol)
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
					// Each search in one folder, so that none scans the
					// megabyte of big/ the hostile clients ask for.
					scope := []string{fmt.Sprintf("f%02d", rng.IntN(folders)), "edits"}[rng.IntN(2)]
					name, args = "search_documents", map[string]any{"query": []string{"invalidate", "rotate", "replica", "marker-"}[rng.IntN(4)], "max_results": 20, "root": scope}
				case 3:
					name, args, live = "get_documents", map[string]any{"select": []any{"edits/live"}}, true
				}
				began := time.Now()
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
				latencies[c] = append(latencies[c], time.Since(began)) // busy answers included
				if err == nil && res.IsError && strings.HasPrefix(allToolText(res), "server busy:") {
					// The cap's refusal, after a wait of 2 s: the call did
					// nothing, and an agent sends it again, as it says.
					busy.Add(1)
					continue
				}
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
	peakKB := procStatusKB(srv.cmd.Process.Pid, "VmHWM:")
	afterKB := procStatusKB(srv.cmd.Process.Pid, "VmRSS:")
	rss.stop()
	mu.Lock()
	edits := len(written) - 1
	mu.Unlock()
	bound := memoryBound(answerBytes, nonReaders+tricklers > 0)
	report := fmt.Sprintf("load: %d clients for %s over %d docs, %d edits of edits/live.md: %d calls, %.0f calls/s, p50 %s, p99 %s, max %s, errors %d, busy (sent again) %d, "+
		"reads of the edited doc %d fresh / %d stale (settle %s) / %d during an in-place write; "+
		"meanwhile %d clients that never read (%d calls of a %d-byte answer sent) and %d that trickle bodies (%d bodies, %d cut off); "+
		"server peak RSS %d MB (VmHWM; highest sample %d MB, %d MB at the end), bound %d MB",
		clients, elapsed.Round(time.Second), folders*(docs+1)+1+bigDocs, edits, calls.Load(), float64(calls.Load())/elapsed.Seconds(),
		pct(0.50).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond), pct(1).Round(time.Millisecond),
		failures.Load(), busy.Load(), freshReads.Load(), staleReads.Load(), settle, midWrite.Load(),
		nonReaders, hostile.posted.Load(), answerBytes, tricklers, hostile.trickled.Load(), hostile.cut.Load(),
		peakKB>>10, rss.peakKB.Load()>>10, afterKB>>10, bound>>20)
	t.Log(report)
	fmt.Println(report)
	if v := firstMidWrite.Load(); v != nil {
		t.Logf("a read during an in-place write (the file was being rewritten) answered:\n%s", v)
	}
	if failures.Load() > 0 || staleReads.Load() > 0 {
		t.Errorf("%d errors, %d stale reads; first: %v", failures.Load(), staleReads.Load(), firstErr.Load())
	}
	if peakKB<<10 > bound {
		t.Errorf("server peak RSS %d MB is over the bound of %d MB", peakKB>>10, bound>>20)
	}
}

func envCount(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n >= 0 {
		return n
	}
	return def
}

// memoryBound is the peak RSS the server must stay under: 200 MB for the
// library (big/ included), its index and 64 clients (153 MB measured
// without hostile clients; issue 11's run, without big/, 62 MB), plus,
// with hostile clients, one call in each slot the hostile token may hold
// (LIBRARIAN_HTTP_MAX_CALLS_PER_TOKEN's default, 32 of 64 with two
// tokens), at 16 times its answer: the doc it reads (2.5 times the answer
// here), the answer's text, its JSON, its JSON-RPC framing and the event
// the go-sdk writes (4 times), all doubled by the heap's growth before a
// collection. A call keeps its slot until its answer is written or cut off
// (LIBRARIAN_HTTP_WRITE_TIMEOUT), so no answer is held outside the slots,
// however many clients stop reading; bodies (1 MiB at most, a byte a
// second here) and connections cost little beside.
func memoryBound(answerBytes int64, hostile bool) int64 {
	const base = 200 << 20
	if !hostile {
		return base
	}
	return base + 32*16*answerBytes
}

// bigAnswerBytes is the size of the answer the hostile clients ask for,
// read whole once.
func bigAnswerBytes(t *testing.T, base string) int64 {
	t.Helper()
	req := hostileRequest(t, base)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, _ := io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK || n < 64<<10 {
		t.Fatalf("the hostile call answered %d with %d bytes", resp.StatusCode, n)
	}
	return n
}

// hostileCall is a stateless (2026-07-28) tools/call of every doc of big/,
// whole (max_tokens 0).
func hostileCall() string {
	var sel []string
	for b := range bigDocs {
		sel = append(sel, fmt.Sprintf(`"big/b%d"`, b))
	}
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_documents","arguments":{"select":[` + strings.Join(sel, ",") +
		`],"max_tokens":0},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
}

func hostileHeaders(h http.Header) {
	h.Set("Authorization", "Bearer "+hostileToken)
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	h.Set("Mcp-Protocol-Version", "2026-07-28")
	h.Set("Mcp-Method", "tools/call")
	h.Set("Mcp-Name", "get_documents")
}

func hostileRequest(t *testing.T, base string) *http.Request {
	req, err := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(hostileCall()))
	if err != nil {
		t.Fatal(err)
	}
	hostileHeaders(req.Header)
	return req
}

type hostileCounts struct{ posted, trickled, cut atomic.Int64 }

// neverRead sends the hostile call pipelined, pipelined times, on a
// connection with a 4 KiB receive buffer, and never reads: the answers fill
// the kernel's buffers, then the server's write blocks until its write
// timeout (30 s) cuts the connection. It keeps the connection a little
// longer than that, then opens another.
func neverRead(ctx context.Context, base string, counts *hostileCounts) {
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	host := strings.TrimPrefix(base, "http://")
	var one strings.Builder
	h := http.Header{}
	hostileHeaders(h)
	body := hostileCall()
	fmt.Fprintf(&one, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n", host, len(body))
	h.Write(&one)
	one.WriteString("\r\n" + body)
	requests := strings.Repeat(one.String(), pipelined)
	for ctx.Err() == nil {
		conn, err := d.DialContext(ctx, "tcp", host)
		if err != nil {
			return
		}
		if _, err := io.WriteString(conn, requests); err == nil {
			counts.posted.Add(pipelined)
		}
		select {
		case <-ctx.Done():
		case <-time.After(32 * time.Second):
		}
		conn.Close()
	}
}

// pipelined is how many calls a client that never reads sends on one
// connection: their answers together are well over what the kernel
// buffers of a loopback connection hold, even at the answer ceiling.
const pipelined = 32

// trickle sends a POST body of 100,000 bytes a byte a second, until the
// server cuts it off (LIBRARIAN_HTTP_BODY_TIMEOUT, 30 s), then starts
// again.
func trickle(ctx context.Context, base string, counts *hostileCounts) {
	host := strings.TrimPrefix(base, "http://")
	for ctx.Err() == nil {
		conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", host)
		if err != nil {
			return
		}
		h := http.Header{}
		hostileHeaders(h)
		var req strings.Builder
		fmt.Fprintf(&req, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Length: 100000\r\n", host)
		h.Write(&req)
		req.WriteString("\r\n")
		counts.trickled.Add(1)
		stop := context.AfterFunc(ctx, func() { conn.Close() })
		_, err = io.WriteString(conn, req.String())
		for err == nil && ctx.Err() == nil {
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
				_, err = conn.Write([]byte(" "))
			}
		}
		if err != nil && ctx.Err() == nil {
			counts.cut.Add(1)
		}
		stop()
		conn.Close()
	}
}

// rssWatch samples the server's resident set every 250 ms.
type rssWatch struct {
	peakKB atomic.Int64
	done   chan struct{}
}

func watchRSS(pid int) *rssWatch {
	w := &rssWatch{done: make(chan struct{})}
	go func() {
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-w.done:
				return
			case <-tick.C:
			}
			if kb := procStatusKB(pid, "VmRSS:"); kb > w.peakKB.Load() {
				w.peakKB.Store(kb)
			}
		}
	}()
	return w
}

func (w *rssWatch) stop() { close(w.done) }

// procStatusKB reads one "Name: N kB" line of /proc/PID/status; 0 when
// there is none (not Linux).
func procStatusKB(pid int, name string) int64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, name); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return n
		}
	}
	return 0
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
