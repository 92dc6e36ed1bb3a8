//go:build unix

package mcpserver_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/mcpserver"
)

// dialSmallBuffer connects to the endpoint's host with a 4 KiB receive
// buffer, as a client that stops reading looks to the server: its writes
// block as soon as the kernel buffers are full.
func dialSmallBuffer(t *testing.T, endpoint string) net.Conn {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		return errors.Join(err, serr)
	}}
	conn, err := d.Dial("tcp", hostOf(t, endpoint))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// rawPOST writes a POST of body to /mcp on conn, with the session's
// headers, and does not read.
func rawPOST(t *testing.T, conn net.Conn, endpoint, session, body string) {
	t.Helper()
	_, err := fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"Mcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-11-25\r\nContent-Length: %d\r\n\r\n%s", hostOf(t, endpoint), session, len(body), body)
	if err != nil {
		t.Fatal(err)
	}
}

// TestHTTPCutsAClientThatStopsReading: a client that POSTs a call with a
// 16 MB answer and never reads is cut off once a write has waited
// WriteTimeout, so its answer's memory is freed; it then reads less than
// the answer, and the connection's end. (Before, the server waited on the
// write for as long as the client kept the connection.)
func TestHTTPCutsAClientThatStopsReading(t *testing.T) {
	f := newLibraryFactory(t)
	endpoint, logs := startHTTP(t, f, mcpserver.HTTPOptions{WriteTimeout: 300 * time.Millisecond, MaxCalls: 1, CallWait: 100 * time.Millisecond})
	session := openRawSession(t, endpoint, "")
	conn := dialSmallBuffer(t, endpoint)
	rawPOST(t, conn, endpoint, session, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"big","arguments":{}}}`)

	// The call keeps its slot while its answer is written, then gives it
	// back when the write is cut off: a call of another client gets it.
	cs := mustConnectHTTP(t, endpoint, "", "2025-11-25")
	// Writing the 16 MB answer until the write is cut takes seconds under
	// -race on two busy cores: the loop ends as soon as the slot is back.
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, isErr := callTool(t, cs, "list_tags", nil)
		if !isErr {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the slot of the call whose answer nobody reads was never given back: %q", got)
		}
	}
	time.Sleep(300 * time.Millisecond)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, err := io.Copy(io.Discard, conn)
	if n >= bigAnswerBytes || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the client that stopped reading then read %d bytes and %v; want less than the %d-byte answer, then the connection's end", n, err, bigAnswerBytes)
	}
	if !strings.Contains(logs.String(), "path=/mcp") {
		t.Errorf("no access line for the cut request:\n%s", logs.String())
	}
}

// TestHTTPEventStreamLivesButEachWriteIsBounded: the session's event
// stream (GET /mcp) outlives WriteTimeout while nothing is sent; when its
// client stops reading, the write that cannot go through is cut after
// WriteTimeout, so the sender goes on and the stream's connection is
// closed. (Before, the flood call never returned.)
func TestHTTPEventStreamLivesButEachWriteIsBounded(t *testing.T) {
	f := newLibraryFactory(t)
	endpoint, _ := startHTTP(t, f, mcpserver.HTTPOptions{WriteTimeout: 300 * time.Millisecond})

	idle := mustConnectHTTP(t, endpoint, "", "2025-11-25") // its event stream stays open, idle
	time.Sleep(time.Second)
	if got, isErr := callTool(t, idle, "list_tags", nil); isErr {
		t.Errorf("a session idle for longer than the write timeout: %q", got)
	}

	session := openRawSession(t, endpoint, "")
	headers := map[string]string{"Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-11-25"}
	if resp, body := post(t, endpoint, `{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}}`, headers); resp.StatusCode != http.StatusOK {
		t.Fatalf("setLevel: %d %q", resp.StatusCode, body)
	}
	stream := dialSmallBuffer(t, endpoint)
	fmt.Fprintf(stream, "GET /mcp HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-11-25\r\n\r\n", hostOf(t, endpoint), session)
	time.Sleep(200 * time.Millisecond) // the stream is registered

	done := make(chan string, 1)
	go func() {
		_, body := post(t, endpoint, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"flood","arguments":{}}}`, headers)
		done <- body
	}()
	select {
	case body := <-done:
		if !strings.Contains(body, "failed") {
			t.Errorf("flood answered %q", body)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("a write to an event stream nobody reads was never cut: the sender is stuck")
	}
	stream.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, err := io.Copy(io.Discard, stream)
	if n >= floodMessages<<20 || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the stream nobody read then gave %d bytes and %v; want less than was sent, then its end", n, err)
	}
}

