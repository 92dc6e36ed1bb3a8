package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

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
// Both share the one library the factory closes over. Before either sees a
// POST, its message is checked (checkMessage: a malformed one is answered
// in plain words), and a call takes a slot of the call cap, which it keeps
// until its answer is written. Sessions are capped (maxSessions, and
// sessionsPerToken for each token).
type mcpRoutes struct {
	newServer        func() *mcp.Server
	calls            *callLimiter
	maxSessions      int
	sessionsPerToken int
	logger           *slog.Logger

	stateful  *mcp.StreamableHTTPHandler
	stateless *mcp.StreamableHTTPHandler
	probe     *mcp.Server // answers the stateful handler's version lookups for requests of existing sessions

	inflight inflight // POSTs being answered, for graceful shutdown

	mu       sync.Mutex
	sessions map[*mcp.Server]string // servers of stateful sessions open or opening, to their token's name
	byToken  map[string]*mcp.Server // stateless servers, by token name ("" = no token required)
}

// limitedMethods are the requests that take a call slot: those whose
// answers read the library or the engine, and may be large.
var limitedMethods = map[string]bool{"tools/call": true, "resources/read": true, "prompts/get": true}

type sessionServerKey struct{}

func newMCPRoutes(opts HTTPOptions, calls *callLimiter) *mcpRoutes {
	m := &mcpRoutes{
		newServer:        opts.NewServer,
		calls:            calls,
		maxSessions:      opts.MaxSessions,
		sessionsPerToken: min(opts.MaxSessionsPerToken, opts.MaxSessions),
		logger:           opts.Logger,
		sessions:         map[*mcp.Server]string{},
		byToken:          map[string]*mcp.Server{},
	}
	m.probe = m.newServer()
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

func (m *mcpRoutes) tokenServer(name string) *mcp.Server {
	m.mu.Lock()
	defer m.mu.Unlock()
	srv := m.byToken[name]
	if srv == nil {
		srv = m.newServer()
		m.byToken[name] = srv
	}
	return srv
}

func (m *mcpRoutes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var env envelope
	if r.Method == http.MethodPost {
		m.inflight.add()
		defer m.inflight.done()
		var ok bool
		if env, ok = m.checkPost(w, r); !ok {
			return
		}
		if env.isCall() && limitedMethods[env.method] {
			release, err := m.calls.acquire(r.Context(), callerName(r))
			var b *busy
			switch {
			case errors.As(err, &b):
				m.answerBusy(w, env, b)
				return
			case err != nil:
				return // the client left
			}
			defer release() // once the answer is written, or the write cut off
		}
	}
	switch {
	case r.Header.Get("Mcp-Protocol-Version") >= statelessProtocol:
		m.stateless.ServeHTTP(w, r)
	case r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "":
		m.openSession(w, r, env)
	default:
		m.stateful.ServeHTTP(w, r)
	}
}

// checkPost checks the POST's one JSON-RPC message (bufferBody has read
// it) and answers a malformed one: 400 with a JSON-RPC error for a message
// that is not one, or a notification with invalid params (the spec's
// "cannot accept the input"), and for a request with invalid params the
// JSON-RPC error the go-sdk would send, in plain words: 400 on the
// stateless protocol (SEP-2575 says so), 200 on the older ones.
func (m *mcpRoutes) checkPost(w http.ResponseWriter, r *http.Request) (envelope, bool) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "bad request: the body could not be read whole", http.StatusBadRequest)
		return envelope{}, false
	}
	if len(bytes.TrimSpace(body)) == 0 {
		http.Error(w, "bad request: POST /mcp wants a JSON-RPC message as its body", http.StatusBadRequest)
		return envelope{}, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	env, problem := checkMessage(body)
	if problem == nil {
		return env, true
	}
	if problem.detail != "" {
		m.logger.Warn("refused an inbound MCP message", "code", problem.code, "detail", problem.detail)
	}
	status := http.StatusBadRequest
	if problem.code == codeInvalidParams && !problem.notification && r.Header.Get("Mcp-Protocol-Version") < statelessProtocol {
		status = http.StatusOK
	}
	writeRPC(w, status, problem.id, map[string]any{"error": map[string]any{"code": problem.code, "message": problem.message}})
	return envelope{}, false
}

