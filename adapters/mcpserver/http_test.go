package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/fileimages"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/search"
)

// bundledLibrary is the repository's sample library (seed 000's layout).
const bundledLibrary = "../../library"

const (
	tokenAlice = "alice-0123456789abcdef"
	tokenBob   = "bob-fedcba9876543210"
)

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// libraryFactory builds servers with the library tool set over the bundled
// library, plus a `block` tool that waits for release (or its context) and
// a `boom` tool that panics; built counts the servers made.
type libraryFactory struct {
	lib     *library.Library
	release chan struct{}
	started chan struct{}
	built   atomic.Int64
}

func newLibraryFactory(t *testing.T) *libraryFactory {
	t.Helper()
	src, err := jsonindex.New(bundledLibrary, "index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	images, err := fileimages.New(bundledLibrary, "images/index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { images.Close() })
	return &libraryFactory{
		lib:     library.New(src, goldmarkmarkdown.New(), images, library.DefaultConfig()),
		release: make(chan struct{}),
		started: make(chan struct{}, 16),
	}
}

func (f *libraryFactory) newServer() *mcp.Server {
	f.built.Add(1)
	srv := mcpserver.NewServer(mcpserver.Options{Name: "librarian", Version: "test"})
	mcpserver.AddLibraryTools(srv, browse.New(f.lib), search.New(f.lib), nil, mcpserver.Ceilings{})
	mcp.AddTool(srv, &mcp.Tool{Name: "block"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		f.started <- struct{}{}
		select {
		case <-f.release:
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "released"}}}, nil, nil
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "boom"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		panic("boom")
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "big"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", bigAnswerBytes)}}}, nil, nil
	})
	// flood sends 1 MB log messages on the session's own event stream (GET
	// /mcp: they belong to no request), and says how many failed.
	mcp.AddTool(srv, &mcp.Tool{Name: "flood"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		failed := 0
		for range floodMessages {
			if err := req.Session.Log(context.Background(), &mcp.LoggingMessageParams{Level: "info", Data: strings.Repeat("y", 1<<20)}); err != nil {
				failed++
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%d failed", failed)}}}, nil, nil
	})
	return srv
}

// The sizes of the big tool's answer and the flood tool's messages: well
// over what the kernel buffers of a loopback connection hold, so a client
// that does not read blocks the server's write.
const (
	bigAnswerBytes = 16 << 20
	floodMessages  = 16
)

// startHTTP serves the library over httptest with opts (NewServer and
// Logger filled in when unset) and returns the /mcp URL and the log.
func startHTTP(t *testing.T, f *libraryFactory, opts mcpserver.HTTPOptions) (string, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	if opts.NewServer == nil {
		opts.NewServer = f.newServer
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	hs, err := mcpserver.NewHTTPServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(hs.Handler())
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp", logs
}

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connectHTTP connects a go-sdk client over streamable HTTP, with token
// ("" = none) and protocolVersion ("" = the client's default, 2026-07-28).
func connectHTTP(t *testing.T, endpoint, token, protocolVersion string) (*mcp.ClientSession, error) {
	t.Helper()
	client := &http.Client{Transport: http.DefaultTransport}
	if token != "" {
		client.Transport = bearer{token, http.DefaultTransport}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: client},
		&mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func mustConnectHTTP(t *testing.T, endpoint, token, protocolVersion string) *mcp.ClientSession {
	t.Helper()
	cs, err := connectHTTP(t, endpoint, token, protocolVersion)
	if err != nil {
		t.Fatalf("connect over HTTP (protocol %q): %v", protocolVersion, err)
	}
	return cs
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return allText(res), res.IsError
}

// TestHTTPEveryLibraryTool calls every library tool through the go-sdk
// client over streamable HTTP in every protocol version go-sdk v1.8.0
// negotiates: 2026-07-28 (stateless) and the older ones (a session).
func TestHTTPEveryLibraryTool(t *testing.T) {
	f := newLibraryFactory(t)
	endpoint, logs := startHTTP(t, f, mcpserver.HTTPOptions{Tokens: []mcpserver.Token{{Name: "alice", Value: tokenAlice}}})
	for _, protocol := range []string{"", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			cs := mustConnectHTTP(t, endpoint, tokenAlice, protocol)
			if got := cs.InitializeResult().ProtocolVersion; protocol != "" && got != protocol || protocol == "" && got != "2026-07-28" {
				t.Errorf("negotiated protocol %q (asked %q)", got, protocol)
			}
			for _, c := range []struct {
				tool string
				args map[string]any
				want string
			}{
				{"list_documents", map[string]any{"root": "backend/storage", "line_bounds": true}, `§ invalidation/fan-out-deletes "Fan-out deletes" L21–34`},
				{"get_documents", map[string]any{"select": []any{map[string]any{"doc": "caching", "sections": []string{"ttl-rules"}}}}, "=== caching (backend/storage/caching.md) · section ttl-rules · L35–38 ==="},
				{"search_documents", map[string]any{"query": "fan-out"}, "caching (backend/storage/caching.md)"},
				{"list_tags", map[string]any{}, "- backend ("},
			} {
				got, isErr := callTool(t, cs, c.tool, c.args)
				if isErr || !strings.Contains(got, c.want) {
					t.Errorf("%s over HTTP = %q (isError %v), want it to contain %q", c.tool, got, isErr, c.want)
				}
			}
		})
	}
	if log := logs.String(); strings.Contains(log, tokenAlice) || !strings.Contains(log, "method=POST path=/mcp status=200") || !strings.Contains(log, "token=alice") {
		t.Errorf("access log should name the token, never show it, and log each request:\n%s", log)
	}
}

// TestHTTPSessionsGetServersOfTheirOwn: each stateful session is served by
// a server of its own (its engine state is its own), while stateless
// requests of one token share one.
func TestHTTPSessionsGetServersOfTheirOwn(t *testing.T) {
	f := newLibraryFactory(t)
	endpoint, _ := startHTTP(t, f, mcpserver.HTTPOptions{})
	before := f.built.Load()
	for range 3 {
		cs := mustConnectHTTP(t, endpoint, "", "2025-11-25")
		callTool(t, cs, "list_tags", nil)
	}
	if got := f.built.Load() - before; got != 3 {
		t.Errorf("3 sessions built %d servers, want 3", got)
	}
	before = f.built.Load()
	for range 3 {
		cs := mustConnectHTTP(t, endpoint, "", "")
		callTool(t, cs, "list_tags", nil)
	}
	if got := f.built.Load() - before; got > 1 {
		t.Errorf("stateless clients of one token built %d servers, want at most 1", got)
	}
}

// post sends a raw JSON-RPC POST to /mcp with extra headers.
func post(t *testing.T, endpoint, body string, headers map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func hostOf(t *testing.T, endpoint string) string {
	t.Helper()
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// openRawSession opens a 2025-11-25 session with raw POSTs (initialize,
// then initialized) and returns its id.
func openRawSession(t *testing.T, endpoint, token string) string {
	t.Helper()
	headers := map[string]string{}
	if token != "" {
		headers["Authorization"] = "Bearer " + token
	}
	resp, body := post(t, endpoint, initialize, headers)
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || session == "" {
		t.Fatalf("initialize: status %d, session %q, body %q", resp.StatusCode, session, body)
	}
	headers["Mcp-Session-Id"] = session
	headers["Mcp-Protocol-Version"] = "2025-11-25"
	if resp, body := post(t, endpoint, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, headers); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: status %d %q", resp.StatusCode, body)
	}
	return session
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// TestHTTPRefusals: each guard refuses what it must, with the status the
// MCP spec and RFC 6750 name, and a message saying why.
func TestHTTPRefusals(t *testing.T) {
	f := newLibraryFactory(t)
	endpoint, logs := startHTTP(t, f, mcpserver.HTTPOptions{
		Tokens:         []mcpserver.Token{{Name: "alice", Value: tokenAlice}, {Name: "bob", Value: tokenBob}},
		AllowedOrigins: []string{"https://docs.example"},
		MaxBodyBytes:   4096,
	})
	auth := "Bearer " + tokenAlice
	for _, c := range []struct {
		name    string
		body    string
		headers map[string]string
		status  int
		want    string
	}{
		{"foreign origin", initialize, map[string]string{"Authorization": auth, "Origin": "https://evil.example"}, 403, `Origin "https://evil.example" is not allowed`},
		{"null origin", initialize, map[string]string{"Authorization": auth, "Origin": "null"}, 403, "is not allowed"},
		{"foreign origin without a token", initialize, map[string]string{"Origin": "https://evil.example"}, 403, "is not allowed"},
		{"cross-site fetch without Origin", initialize, map[string]string{"Authorization": auth, "Sec-Fetch-Site": "cross-site"}, 403, "Sec-Fetch-Site"},
		{"non-loopback host", initialize, map[string]string{"Authorization": auth, "Host": "evil.example"}, 403, "DNS-rebinding"},
		{"no token", initialize, nil, 401, "Authorization: Bearer"},
		{"wrong token", initialize, map[string]string{"Authorization": "Bearer not-the-token"}, 401, "not one this server accepts"},
		{"basic auth", initialize, map[string]string{"Authorization": "Basic YWxpY2U6eA=="}, 401, "Authorization: Bearer"},
		{"oversized body", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"` + strings.Repeat("a", 5000) + `"}}`, map[string]string{"Authorization": auth}, 413, "exceeds 4096 bytes"},
		{"allowed origin", initialize, map[string]string{"Authorization": auth, "Origin": "https://DOCS.example:443"}, 200, `"protocolVersion":"2025-11-25"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, body := post(t, endpoint, c.body, c.headers)
			if resp.StatusCode != c.status || !strings.Contains(body, c.want) {
				t.Errorf("status %d, body %q; want %d with %q", resp.StatusCode, body, c.status, c.want)
			}
			if c.status == 401 && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("a 401 must carry WWW-Authenticate: Bearer, got %q", resp.Header.Get("WWW-Authenticate"))
			}
		})
	}
	t.Run("another token's session", func(t *testing.T) {
		resp, _ := post(t, endpoint, initialize, map[string]string{"Authorization": auth})
		session := resp.Header.Get("Mcp-Session-Id")
		if session == "" {
			t.Fatal("initialize opened no session")
		}
		list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
		headers := map[string]string{"Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-11-25"}
		headers["Authorization"] = "Bearer " + tokenBob
		if resp, body := post(t, endpoint, list, headers); resp.StatusCode != http.StatusForbidden {
			t.Errorf("bob using alice's session: status %d %q, want 403", resp.StatusCode, body)
		}
		headers["Authorization"] = auth
		post(t, endpoint, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, headers)
		if resp, body := post(t, endpoint, list, headers); resp.StatusCode != http.StatusOK || !strings.Contains(body, "list_documents") {
			t.Errorf("alice using her own session: status %d %q", resp.StatusCode, body)
		}
	})
	for _, secret := range []string{tokenAlice, tokenBob, "not-the-token", "YWxpY2U6eA=="} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log shows a secret %q:\n%s", secret, logs.String())
		}
	}
}

