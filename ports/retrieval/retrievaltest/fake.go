// Package retrievaltest holds the retrieval port's contract suite (Run) and
// FakeEngine, an httptest engine that speaks seed 004's HTTP contract,
// records every request and injects faults. Adapters run the suite; the
// end-to-end tests point the librarian binary at a FakeEngine through
// LIBRARIAN_URL.
package retrievaltest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Request is one request the fake engine received, as it arrived.
type Request struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
	// JSON is Body decoded when it is a JSON object (numbers as float64),
	// nil otherwise.
	JSON map[string]any
}

// Endpoint is "METHOD /path".
func (r Request) Endpoint() string { return r.Method + " " + r.Path }

// Reply writes one answer of the fake engine; it may read the request's
// body. The helpers below build the answers and faults the contract talks
// about.
type Reply func(w http.ResponseWriter, r *http.Request)

// FakeEngine is an engine on an httptest server. Unless scripted, each
// endpoint checks its request against seed 004's table (method, query
// parameters, body fields: a missing or unknown one gets a 422 naming it,
// as the engine's FastAPI would) and answers with plausible JSON built from
// the request:
//
//   - locate: the seed's example hits (require_session, auth-middleware);
//   - brief: {"brief": "Brief for: TASK"}; ask: {"answer": "Answer to: QUERY
//     (N earlier turns)", "provider": "fake"};
//   - depends: {"dependents": ["login-route"], "depends_on": ["session-store"]};
//   - status: {"ok": true, "index": {"built_at": BuiltAt, "files": 128}};
//   - tell, gap: {"stored": "tell-N"} / {"stored": "gap-N"};
//   - guide: {"stored": true, "version": N, "expires_at": BuiltAt+3600}, or a
//     422 {"reason": ...} for empty text; DELETE: {"cleared": true|false};
//   - interactions: {"rows": [...]} listing the session's earlier calls.
//
// It is safe for concurrent use. NewFakeEngine closes it when the test ends.
type FakeEngine struct {
	srv  *httptest.Server
	done chan struct{}
	once sync.Once

	// BuiltAt is the index build time the default status reports.
	BuiltAt time.Time

	mu       sync.Mutex
	requests []Request
	scripts  map[string]*script
	counts   map[string]int
	guides   map[string]int // session -> guidance version, 0 when none
}

type script struct {
	replies []Reply
	served  int
}

// NewFakeEngine starts a fake engine on a loopback port.
func NewFakeEngine(t testing.TB) *FakeEngine {
	t.Helper()
	f := &FakeEngine{
		done:    make(chan struct{}),
		BuiltAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		scripts: map[string]*script{},
		counts:  map[string]int{},
		guides:  map[string]int{},
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// URL is the engine's base URL, for LIBRARIAN_URL.
func (f *FakeEngine) URL() string { return f.srv.URL }

// Close stops the engine; stalled replies end at once. Safe to call twice.
func (f *FakeEngine) Close() {
	f.once.Do(func() {
		close(f.done)
		f.srv.CloseClientConnections()
		f.srv.Close()
	})
}

// Requests returns a copy of every request received so far, in order.
func (f *FakeEngine) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.requests)
}

// RequestsTo returns the requests received by one endpoint.
func (f *FakeEngine) RequestsTo(method, path string) []Request {
	var out []Request
	for _, r := range f.Requests() {
		if r.Method == method && r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// Script makes the endpoint answer its next requests with replies, in
// order; the last one repeats. Requests are still recorded.
func (f *FakeEngine) Script(method, path string, replies ...Reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.scripts[method+" "+path] = &script{replies: replies}
}

func (f *FakeEngine) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = io.NopCloser(bytes.NewReader(body)) // a scripted reply may read it again
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: body}
	if len(bytes.TrimSpace(body)) > 0 {
		var m map[string]any
		if json.Unmarshal(body, &m) == nil {
			req.JSON = m
		}
	}
	f.mu.Lock()
	f.requests = append(f.requests, req)
	var reply Reply
	if s := f.scripts[req.Endpoint()]; s != nil && len(s.replies) > 0 {
		reply = s.replies[min(s.served, len(s.replies)-1)]
		s.served++
	}
	f.mu.Unlock()
	if reply != nil {
		reply(w, withDone(r, f.done))
		return
	}
	f.answer(w, req)
}

// withDone makes r's context also end when the fake closes, so a stalled
// reply never holds up Close.
func withDone(r *http.Request, done <-chan struct{}) *http.Request {
	ctx, cancel := context.WithCancel(r.Context())
	go func() {
		defer cancel()
		select {
		case <-done:
		case <-ctx.Done():
		}
	}()
	return r.WithContext(ctx)
}

