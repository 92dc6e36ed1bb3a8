package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// statelessProtocol is the first MCP version without sessions (SEP-2575):
// the go-sdk accepts it over HTTP only from a stateless handler.
const statelessProtocol = "2026-07-28"

// mcpRoutes serves /mcp with two go-sdk handlers over the same tools:
//   - requests announcing protocol 2026-07-28 or later (the
//     Mcp-Protocol-Version header) go to a stateless handler; their
//     per-caller state (discuss threads, guidance, session log) is that of
//     their bearer token, one server per token;
//   - everything else (2025-11-25 and older: the Inspector, the TypeScript
//     SDK, Claude Code) goes to a stateful handler: each MCP session gets a
//     server of its own, so its engine state is its own, and the go-sdk binds
//     the session to the token that opened it.
//
// Both share the one library the factory closes over. Sessions are capped
// (maxSessions), and so are tool calls across all sessions (calls).
type mcpRoutes struct {
	newServer   func() *mcp.Server
	calls       *callLimiter
	maxSessions int
	logger      *slog.Logger

	stateful  *mcp.StreamableHTTPHandler
	stateless *mcp.StreamableHTTPHandler
	probe     *mcp.Server // answers the stateful handler's version lookups for requests of existing sessions

	inflight inflight // POSTs being answered, for graceful shutdown

	mu       sync.Mutex
	sessions map[*mcp.Server]bool   // servers of stateful sessions open or opening
	byToken  map[string]*mcp.Server // stateless servers, by token name ("" = no token required)
}

type sessionServerKey struct{}

func newMCPRoutes(opts HTTPOptions, calls *callLimiter) *mcpRoutes {
	m := &mcpRoutes{
		newServer:   opts.NewServer,
		calls:       calls,
		maxSessions: opts.MaxSessions,
		logger:      opts.Logger,
		sessions:    map[*mcp.Server]bool{},
		byToken:     map[string]*mcp.Server{},
	}
	m.probe = m.build()
	m.stateful = mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		if srv, ok := r.Context().Value(sessionServerKey{}).(*mcp.Server); ok {
			return srv
		}
		return m.probe
	}, &mcp.StreamableHTTPOptions{
		Logger:              WarnAndAbove(opts.Logger),
		SessionTimeout:      opts.SessionIdleTimeout,
		MaxRequestBodyBytes: opts.MaxBodyBytes,
	})
	m.stateless = mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		return m.tokenServer(callerName(r))
	}, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		Logger:              WarnAndAbove(opts.Logger),
		MaxRequestBodyBytes: opts.MaxBodyBytes,
	})
	return m
}

// build makes a server with fresh per-session state, behind the call cap.
func (m *mcpRoutes) build() *mcp.Server {
	srv := m.newServer()
	srv.AddReceivingMiddleware(m.calls.middleware)
	return srv
}

func (m *mcpRoutes) tokenServer(name string) *mcp.Server {
	m.mu.Lock()
	defer m.mu.Unlock()
	srv := m.byToken[name]
	if srv == nil {
		srv = m.build()
		m.byToken[name] = srv
	}
	return srv
}

func (m *mcpRoutes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		m.inflight.add()
		defer m.inflight.done()
	}
	switch {
	case r.Header.Get("Mcp-Protocol-Version") >= statelessProtocol:
		m.stateless.ServeHTTP(w, r)
	case r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "":
		m.openSession(w, r)
	default:
		m.stateful.ServeHTTP(w, r)
	}
}

// openSession serves a POST that opens a stateful session (its initialize)
// with a server of its own, once a session slot is free; past the cap it
// answers 503 with a JSON-RPC error saying so.
func (m *mcpRoutes) openSession(w http.ResponseWriter, r *http.Request) {
	srv, ok := m.reserve()
	if !ok {
		m.refuseBusy(w, r)
		return
	}
	m.stateful.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), sessionServerKey{}, srv)))
	var live []*mcp.ServerSession
	for ss := range srv.Sessions() {
		live = append(live, ss)
	}
	if len(live) == 0 { // the request opened no session (a failed initialize)
		m.release(srv)
		return
	}
	go func() {
		for _, ss := range live {
			ss.Wait()
		}
		m.release(srv)
	}()
}