func TestHTTPRefusesToStart(t *testing.T) {
	f := newLibraryFactory(t)
	for _, c := range []struct {
		opts mcpserver.HTTPOptions
		want string
	}{
		{mcpserver.HTTPOptions{Addr: "0.0.0.0:8000"}, "refusing to serve on 0.0.0.0:8000 without a token"},
		{mcpserver.HTTPOptions{Addr: ":8000"}, "LIBRARIAN_TOKEN"},
		{mcpserver.HTTPOptions{Addr: "192.0.2.7:8000"}, "reachable from other machines"},
		{mcpserver.HTTPOptions{AllowedOrigins: []string{"docs.example"}}, "LIBRARIAN_ALLOWED_ORIGINS"},
		{mcpserver.HTTPOptions{AllowedOrigins: []string{"https://docs.example/path"}}, "no user, path"},
		{mcpserver.HTTPOptions{Tokens: []mcpserver.Token{{Name: "a", Value: "has space"}}}, "whitespace"},
		{mcpserver.HTTPOptions{Mounts: []mcpserver.Mount{{Prefix: "/mcp", Handler: http.NotFoundHandler()}}}, `http mount "/mcp"`},
	} {
		c.opts.NewServer = f.newServer
		_, err := mcpserver.NewHTTPServer(c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewHTTPServer(%+v) = %v, want an error containing %q", c.opts, err, c.want)
		}
	}
	for _, addr := range []string{"0.0.0.0:8000", "[::]:8000"} {
		if _, err := mcpserver.NewHTTPServer(mcpserver.HTTPOptions{Addr: addr, NewServer: f.newServer, Tokens: []mcpserver.Token{{Name: "a", Value: tokenAlice}}}); err != nil {
			t.Errorf("%s with a token: %v", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:8000", "localhost:8000", "[::1]:8000"} {
		if _, err := mcpserver.NewHTTPServer(mcpserver.HTTPOptions{Addr: addr, NewServer: f.newServer}); err != nil {
			t.Errorf("%s without a token: %v", addr, err)
		}
	}
}

// TestHTTPBusy: past the session cap a new session gets 503 with a JSON-RPC
// error saying why; past the call cap a call gets a tool error saying the
// server is busy and nothing was done.
func TestHTTPBusy(t *testing.T) {
	f := newLibraryFactory(t)
	endpoint, _ := startHTTP(t, f, mcpserver.HTTPOptions{MaxSessions: 1, MaxCalls: 1, CallWait: 50 * time.Millisecond})
	first := mustConnectHTTP(t, endpoint, "", "2025-11-25")
	resp, body := post(t, endpoint, initialize, nil)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "LIBRARIAN_HTTP_MAX_SESSIONS") || !strings.Contains(body, `"id":1`) || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a session past the cap: status %d %q (Retry-After %q)", resp.StatusCode, body, resp.Header.Get("Retry-After"))
	}

	done := make(chan string)
	go func() {
		res, err := first.CallTool(context.Background(), &mcp.CallToolParams{Name: "block"})
		if err != nil {
			done <- err.Error()
			return
		}
		done <- allText(res)
	}()
	<-f.started
	stateless := mustConnectHTTP(t, endpoint, "", "")
	got, isErr := callTool(t, stateless, "list_tags", nil)
	if !isErr || !strings.Contains(got, "server busy") || !strings.Contains(got, "LIBRARIAN_HTTP_MAX_CALLS") {
		t.Errorf("a call past the cap = %q (isError %v), want a busy tool error", got, isErr)
	}
	close(f.release)
	if got := <-done; got != "released" {
		t.Errorf("the blocked call ended with %q", got)
	}
	if got, isErr := callTool(t, stateless, "list_tags", nil); isErr {
		t.Errorf("once the slot is free, calls work again: %q", got)
	}

	first.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, _ := post(t, endpoint, initialize, nil)
		if resp.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed session never freed its slot: status %d", resp.StatusCode)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHTTPPanics: a panicking tool is a JSON-RPC error, a panicking mounted
// handler a 500, and the server goes on serving.
func TestHTTPPanics(t *testing.T) {
	f := newLibraryFactory(t)
	endpoint, logs := startHTTP(t, f, mcpserver.HTTPOptions{Mounts: []mcpserver.Mount{{Prefix: "/panic", Handler: http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("mount boom") })}}})
	cs := mustConnectHTTP(t, endpoint, "", "2025-11-25")
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "boom"}); err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Errorf("a panicking tool: %v, want an internal error", err)
	}
	resp, err := http.Get(strings.TrimSuffix(endpoint, "/mcp") + "/panic")
	if err != nil || resp.StatusCode != http.StatusInternalServerError {
		t.Errorf("a panicking handler: %v %v, want 500", resp, err)
	}
	if got, isErr := callTool(t, cs, "list_tags", nil); isErr || got == "" {
		t.Errorf("after the panics the session still works: %q", got)
	}
	if !strings.Contains(logs.String(), "mount boom") {
		t.Errorf("the panic is not logged:\n%s", logs.String())
	}
}