// answerBusy answers a call refused by the call cap: a tool call with a
// tool error (the agent reads it and retries; nothing was done), a resource
// or prompt read with a JSON-RPC error; both with Retry-After.
func (m *mcpRoutes) answerBusy(w http.ResponseWriter, env envelope, b *busy) {
	m.logger.Warn("refused a call: the call cap is reached", "method", env.method, "limit", b.limit)
	w.Header().Set("Retry-After", b.retryAfterHeader())
	if env.method == "tools/call" {
		writeRPC(w, http.StatusOK, env.id, map[string]any{"result": map[string]any{
			"content": []any{map[string]any{"type": "text", "text": b.Error()}},
			"isError": true,
		}})
		return
	}
	writeRPC(w, http.StatusOK, env.id, map[string]any{"error": map[string]any{"code": busyCode, "message": b.Error()}})
}

// writeRPC writes one JSON-RPC response object: id (null when nil) and
// the members given (result or error).
func writeRPC(w http.ResponseWriter, status int, id json.RawMessage, members map[string]any) {
	if id == nil {
		id = json.RawMessage("null")
	}
	members["jsonrpc"] = "2.0"
	members["id"] = id
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(members)
}

// openSession serves a POST that opens a stateful session (its initialize)
// with a server of its own, once a session slot is free, for all tokens and
// for this one; past either cap it answers 503 with a JSON-RPC error
// saying which.
func (m *mcpRoutes) openSession(w http.ResponseWriter, r *http.Request, env envelope) {
	token := callerName(r)
	srv, refusal := m.reserve(token)
	if refusal != "" {
		m.refuseBusy(w, env, refusal)
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

// reserve builds a server for a new session of token and counts it, or
// says which cap refuses it.
func (m *mcpRoutes) reserve(token string) (*mcp.Server, string) {
	if refusal := m.sessionRefusal(token); refusal != "" {
		return nil, refusal
	}
	srv := m.newServer() // outside the lock: building a server takes a while
	m.mu.Lock()
	defer m.mu.Unlock()
	if refusal := m.sessionRefusalLocked(token); refusal != "" {
		return nil, refusal
	}
	m.sessions[srv] = token
	return srv, ""
}

func (m *mcpRoutes) sessionRefusal(token string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sessionRefusalLocked(token)
}

func (m *mcpRoutes) sessionRefusalLocked(token string) string {
	if len(m.sessions) >= m.maxSessions {
		return fmt.Sprintf("%d MCP sessions are open, the most this server allows (LIBRARIAN_HTTP_MAX_SESSIONS)", m.maxSessions)
	}
	held := 0
	for _, t := range m.sessions {
		if t == token {
			held++
		}
	}
	if held >= m.sessionsPerToken {
		return fmt.Sprintf("%s holds %d MCP sessions, the most one token may (LIBRARIAN_HTTP_MAX_SESSIONS_PER_TOKEN)", tokenWords(token), held)
	}
	return ""
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

// sessionRetryAfter is when a refused session is told to try again.
const sessionRetryAfter = 10 * time.Second

func (m *mcpRoutes) refuseBusy(w http.ResponseWriter, env envelope, refusal string) {
	m.logger.Warn("refused a new MCP session", "limit", refusal)
	w.Header().Set("Retry-After", strconv.Itoa(int(sessionRetryAfter/time.Second)))
	writeRPC(w, http.StatusServiceUnavailable, env.id, map[string]any{"error": map[string]any{
		"code":    busyCode,
		"message": fmt.Sprintf("server busy: %s; retry in %s, or close sessions you no longer use (HTTP DELETE /mcp)", refusal, retryWords(sessionRetryAfter)),
	}})
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