// The contract, endpoint by endpoint: required and optional fields.
type contract struct {
	query, queryOptional []string
	body, bodyOptional   []string
}

var contracts = map[string]contract{
	"GET /api/library/locate":       {query: []string{"q", "limit", "surface", "session"}, queryOptional: []string{"caller"}},
	"POST /api/library/brief":       {body: []string{"task", "surface", "session"}, bodyOptional: []string{"project", "caller"}},
	"POST /api/library/ask":         {body: []string{"query", "surface", "session"}, bodyOptional: []string{"project", "caller", "history"}},
	"GET /api/library/depends":      {query: []string{"eid"}},
	"GET /api/library/status":       {},
	"POST /api/library/tell":        {body: []string{"subject", "info", "source", "session"}, bodyOptional: []string{"project", "caller"}},
	"POST /api/library/gap":         {body: []string{"subject", "missing", "source", "session"}, bodyOptional: []string{"project", "caller"}},
	"POST /api/library/guide":       {body: []string{"session", "text", "exclude", "expect"}, bodyOptional: []string{"caller"}},
	"DELETE /api/library/guide":     {query: []string{"session"}},
	"GET /api/library/interactions": {query: []string{"session", "limit"}},
}

// Check returns the ways req breaks seed 004's table for its endpoint,
// none when it fits: unknown endpoint, missing or unknown query parameters
// or body fields, a body that is not a JSON object.
func Check(req Request) []string {
	c, ok := contracts[req.Endpoint()]
	if !ok {
		return []string{"no such endpoint: " + req.Endpoint()}
	}
	var problems []string
	for _, name := range c.query {
		if !req.Query.Has(name) {
			problems = append(problems, fmt.Sprintf("query parameter '%s' is missing", name))
		}
	}
	for name := range req.Query {
		if !slices.Contains(c.query, name) && !slices.Contains(c.queryOptional, name) {
			problems = append(problems, fmt.Sprintf("unexpected query parameter '%s'", name))
		}
	}
	if c.body == nil {
		if len(bytes.TrimSpace(req.Body)) > 0 {
			problems = append(problems, "unexpected body")
		}
	} else if req.JSON == nil {
		problems = append(problems, "body is not a JSON object")
	} else {
		if ct := req.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			problems = append(problems, fmt.Sprintf("Content-Type is %q, not application/json", ct))
		}
		for _, name := range c.body {
			if _, ok := req.JSON[name]; !ok {
				problems = append(problems, fmt.Sprintf("body field '%s' is missing", name))
			}
		}
		for name := range req.JSON {
			if !slices.Contains(c.body, name) && !slices.Contains(c.bodyOptional, name) {
				problems = append(problems, fmt.Sprintf("unexpected body field '%s'", name))
			}
		}
	}
	slices.Sort(problems)
	return problems
}