// engineAPIStub is a real handler of the kind the engine API mounts: it
// echoes the path it was asked for, so the test sees the prefix routing.
type engineAPIStub struct{}

func (engineAPIStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"path": r.URL.Path, "q": r.URL.Query().Get("q")})
}

// TestHTTPMountsAndHealth: a mounted handler is served on the same listener
// behind the same token; /healthz needs none and reports the library's state.
func TestHTTPMountsAndHealth(t *testing.T) {
	f := newLibraryFactory(t)
	var healthErr atomic.Value
	healthErr.Store("")
	endpoint, _ := startHTTP(t, f, mcpserver.HTTPOptions{
		Tokens: []mcpserver.Token{{Name: "alice", Value: tokenAlice}},
		Mounts: []mcpserver.Mount{{Prefix: "/api/library/", Handler: engineAPIStub{}}},
		Health: func(context.Context) error {
			if msg := healthErr.Load().(string); msg != "" {
				return fmt.Errorf("%s", msg)
			}
			return nil
		},
	})
	base := strings.TrimSuffix(endpoint, "/mcp")
	get := func(path, token string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/api/library/locate?q=auth", ""); code != 401 {
		t.Errorf("mount without a token: %d %q, want 401", code, body)
	}
	if code, body := get("/api/library/locate?q=auth", tokenAlice); code != 200 || !strings.Contains(body, `"path":"/api/library/locate"`) || !strings.Contains(body, `"q":"auth"`) {
		t.Errorf("mount with the token: %d %q", code, body)
	}
	if code, body := get("/nowhere", tokenAlice); code != 404 || !strings.Contains(body, "/mcp") {
		t.Errorf("unknown path: %d %q", code, body)
	}
	if code, _ := get("/nowhere", ""); code != 401 {
		t.Errorf("unknown path without a token: %d, want 401 (every route but /healthz needs the token)", code)
	}
	if code, body := get("/healthz", ""); code != 200 || !strings.Contains(body, `"status":"ok"`) {
		t.Errorf("healthz: %d %q", code, body)
	}
	healthErr.Store("index.json: unreadable /secret/path")
	if code, body := get("/healthz", ""); code != 503 || strings.Contains(body, "/secret/path") {
		t.Errorf("unhealthy healthz: %d %q, want 503 without the reason", code, body)
	}
}