func (m *mcpRoutes) reserve() (*mcp.Server, bool) {
	m.mu.Lock()
	full := len(m.sessions) >= m.maxSessions
	m.mu.Unlock()
	if full {
		return nil, false
	}
	srv := m.build()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.sessions) >= m.maxSessions {
		return nil, false
	}
	m.sessions[srv] = true
	return srv, true
}

func (m *mcpRoutes) release(srv *mcp.Server) {
	m.mu.Lock()
	delete(m.sessions, srv)
	m.mu.Unlock()
}

// closeSessions ends every stateful session (their event streams too), at
// shutdown once the calls in flight have been answered.
func (m *mcpRoutes) closeSessions() {
	m.mu.Lock()
	var servers []*mcp.Server
	for srv := range m.sessions {
		servers = append(servers, srv)
	}
	m.mu.Unlock()
	for _, srv := range servers {
		for ss := range srv.Sessions() {
			ss.Close()
		}
	}
}

// busyCode is the JSON-RPC error code of a busy answer (implementation-
// defined server error range).
const busyCode = -32000

func (m *mcpRoutes) refuseBusy(w http.ResponseWriter, r *http.Request) {
	var id any
	if body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20)); err == nil {
		if msg, err := jsonrpc.DecodeMessage(body); err == nil {
			if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
				id = req.ID.Raw()
			}
		}
	}
	m.logger.Warn("refused a new MCP session: the session cap is reached", "max_sessions", m.maxSessions)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "10")
	w.WriteHeader(http.StatusServiceUnavailable)
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{
		"code": busyCode,
		"message": fmt.Sprintf("server busy: %d MCP sessions are open, the most this server allows (LIBRARIAN_HTTP_MAX_SESSIONS); "+
			"retry in 10 s, or close sessions you no longer use (HTTP DELETE /mcp)", m.maxSessions),
	}})
}

// callLimiter caps the tool calls running at once across every session. A
// call waits up to wait for a slot, then gets a tool error saying the
// server is busy and that nothing was done, so the agent can simply retry.
type callLimiter struct {
	slots chan struct{}
	wait  time.Duration
}

func newCallLimiter(max int, wait time.Duration) *callLimiter {
	return &callLimiter{slots: make(chan struct{}, max), wait: wait}
}

func (l *callLimiter) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		select {
		case l.slots <- struct{}{}:
		default:
			timer := time.NewTimer(l.wait)
			defer timer.Stop()
			select {
			case l.slots <- struct{}{}:
			case <-timer.C:
				return l.busy(), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		defer func() { <-l.slots }()
		return next(ctx, method, req)
	}
}

func (l *callLimiter) busy() *mcp.CallToolResult {
	res := text(fmt.Sprintf("server busy: all %d call slots (LIBRARIAN_HTTP_MAX_CALLS) stayed taken for %s; "+
		"this call did nothing: send it again in a few seconds", cap(l.slots), l.wait))
	res.IsError = true
	return res
}

// inflight counts requests being answered; wait blocks until none is.
type inflight struct {
	mu      sync.Mutex
	n       int
	waiters []chan struct{}
}

func (f *inflight) add() {
	f.mu.Lock()
	f.n++
	f.mu.Unlock()
}

func (f *inflight) done() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n--; f.n == 0 {
		for _, c := range f.waiters {
			close(c)
		}
		f.waiters = nil
	}
}

// wait returns nil once nothing is in flight, or ctx's error first.
func (f *inflight) wait(ctx context.Context) error {
	f.mu.Lock()
	if f.n == 0 {
		f.mu.Unlock()
		return nil
	}
	c := make(chan struct{})
	f.waiters = append(f.waiters, c)
	f.mu.Unlock()
	select {
	case <-c:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