// TestHTTPCutsATricklingBody: a POST whose body arrives a byte at a time
// is answered 408 once BodyTimeout has passed since its headers, and its
// connection closed. (Before, it was read for as long as it trickled.)
func TestHTTPCutsATricklingBody(t *testing.T) {
	f := newLibraryFactory(t)
	endpoint, _ := startHTTP(t, f, mcpserver.HTTPOptions{BodyTimeout: 300 * time.Millisecond, Tokens: []mcpserver.Token{{Name: "alice", Value: tokenAlice}}})
	conn, err := net.Dial("tcp", hostOf(t, endpoint))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n", hostOf(t, endpoint), tokenAlice)
	go func() {
		for range 1000 {
			if _, err := conn.Write([]byte(" ")); err != nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	start := time.Now()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer to a trickling body after %s: %v", time.Since(start).Round(time.Millisecond), err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), "LIBRARIAN_HTTP_BODY_TIMEOUT") || time.Since(start) > 3*time.Second {
		t.Errorf("a trickling body: %d %q after %s; want 408 naming LIBRARIAN_HTTP_BODY_TIMEOUT soon after 300ms", resp.StatusCode, body, time.Since(start))
	}
	if _, err := br.ReadByte(); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the connection of a trickling body stays open: %v", err)
	}
}

