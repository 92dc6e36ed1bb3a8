package main

import (
	"context"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// proxy forwards TCP connections from a local port to the test database,
// so a test can make the database "down" (not listening yet) or cut every
// connection at once.
type proxy struct {
	addr   string // where it listens (or will)
	target string
	mu     sync.Mutex
	ln     net.Listener
	conns  []net.Conn
}

// newProxy reserves a port; Start begins listening on it.
func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p := &proxy{addr: addr, target: target}
	t.Cleanup(p.Stop)
	return p
}

func (p *proxy) Start(t *testing.T) {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Errorf("proxy: %v", err)
		return
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }()
			go func() { io.Copy(c, up); c.Close() }()
		}
	}()
}

// Cut closes every forwarded connection: the database is lost mid-session.
func (p *proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *proxy) Stop() {
	p.mu.Lock()
	if p.ln != nil {
		p.ln.Close()
	}
	p.mu.Unlock()
	p.Cut()
}

// through rewrites dsn to go through the proxy.
func (p *proxy) through(t *testing.T, dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = p.addr
	return u.String()
}

func password(t *testing.T, dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	pw, _ := u.User.Password()
	if pw == "" {
		t.Fatal("the test DSN has no password")
	}
	return pw
}

// TestPostgresFaults: the database down when serve starts (it retries with
// backoff, then serves), lost mid-session (the call fails clearly, the
// server lives and reconnects), down for a command (a clear error at
// once), a newer schema (refused, saying so); the password never appears
// in any output.
func TestPostgresFaults(t *testing.T) {
	owner, _ := postgresDSN(t, "t_e2e_faults")
	lib := filepath.Join(repoRoot(t), "library")
	indexInto(t, owner, "LIBRARY_ROOT="+lib)
	u, _ := url.Parse(owner)
	p := newProxy(t, u.Host)
	dsn := p.through(t, owner)
	pw := password(t, owner)

	// Down at start: the proxy listens only after 1.5 s.
	var stderr lockedBuffer
	cmd := exec.Command(binary)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "LIBRARY_ROOT=", "LIBRARIAN_DOCS_ROOT=", "LIBRARY_INDEX="+dsn, "LIBRARIAN_LOG=debug")
	cmd.Stderr = &stderr
	time.AfterFunc(1500*time.Millisecond, func() { p.Start(t) })
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-faults", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect while the database comes up: %v\nstderr: %s", err, stderr.String())
	}
	defer cs.Close()
	if got, isErr := callText(t, cs, "list_documents", map[string]any{"root": "backend/storage"}); isErr || !strings.Contains(got, "caching [caching.md]") {
		t.Fatalf("after the database came up: %s", got)
	}
	if !strings.Contains(stderr.String(), "postgres index unreachable; retrying") {
		t.Errorf("serve did not say it was retrying:\n%s", stderr.String())
	}

	// Lost mid-session: every connection is cut. A call may fail (clearly,
	// as a tool error); the server lives, and the calls after it work.
	p.Cut()
	var failures []string
	for i := 0; i < 4; i++ {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_documents", Arguments: map[string]any{"select": []any{"auth"}}})
		if err != nil {
			t.Fatalf("call %d after the cut: the session broke: %v\nstderr: %s", i, err, stderr.String())
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if !res.IsError {
			if !strings.Contains(text, "=== auth (backend/auth.md)") {
				t.Fatalf("call %d after the cut answered %q", i, text)
			}
			break
		}
		failures = append(failures, text)
		if i == 3 {
			t.Fatalf("the server does not recover from a lost connection: %q", failures)
		}
	}
	t.Logf("after the cut: %d failed call(s) %q, then answers again", len(failures), failures)
	for _, f := range failures {
		if !strings.Contains(f, "get_documents failed: ") || !strings.Contains(f, "the server's log has the detail") {
			t.Errorf("a call lost with its connection fails without saying why: %q", f)
		}
		// Issue 20: no database user, name, host or port in an answer.
		if host := u.Hostname(); strings.Contains(f, "user=") || strings.Contains(f, host) || strings.Contains(f, u.Port()) {
			t.Errorf("a failed call shows the database's connection details: %q", f)
		}
	}

	// Down for a command: a clear error at once, no retry.
	p.Stop()
	start := time.Now()
	code, out, errOut := runCLI(t, map[string]string{"LIBRARY_INDEX": dsn}, "ls")
	if code != 2 || !strings.Contains(errOut, "cannot reach the database") || time.Since(start) > 20*time.Second {
		t.Errorf("ls with the database down: exit %d after %s, stderr %q, stdout %q", code, time.Since(start), errOut, out)
	}

	// A newer schema is refused, with the versions.
	conn, err := pgx.Connect(context.Background(), owner)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(context.Background(), `UPDATE t_e2e_faults.schema_versions SET version = 99 WHERE component = 'sectionindex'`); err != nil {
		t.Fatal(err)
	}
	conn.Close(context.Background())
	code, _, errNewer := runCLI(t, map[string]string{"LIBRARY_INDEX": owner}, "ls")
	if code != 2 || !strings.Contains(errNewer, "schema version 99") || !strings.Contains(errNewer, "upgrade librarian") {
		t.Errorf("ls on a newer schema: exit %d, stderr %q", code, errNewer)
	}

	for what, text := range map[string]string{"serve's stderr": stderr.String(), "ls down": errOut, "ls newer": errNewer} {
		if strings.Contains(text, pw) {
			t.Errorf("%s shows the password:\n%s", what, text)
		}
	}
}