// TestHTTPGracefulShutdown: when the context ends, a call in flight is
// answered, then Serve returns nil and the port is closed.
func TestHTTPGracefulShutdown(t *testing.T) {
	f := newLibraryFactory(t)
	hs, err := mcpserver.NewHTTPServer(mcpserver.HTTPOptions{NewServer: f.newServer, ShutdownTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error)
	go func() { served <- hs.Serve(ctx, ln) }()
	endpoint := "http://" + ln.Addr().String() + "/mcp"
	for _, protocol := range []string{"2025-11-25", ""} {
		cs := mustConnectHTTP(t, endpoint, "", protocol)
		go func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "block"})
			if err != nil {
				t.Errorf("in-flight call (protocol %q) cut by the shutdown: %v", protocol, err)
				return
			}
			if got := allText(res); got != "released" {
				t.Errorf("in-flight call (protocol %q) = %q", protocol, got)
			}
		}()
		<-f.started
	}
	cancel()
	time.Sleep(100 * time.Millisecond)
	select {
	case err := <-served:
		t.Fatalf("Serve returned %v before the calls in flight were answered", err)
	default:
	}
	close(f.release)
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve = %v, want nil after a graceful shutdown", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the calls finished")
	}
	if _, err := http.Get(endpoint); err == nil {
		t.Error("the port still answers after shutdown")
	}
}
