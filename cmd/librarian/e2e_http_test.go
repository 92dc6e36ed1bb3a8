package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/ports/retrieval/retrievaltest"
)

const httpToken = "e2e-token-5f0c1d2e3a4b"

// libraryCalls are the four library tools with arguments and a line each
// answer must hold; every real client below makes all four calls.
var libraryCalls = []struct {
	tool string
	args map[string]any
	want string
}{
	{"list_documents", map[string]any{"root": "backend/storage", "line_bounds": true}, `§ invalidation/fan-out-deletes "Fan-out deletes" L21–34`},
	{"get_documents", map[string]any{"select": []any{map[string]any{"doc": "caching", "sections": []any{"ttl-rules"}}}}, "=== caching (backend/storage/caching.md) · section ttl-rules · L35–38 ==="},
	{"search_documents", map[string]any{"query": "fan-out"}, "caching (backend/storage/caching.md)"},
	{"list_tags", map[string]any{}, "- backend ("},
}

// lockedBuffer collects the server's stderr while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// httpServer is the built binary serving `serve --http` on a free port.
type httpServer struct {
	base   string // http://127.0.0.1:PORT
	cmd    *exec.Cmd
	stderr *lockedBuffer
	exited chan error
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startHTTPBinary runs the binary with `serve --http` on a free loopback
// port and env added, waits for /healthz, and stops it (SIGTERM, exit 0
// checked) when the test ends.
func startHTTPBinary(t *testing.T, env ...string) *httpServer {
	t.Helper()
	addr := freePort(t)
	s := &httpServer{base: "http://" + addr, stderr: &lockedBuffer{}, exited: make(chan error, 1)}
	s.cmd = exec.Command(binary, "serve", "--http", addr)
	s.cmd.Env = append(os.Environ(), env...)
	s.cmd.Stderr = s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.exited <- s.cmd.Wait() }()
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get(s.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case err := <-s.exited:
			t.Fatalf("the server exited before serving: %v\n%s", err, s.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server never became healthy:\n%s", s.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.stop(t)
		}
		t.Logf("server stderr:\n%s", s.stderr.String())
	})
	return s
}

// stop sends SIGTERM and wants a clean exit (0) within 12 s.
func (s *httpServer) stop(t *testing.T) {
	t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.exited:
		if err != nil {
			t.Errorf("after SIGTERM the server exited with %v, want 0", err)
		}
	case <-time.After(12 * time.Second):
		s.cmd.Process.Kill()
		t.Error("the server did not exit within 12 s of SIGTERM")
	}
}

type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func connectHTTPClient(t *testing.T, endpoint, token, protocol string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-http", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: endpoint, HTTPClient: &http.Client{Transport: bearerTransport{token}},
	}, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		t.Fatalf("connect over HTTP (protocol %q): %v", protocol, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// TestHTTPBinaryGoClient drives the built binary over streamable HTTP with
// the go-sdk client in both protocol generations: the same tools as on
// stdio with the same settings, every library tool answering, the token
// required and never logged.
func TestHTTPBinaryGoClient(t *testing.T) {
	env := []string{"LIBRARY_ROOT=" + filepath.Join(repoRoot(t), "library"), "LIBRARIAN_TOOLS=library,librarian-ts", "LIBRARIAN_TOKEN=" + httpToken}
	srv := startHTTPBinary(t, env...)
	stdioTools := toolNames(t, connect(t, "", env...))
	for _, protocol := range []string{"", "2025-11-25"} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			cs := connectHTTPClient(t, srv.base+"/mcp", httpToken, protocol)
			if got := toolNames(t, cs); !slices.Equal(got, stdioTools) {
				t.Errorf("tools over HTTP %v, over stdio %v", got, stdioTools)
			}
			for _, c := range libraryCalls {
				got, isErr := callText(t, cs, c.tool, c.args)
				if isErr || !strings.Contains(got, c.want) {
					t.Errorf("%s = %q (isError %v), want %q in it", c.tool, got, isErr, c.want)
				}
			}
		})
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-http", Version: "1"}, nil)
	if _, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.base + "/mcp"}, nil); err == nil {
		t.Error("a client without the token connected")
	}
	srv.stop(t)
	log := srv.stderr.String()
	if strings.Contains(log, httpToken) || strings.Contains(log, "session_id") {
		t.Errorf("the server logged its token or a session id:\n%s", log)
	}
	for _, want := range []string{"msg=http method=POST path=/mcp status=200", "status=401", "token=LIBRARIAN_TOKEN", "shut down"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
}