// serveOn runs hs on a loopback listener of its own (Serve, where the
// connection cap lives) and returns its address; it stops when the test
// ends.
func serveOn(t *testing.T, hs *mcpserver.HTTPServer) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// TestHTTPCapsConnections: past MaxConnections a new connection waits to
// be accepted until one closes, then is served.
func TestHTTPCapsConnections(t *testing.T) {
	f := newLibraryFactory(t)
	hs, err := mcpserver.NewHTTPServer(mcpserver.HTTPOptions{NewServer: f.newServer, MaxConnections: 2, ShutdownTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	addr := serveOn(t, hs)
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		held = append(held, c)
	}
	third, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	fmt.Fprintf(third, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	br := bufio.NewReader(third)
	third.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	if resp, err := http.ReadResponse(br, nil); err == nil {
		t.Fatalf("a third connection past MaxConnections=2 was served at once: %s", resp.Status)
	}
	held[0].Close()
	third.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("once a connection closed, the waiting one was not served: %v %v", resp, err)
	}
	resp.Body.Close()
}

// blockingMount is a mounted handler (as the engine API is) whose requests
// wait for release, counting those that arrived.
type blockingMount struct {
	hits    atomic.Int64
	started chan struct{}
	release chan struct{}
}

func (b *blockingMount) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.hits.Add(1)
	if r.URL.Query().Get("block") != "" {
		b.started <- struct{}{}
		select {
		case <-b.release:
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"ok":true}`)
}

func getWith(t *testing.T, url string, headers map[string]string, timeout time.Duration) (*http.Response, string, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := (&http.Client{Timeout: timeout}).Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b), nil
}

// TestHTTPEngineAPIIsBehindTheCallCap: with MaxCalls=1, an engine API
// request beyond the cap waits, then gets 503 with Retry-After, and a tool
// call meanwhile gets the busy answer: the API and the tools share the
// cap. (Before, every engine API request ran.)
func TestHTTPEngineAPIIsBehindTheCallCap(t *testing.T) {
	f := newLibraryFactory(t)
	mount := &blockingMount{started: make(chan struct{}, 4), release: make(chan struct{})}
	endpoint, _ := startHTTP(t, f, mcpserver.HTTPOptions{MaxCalls: 1, CallWait: 100 * time.Millisecond, Mounts: []mcpserver.Mount{{Prefix: "/api/library/", Handler: mount}}})
	api := strings.TrimSuffix(endpoint, "/mcp") + "/api/library/status"
	first := make(chan error, 1)
	go func() {
		resp, _, err := getWith(t, api+"?block=1", nil, 10*time.Second)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("status %d", resp.StatusCode)
		}
		first <- err
	}()
	<-mount.started
	resp, body, err := getWith(t, api, nil, 3*time.Second)
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "LIBRARIAN_HTTP_MAX_CALLS") {
		t.Errorf("an engine API request past the call cap: %v %q (err %v); want 503 with Retry-After naming LIBRARIAN_HTTP_MAX_CALLS", resp, body, err)
	}
	cs := mustConnectHTTP(t, endpoint, "", "")
	if got, isErr := callTool(t, cs, "list_tags", nil); !isErr || !strings.Contains(got, "server busy") {
		t.Errorf("a tool call while the engine API holds the one slot = %q (isError %v), want busy", got, isErr)
	}
	close(mount.release)
	if err := <-first; err != nil {
		t.Errorf("the request that held the slot: %v", err)
	}
	if resp, body, err := getWith(t, api, nil, 3*time.Second); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("once the slot is free: %v %q %v", resp, body, err)
	}
}

// TestHTTPRefusesCrossSiteRequests: on a server without tokens, a browser
// request from another site reaches no route, GETs included: a GET that
// would write a session's log answers 403 and never reaches the engine
// API. (Before, Sec-Fetch-Site: cross-site passed a GET through.)
func TestHTTPRefusesCrossSiteRequests(t *testing.T) {
	f := newLibraryFactory(t)
	mount := &blockingMount{}
	endpoint, _ := startHTTP(t, f, mcpserver.HTTPOptions{Mounts: []mcpserver.Mount{{Prefix: "/api/library/", Handler: mount}}})
	locate := strings.TrimSuffix(endpoint, "/mcp") + "/api/library/locate?q=x&session=victim"
	for _, c := range []struct {
		headers map[string]string
		status  int
	}{
		{map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{map[string]string{"Sec-Fetch-Site": "same-site"}, 403},
		{map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}, 403},
		{map[string]string{"Origin": "https://evil.example"}, 403},
		{map[string]string{"Origin": "null", "Sec-Fetch-Site": "cross-site"}, 403},
		{map[string]string{"Sec-Fetch-Site": "same-origin"}, 200},
		{map[string]string{"Sec-Fetch-Site": "none"}, 200},
		{nil, 200},
	} {
		resp, body, err := getWith(t, locate, c.headers, 5*time.Second)
		if err != nil || resp.StatusCode != c.status {
			t.Errorf("GET with %v: %v %q %v, want %d", c.headers, resp, body, err, c.status)
		}
	}
	if got := mount.hits.Load(); got != 3 {
		t.Errorf("the engine API saw %d requests, want only the 3 that were not cross-site", got)
	}
	if resp, _, err := getWith(t, endpoint, map[string]string{"Sec-Fetch-Site": "cross-site", "Accept": "text/event-stream"}, 5*time.Second); err != nil || resp.StatusCode != 403 {
		t.Errorf("a cross-site GET /mcp: %v %v, want 403", resp, err)
	}
}

// TestHTTPFairSharesPerToken: with two tokens, one may hold half the call
// slots and half the sessions; past its share it is refused, saying which
// limit and when to retry, while the other token is served. (Before, one
// token could take every slot and every session.)
func TestHTTPFairSharesPerToken(t *testing.T) {
	f := newLibraryFactory(t)
	endpoint, _ := startHTTP(t, f, mcpserver.HTTPOptions{
		Tokens:      []mcpserver.Token{{Name: "alice", Value: tokenAlice}, {Name: "bob", Value: tokenBob}},
		MaxCalls:    4,
		MaxSessions: 4,
		CallWait:    100 * time.Millisecond,
	})
	t.Run("calls", func(t *testing.T) {
		alice := mustConnectHTTP(t, endpoint, tokenAlice, "")
		ended := make(chan struct{}, 2)
		for range 2 {
			go func() {
				alice.CallTool(context.Background(), &mcp.CallToolParams{Name: "block"})
				ended <- struct{}{}
			}()
		}
		<-f.started
		<-f.started
		got, isErr := callTool(t, alice, "list_tags", nil)
		if !isErr || !strings.Contains(got, `token "alice" already runs 2 calls`) || !strings.Contains(got, "LIBRARIAN_HTTP_MAX_CALLS_PER_TOKEN") || !strings.Contains(got, "send it again in 1 s") {
			t.Errorf("alice's third call with 2 of 4 slots taken = %q (isError %v), want busy naming the per-token cap and when to retry", got, isErr)
		}
		bob := mustConnectHTTP(t, endpoint, tokenBob, "")
		if got, isErr := callTool(t, bob, "list_tags", nil); isErr {
			t.Errorf("bob's call while alice holds her share = %q", got)
		}
		close(f.release)
		<-ended
		<-ended
	})
	t.Run("sessions", func(t *testing.T) {
		for range 2 {
			mustConnectHTTP(t, endpoint, tokenAlice, "2025-11-25")
		}
		resp, body := post(t, endpoint, initialize, map[string]string{"Authorization": "Bearer " + tokenAlice})
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "LIBRARIAN_HTTP_MAX_SESSIONS_PER_TOKEN") || !strings.Contains(body, `token \"alice\" holds 2 MCP sessions`) {
			t.Errorf("alice's third session of 4: %d %q (Retry-After %q), want 503 naming the per-token cap", resp.StatusCode, body, resp.Header.Get("Retry-After"))
		}
		if _, err := connectHTTP(t, endpoint, tokenBob, "2025-11-25"); err != nil {
			t.Errorf("bob's session while alice holds her share: %v", err)
		}
	})
}