// answer is the default engine.
func (f *FakeEngine) answer(w http.ResponseWriter, req Request) {
	if problems := Check(req); len(problems) > 0 {
		status := http.StatusUnprocessableEntity
		if _, known := contracts[req.Endpoint()]; !known {
			status = http.StatusNotFound
		}
		writeJSON(w, status, map[string]any{"detail": problems})
		return
	}
	str := func(name string) string { s, _ := req.JSON[name].(string); return s }
	f.mu.Lock()
	defer f.mu.Unlock()
	f.counts[req.Endpoint()]++
	n := f.counts[req.Endpoint()]
	switch req.Endpoint() {
	case "GET /api/library/locate":
		writeJSON(w, 200, map[string]any{
			"source": "index",
			"hits": []any{
				map[string]any{"kind": "function", "name": "require_session", "file": "src/web/auth_middleware.py",
					"line": 24, "signature": "(request)", "stale": false},
				map[string]any{"kind": "entry", "name": "auth-middleware", "file": "", "depends_on": "session-store"},
			},
			"excluded_hits": 0,
		})
	case "POST /api/library/brief":
		writeJSON(w, 200, map[string]any{"brief": "Brief for: " + str("task")})
	case "POST /api/library/ask":
		history, _ := req.JSON["history"].([]any)
		writeJSON(w, 200, map[string]any{
			"answer":   fmt.Sprintf("Answer to: %s (%d earlier turns)", str("query"), len(history)),
			"provider": "fake",
		})
	case "GET /api/library/depends":
		writeJSON(w, 200, map[string]any{"dependents": []string{"login-route"}, "depends_on": []string{"session-store"}})
	case "GET /api/library/status":
		writeJSON(w, 200, map[string]any{"ok": true, "index": map[string]any{"built_at": f.BuiltAt.Unix(), "files": 128}})
	case "POST /api/library/tell":
		writeJSON(w, 200, map[string]any{"stored": fmt.Sprintf("tell-%d", n)})
	case "POST /api/library/gap":
		writeJSON(w, 200, map[string]any{"stored": fmt.Sprintf("gap-%d", n)})
	case "POST /api/library/guide":
		if strings.TrimSpace(str("text")) == "" {
			writeJSON(w, 422, map[string]any{"reason": "guidance text is empty"})
			return
		}
		f.guides[str("session")]++
		writeJSON(w, 200, map[string]any{"stored": true, "version": f.guides[str("session")], "expires_at": f.BuiltAt.Unix() + 3600})
	case "DELETE /api/library/guide":
		session := req.Query.Get("session")
		cleared := f.guides[session] > 0
		delete(f.guides, session)
		writeJSON(w, 200, map[string]any{"cleared": cleared})
	case "GET /api/library/interactions":
		session := req.Query.Get("session")
		limit, _ := strconv.Atoi(req.Query.Get("limit"))
		rows := []any{}
		for i, earlier := range f.requests {
			if earlier.Path == "/api/library/interactions" || earlier.Path == "/api/library/status" {
				continue
			}
			s := earlier.Query.Get("session")
			if s == "" {
				s, _ = earlier.JSON["session"].(string)
			}
			if s != session || len(Check(earlier)) > 0 {
				continue
			}
			row := map[string]any{
				"t":    f.BuiltAt.Unix() + int64(60*i),
				"kind": strings.TrimPrefix(earlier.Path, "/api/library/"),
			}
			caller := earlier.Query.Get("caller")
			if c, ok := earlier.JSON["caller"].(string); ok {
				caller = c
			}
			if caller != "" {
				row["caller"] = caller
			}
			for _, k := range []string{"q", "query", "task", "subject", "text"} {
				if v := earlier.Query.Get(k); v != "" {
					row["query"] = v
				}
				if v, ok := earlier.JSON[k].(string); ok && v != "" {
					row["query"] = v
				}
			}
			rows = append(rows, row)
		}
		if limit > 0 && len(rows) > limit {
			rows = rows[len(rows)-limit:]
		}
		writeJSON(w, 200, map[string]any{"rows": rows})
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(data)
}

// JSON answers status with v as JSON.
func JSON(status int, v any) Reply {
	return func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, status, v) }
}

// Raw answers status with body as it is (an empty body included).
func Raw(status int, body string) Reply {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// Drop closes the connection without answering: a dropped connection.
func Drop() Reply {
	return func(w http.ResponseWriter, _ *http.Request) {
		if conn, _ := hijack(w); conn != nil {
			conn.Close()
		}
	}
}

// Truncate sends the headers and the start of a longer body, then closes
// the connection: a connection dropped half-way through the reply.
func Truncate() Reply {
	return func(w http.ResponseWriter, _ *http.Request) {
		conn, buf := hijack(w)
		if conn == nil {
			return
		}
		defer conn.Close()
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"brief\": \"cut")
		buf.Flush()
	}
}

// hijack takes the connection over from the HTTP server; nil (after a 500
// answer) when the writer cannot give it up.
func hijack(w http.ResponseWriter) (net.Conn, *bufio.ReadWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "retrievaltest: this connection cannot be taken over", http.StatusInternalServerError)
		return nil, nil
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return nil, nil
	}
	return conn, buf
}

// Stall sends nothing for d (or until the client gives up or the fake
// closes), then answers 200 {}: an engine slower than the read timeout.
func Stall(d time.Duration) Reply {
	return func(w http.ResponseWriter, r *http.Request) {
		if wait(r, d) {
			writeJSON(w, 200, map[string]any{})
		}
	}
}

// StallBody sends the headers and the start of the body at once, then
// stalls for d before finishing it: a reply whose body is slow.
func StallBody(d time.Duration) Reply {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		io.WriteString(w, `{"brief": "slow`)
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush()
		}
		if wait(r, d) {
			io.WriteString(w, ` body"}`)
		}
	}
}

// Huge answers 200 with a valid JSON object of at least n bytes.
func Huge(n int) Reply {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		io.WriteString(w, `{"brief": "`)
		chunk := strings.Repeat("x", 32<<10)
		for written := 0; written < n; written += len(chunk) {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
		io.WriteString(w, `"}`)
	}
}

// wait sleeps d unless the request ends first; it reports whether d passed.
func wait(r *http.Request, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// RefusedURL returns an http URL on a loopback port nothing listens on, so
// connecting to it is refused.
func RefusedURL(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("reserving a port: %v", err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}