// TestHTTPBinaryEngineSessions: over HTTP each MCP session has its own
// engine session id and discuss thread; stdio keeps CLAUDE_CODE_SESSION_ID.
func TestHTTPBinaryEngineSessions(t *testing.T) {
	fake := retrievaltest.NewFakeEngine(t)
	defer fake.Close()
	srv := startHTTPBinary(t, "LIBRARY_ROOT="+filepath.Join(repoRoot(t), "library"), "LIBRARIAN_URL="+fake.URL(), "CLAUDE_CODE_SESSION_ID=one-for-all")
	a := connectHTTPClient(t, srv.base+"/mcp", "", "2025-11-25")
	b := connectHTTPClient(t, srv.base+"/mcp", "", "2025-11-25")
	for _, cs := range []*mcp.ClientSession{a, b, a} {
		if got, isErr := callText(t, cs, "librarian_discuss", map[string]any{"message": "how are sessions stored?"}); isErr {
			t.Fatalf("librarian_discuss: %s", got)
		}
	}
	asks := fake.RequestsTo("POST", "/api/library/ask")
	if len(asks) != 3 {
		t.Fatalf("engine saw %d asks, want 3", len(asks))
	}
	var bodies []struct {
		Session string            `json:"session"`
		History []json.RawMessage `json:"history"`
	}
	for _, r := range asks {
		var v struct {
			Session string            `json:"session"`
			History []json.RawMessage `json:"history"`
		}
		if err := json.Unmarshal(r.Body, &v); err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, v)
	}
	if bodies[0].Session == bodies[1].Session || bodies[0].Session != bodies[2].Session || bodies[0].Session == "one-for-all" {
		t.Errorf("sessions sent: %q, %q, %q; want one per MCP session, not the process's", bodies[0].Session, bodies[1].Session, bodies[2].Session)
	}
	if len(bodies[1].History) != 0 || len(bodies[2].History) != 2 {
		t.Errorf("history lengths %d, %d, want 0 for the second session's first turn and 2 for the first session's second", len(bodies[1].History), len(bodies[2].History))
	}
}

// TestHTTPBinaryRefusesToStart: a non-loopback address without a token is
// a start-up error saying why, exit 2.
func TestHTTPBinaryRefusesToStart(t *testing.T) {
	cmd := exec.Command(binary, "serve", "--http", "0.0.0.0:0")
	cmd.Env = append(os.Environ(), "LIBRARY_ROOT="+filepath.Join(repoRoot(t), "library"), "LIBRARIAN_TOKEN=", "LIBRARIAN_TOKEN_FILE=")
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.HasPrefix(string(out), "librarian: refusing to serve on 0.0.0.0:0 without a token") || strings.Count(string(out), "\n") != 1 {
		t.Errorf("exit %d (%v), output %s; want exit 2 and one line saying why", code, err, out)
	}
	cmd = exec.Command(binary, "serve", "--http")
	cmd.Env = append(os.Environ(), "LIBRARY_ROOT="+filepath.Join(repoRoot(t), "library"), "LIBRARIAN_TOKEN_FILE=/nonexistent/tokens")
	out, err = cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out), "LIBRARIAN_TOKEN_FILE: open /nonexistent/tokens") {
		t.Errorf("missing token file: exit %d (%v), output %s", code, err, out)
	}

	// A blank token is refused at start, with one line naming the setting:
	// taken for unset, it would serve loopback without auth.
	tokens := filepath.Join(t.TempDir(), "tokens")
	os.WriteFile(tokens, []byte("alice alice-token-0123456789\n \t \n"), 0o600)
	for _, c := range []struct{ env, want string }{
		{"LIBRARIAN_TOKEN= ", "librarian: LIBRARIAN_TOKEN: the token is blank"},
		{"LIBRARIAN_TOKEN_FILE=" + tokens, "librarian: LIBRARIAN_TOKEN_FILE: token file " + tokens + " line 2 is blank"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, binary, "serve", "--http", "127.0.0.1:0")
		cmd.Env = append(os.Environ(), "LIBRARY_ROOT="+filepath.Join(repoRoot(t), "library"), "LIBRARIAN_TOKEN=", "LIBRARIAN_TOKEN_FILE=", c.env)
		out, err := cmd.CombinedOutput()
		cancel()
		if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.HasPrefix(string(out), c.want) || strings.Count(string(out), "\n") != 1 {
			t.Errorf("%q: exit %d (%v), output %q; want exit 2 and one line starting %q", c.env, code, err, out, c.want)
		}
	}
}

// TestHTTPTypeScriptSDK drives the binary with the official TypeScript
// SDK's StreamableHTTPClientTransport (installed by .ci/run;
// LIBRARIAN_MCP_SDK names its npm prefix).
func TestHTTPTypeScriptSDK(t *testing.T) {
	sdk := os.Getenv("LIBRARIAN_MCP_SDK")
	if _, err := os.Stat(filepath.Join(sdk, "node_modules", "@modelcontextprotocol", "sdk")); sdk == "" || err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must provide the TypeScript MCP SDK (LIBRARIAN_MCP_SDK=%q)", sdk)
		}
		t.Skip("TypeScript MCP SDK not installed: set LIBRARIAN_MCP_SDK to an npm prefix holding @modelcontextprotocol/sdk@1.32.2 (.ci/run installs it)")
	}
	srv := startHTTPBinary(t, "LIBRARY_ROOT="+filepath.Join(repoRoot(t), "library"), "LIBRARIAN_TOKEN="+httpToken)
	var calls [][]any
	for _, c := range libraryCalls {
		calls = append(calls, []any{c.tool, c.args})
	}
	callsJSON, _ := json.Marshal(calls)
	script := filepath.Join(repoRoot(t), "cmd", "librarian", "testdata", "ts-http-client.mjs")
	out, err := exec.Command("node", script, sdk, srv.base+"/mcp", httpToken, string(callsJSON)).Output()
	if err != nil {
		t.Fatalf("TypeScript client: %v\n%s", err, stderrOf(err))
	}
	var res struct {
		Protocol string
		Session  bool
		Tools    []string
		Calls    map[string]struct {
			IsError bool
			Text    string
		}
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("TypeScript client output: %v\n%s", err, out)
	}
	if res.Protocol != "2025-11-25" || !res.Session {
		t.Errorf("TypeScript client negotiated %q, session %v; want 2025-11-25 with a session", res.Protocol, res.Session)
	}
	for _, c := range libraryCalls {
		got := res.Calls[c.tool]
		if got.IsError || !strings.Contains(got.Text, c.want) {
			t.Errorf("%s from TypeScript = %+v, want %q in it", c.tool, got, c.want)
		}
	}
	out, err = exec.Command("node", script, sdk, srv.base+"/mcp", "wrong-token", "[]").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "not one this server accepts") {
		t.Errorf("TypeScript client with a wrong token: %v\n%s", err, out)
	}
}

// TestHTTPInspectorCLI drives the binary with the MCP Inspector's CLI in
// HTTP mode (--transport http, the token as a header): every library tool.
func TestHTTPInspectorCLI(t *testing.T) {
	inspector := os.Getenv("LIBRARIAN_INSPECTOR")
	if _, err := os.Stat(inspector); inspector == "" || err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must provide the MCP Inspector (LIBRARIAN_INSPECTOR=%q)", inspector)
		}
		t.Skip("MCP Inspector not installed; .ci/run installs it (npm @modelcontextprotocol/inspector@2.12.0)")
	}
	srv := startHTTPBinary(t, "LIBRARY_ROOT="+filepath.Join(repoRoot(t), "library"), "LIBRARIAN_TOKEN="+httpToken)
	home := t.TempDir() // the Inspector writes its catalog under $HOME
	for _, c := range libraryCalls {
		args := []string{"--cli", srv.base + "/mcp", "--transport", "http", "--header", "Authorization: Bearer " + httpToken,
			"--method", "tools/call", "--tool-name", c.tool}
		for k, v := range c.args {
			raw, _ := json.Marshal(v)
			if s, ok := v.(string); ok {
				raw = []byte(s)
			}
			args = append(args, "--tool-arg", fmt.Sprintf("%s=%s", k, raw))
		}
		cmd := exec.Command(inspector, args...)
		cmd.Env = append(os.Environ(), "HOME="+home)
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("inspector %s: %v\n%s\n%s", c.tool, err, out, stderrOf(err))
			continue
		}
		var res struct {
			Content []struct{ Type, Text string }
			IsError bool
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Errorf("inspector %s output is not a tool result: %v\n%s", c.tool, err, out)
			continue
		}
		if res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, c.want) {
			t.Errorf("inspector %s = %+v, want %q in it", c.tool, res, c.want)
		}
	}
	cmd := exec.Command(inspector, "--cli", srv.base+"/mcp", "--transport", "http", "--method", "tools/list")
	cmd.Env = append(os.Environ(), "HOME="+home)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Errorf("the Inspector without the token listed tools:\n%s", out)
	}
	// docs/http.md says why it shows an OAuth error, not the 401's text:
	// the 401's WWW-Authenticate: Bearer sends it into its OAuth flow.
	if !strings.Contains(string(out), "OAuth") {
		t.Errorf("the Inspector without the token: want its OAuth error, as docs/http.md says, got:\n%s", out)
	}
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}

// TestHTTPBinaryEngineAPI: seed 004's engine API (over the local engine
// here) is served on the same listener as /mcp, behind the same token.
func TestHTTPBinaryEngineAPI(t *testing.T) {
	srv := startHTTPBinary(t, "LIBRARY_ROOT="+filepath.Join(repoRoot(t), "library"), "LIBRARIAN_TOKEN="+httpToken, "LIBRARIAN_URL=")
	get := func(path, token string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, srv.base+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		return resp.StatusCode, b.String()
	}
	if code, body := get("/api/library/status", ""); code != http.StatusUnauthorized {
		t.Errorf("engine API without the token: %d %s", code, body)
	}
	if code, body := get("/api/library/locate?q=caching", httpToken); code != http.StatusOK || !strings.Contains(body, `"hits"`) || !strings.Contains(body, "caching") {
		t.Errorf("engine API locate: %d %s", code, body)
	}
	if code, body := get("/api/library/status", httpToken); code != http.StatusOK || !json.Valid([]byte(body)) {
		t.Errorf("engine API status: %d %s", code, body)
	}
}

// TestHTTPTypeScriptSDKResources: the official TypeScript SDK over
// streamable HTTP lists the docs as resources, reads one, subscribes to it
// and hears notifications/resources/updated when its file changes.
func TestHTTPTypeScriptSDKResources(t *testing.T) {
	sdk := os.Getenv("LIBRARIAN_MCP_SDK")
	if _, err := os.Stat(filepath.Join(sdk, "node_modules", "@modelcontextprotocol", "sdk")); sdk == "" || err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must provide the TypeScript MCP SDK (LIBRARIAN_MCP_SDK=%q)", sdk)
		}
		t.Skip("TypeScript MCP SDK not installed: set LIBRARIAN_MCP_SDK to an npm prefix holding @modelcontextprotocol/sdk@1.32.2 (.ci/run installs it)")
	}
	lib := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for name, text := range map[string]string{
		"index.json": `{"documents": [{"id": "a", "path": "a.md", "title": "A", "summary": "The doc."}]}`,
		"a.md":       "# A\n\nfirst words\n",
	} {
		p := filepath.Join(lib, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	srv := startHTTPBinary(t, "LIBRARY_ROOT="+lib, "LIBRARIAN_TOKEN="+httpToken)
	script := filepath.Join(repoRoot(t), "cmd", "librarian", "testdata", "ts-http-resources.mjs")
	cmd := exec.Command("node", script, sdk, srv.base+"/mcp", httpToken, "librarian://doc/a")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || lines.Text() != "subscribed" {
		cmd.Wait()
		t.Fatalf("the TypeScript client did not subscribe: %q\n%s", lines.Text(), stderr.String())
	}
	later := old.Add(time.Minute)
	p := filepath.Join(lib, "a.md")
	if err := os.WriteFile(p, []byte("# A\n\nsecond, longer words\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, later, later)
	var out string
	if lines.Scan() {
		out = lines.Text()
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("TypeScript client: %v\n%s", err, stderr.String())
	}
	var res struct {
		Listed  []string
		Read    string
		Updated string
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("TypeScript client output: %v\n%s", err, out)
	}
	if len(res.Listed) != 1 || res.Listed[0] != "librarian://doc/a" || !strings.Contains(res.Read, "first words") {
		t.Errorf("listed %v, read %q", res.Listed, res.Read)
	}
	if res.Updated != "librarian://doc/a" {
		t.Errorf("no resources/updated for the changed doc (heard %q)", res.Updated)
	}
}
