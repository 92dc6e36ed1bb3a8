package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/librarian/librarian/app/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configure the streamable HTTP server (`librarian serve
// --http`). Zero limits take the defaults below.
type HTTPOptions struct {
	// Addr is the listen address, host:port. A non-loopback address needs at
	// least one token.
	Addr string
	// NewServer builds an MCP server with every configured tool set and
	// fresh per-session state (engine session id, discuss threads) over the
	// one shared library. It is called once per stateful MCP session and
	// once per token for stateless (2026-07-28) requests, concurrently.
	NewServer func() *mcp.Server
	// Tokens are the accepted bearer tokens; none means no auth, which is
	// allowed on a loopback address only.
	Tokens []Token
	// AllowedOrigins are the browser origins (scheme://host[:port]) allowed
	// to call; a request with any other Origin header gets 403.
	AllowedOrigins []string
	// Mounts are further handlers on the same listener, behind the same
	// guards and token (seed 004's engine API under /api/library/).
	Mounts []Mount
	// Health reports whether the library is readable and its index open,
	// for /healthz; nil means always healthy.
	Health func(context.Context) error

	MaxSessions int // open stateful MCP sessions; DefaultMaxSessions
	// MaxSessionsPerToken are the sessions one token may hold; 0 means half
	// of MaxSessions when there are two tokens or more (so one cannot
	// starve the others), all of them otherwise.
	MaxSessionsPerToken int
	// MaxCalls are the calls running at once, all callers together: tool
	// calls, resource reads and prompt gets over MCP, and every request to
	// a mount (the engine API); DefaultMaxCalls. A call keeps its slot
	// until its answer is written.
	MaxCalls int
	// MaxCallsPerToken are the calls one token may run at once; 0 means
	// half of MaxCalls with two tokens or more, all of them otherwise.
	MaxCallsPerToken int
	CallWait         time.Duration // how long a call waits for a slot before a busy answer; 2 s
	// MaxConnections are the connections open at once; more wait to be
	// accepted until one closes. DefaultMaxConnections.
	MaxConnections int
	// BodyTimeout is how long a request body may take to arrive once the
	// headers are in; DefaultBodyTimeout.
	BodyTimeout time.Duration
	// WriteTimeout is how long the client may take to take each write of an
	// answer (each event, on a stream) before the connection is cut;
	// DefaultWriteTimeout.
	WriteTimeout       time.Duration
	MaxBodyBytes       int64         // request body; DefaultMaxBodyBytes
	SessionIdleTimeout time.Duration // a session without requests for this long is closed; 30 min
	ShutdownTimeout    time.Duration // how long in-flight calls may take at shutdown; 10 s
	Logger             *slog.Logger
}

// Mount is a handler served under Prefix (ending in "/" for a subtree).
type Mount struct {
	Prefix  string
	Handler http.Handler
}

// Limits of the HTTP server, when HTTPOptions leave them zero.
const (
	DefaultMaxSessions    = 256
	DefaultMaxCalls       = 64
	DefaultMaxConnections = 1024 // two per session (its event stream and a POST), and room for stateless callers
	DefaultBodyTimeout    = 30 * time.Second
	DefaultWriteTimeout   = 30 * time.Second
	DefaultMaxBodyBytes   = 1 << 20
	defaultCallWait       = 2 * time.Second
	defaultSessionIdle    = 30 * time.Minute
	defaultShutdown       = 10 * time.Second
	readHeaderTimeout     = 10 * time.Second
	idleConnectionTimeout = 2 * time.Minute
	maxHeaderBytes        = 64 << 10
)

// HTTPServer serves MCP over streamable HTTP at /mcp, /healthz, and the
// mounted handlers, all behind the Host, Origin and token guards.
type HTTPServer struct {
	opts    HTTPOptions
	routes  *mcpRoutes
	handler http.Handler
}

// CheckHTTPOptions checks what NewHTTPServer would refuse, before anything
// is built: the address, the tokens and the allowed origins. It refuses a
// non-loopback address without a token: anyone who can reach the port
// could read the library.
func CheckHTTPOptions(opts HTTPOptions) error {
	addr := opts.Addr
	if addr == "" {
		addr = config.DefaultHTTPAddr
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("http address %q: want host:port, e.g. %s (--http, LIBRARIAN_HTTP)", addr, config.DefaultHTTPAddr)
	}
	if len(opts.Tokens) == 0 && (host == "" || !isLoopback(host)) {
		return fmt.Errorf("refusing to serve on %s without a token: that address is reachable from other machines, "+
			"and anyone who reaches it could read the library. Set LIBRARIAN_TOKEN (or LIBRARIAN_TOKEN_FILE), "+
			"or listen on loopback (--http %s)", addr, config.DefaultHTTPAddr)
	}
	if _, err := newTokenSet(opts.Tokens); err != nil {
		return err
	}
	if _, err := newOriginGuard(opts.AllowedOrigins); err != nil {
		return err
	}
	return nil
}

// NewHTTPServer checks the options (CheckHTTPOptions) and builds the server.
func NewHTTPServer(opts HTTPOptions) (*HTTPServer, error) {
	if opts.NewServer == nil {
		return nil, errors.New("http server: no MCP server factory")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Addr == "" {
		opts.Addr = config.DefaultHTTPAddr
	}
	if err := CheckHTTPOptions(opts); err != nil {
		return nil, err
	}
	defaults(&opts.MaxSessions, DefaultMaxSessions)
	defaults(&opts.MaxCalls, DefaultMaxCalls)
	defaults(&opts.MaxSessionsPerToken, fairShare(opts.MaxSessions, len(opts.Tokens)))
	defaults(&opts.MaxCallsPerToken, fairShare(opts.MaxCalls, len(opts.Tokens)))
	defaults(&opts.CallWait, defaultCallWait)
	defaults(&opts.MaxConnections, DefaultMaxConnections)
	defaults(&opts.BodyTimeout, DefaultBodyTimeout)
	defaults(&opts.WriteTimeout, DefaultWriteTimeout)
	defaults(&opts.MaxBodyBytes, DefaultMaxBodyBytes)
	defaults(&opts.SessionIdleTimeout, defaultSessionIdle)
	defaults(&opts.ShutdownTimeout, defaultShutdown)

	tokens, err := newTokenSet(opts.Tokens)
	if err != nil {
		return nil, err
	}
	origins, err := newOriginGuard(opts.AllowedOrigins)
	if err != nil {
		return nil, err
	}
	calls := newCallLimiter(opts.MaxCalls, opts.MaxCallsPerToken, opts.CallWait)
	s := &HTTPServer{opts: opts, routes: newMCPRoutes(opts, calls)}
	// authed is a route behind the token; its body is read (bounded in size
	// and time) only once the token is checked.
	authed := func(inner http.Handler) http.Handler {
		body := bufferBody(opts.MaxBodyBytes, opts.BodyTimeout, inner)
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			noteCaller(r)
			body.ServeHTTP(w, r)
		})
		if len(opts.Tokens) == 0 {
			return h
		}
		return tokens.requireToken(h)
	}
	mux := http.NewServeMux()
	mux.Handle("/healthz", http.HandlerFunc(s.health))
	mux.Handle("/mcp", authed(s.routes))
	for _, m := range opts.Mounts {
		if !strings.HasPrefix(m.Prefix, "/") || m.Prefix == "/" || m.Prefix == "/mcp" || m.Prefix == "/healthz" || m.Handler == nil {
			return nil, fmt.Errorf("http mount %q: want a path of its own under /, with a handler", m.Prefix)
		}
		mux.Handle(m.Prefix, authed(limitCalls(calls, m.Handler)))
	}
	mux.Handle("/", authed(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, fmt.Sprintf("not found: %s (MCP is served at /mcp)", r.URL.Path), http.StatusNotFound)
	})))
	s.handler = accessLog(opts.Logger, recoverPanicsHTTP(opts.Logger, deadlines(opts.BodyTimeout, opts.WriteTimeout, hostGuard(origins.wrap(mux)))))
	return s, nil
}

// fairShare is a per-token cap's default: half of total when there are two
// tokens or more, so that one token cannot take it all; all of it for one
// token (or none), which has nobody to starve.
func fairShare(total, tokens int) int {
	if tokens < 2 {
		return total
	}
	return max(1, total/2)
}

func defaults[T int | int64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// Handler is the whole server as an http.Handler (for tests and embedding).
func (s *HTTPServer) Handler() http.Handler { return s.handler }

// health answers /healthz: 200 {"status":"ok"} when the library is readable
// and its index open, else 503 (the reason goes to the log, not to the
// unauthenticated caller).
func (s *HTTPServer) health(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed: /healthz answers GET", http.StatusMethodNotAllowed)
		return
	}
	status, code := "ok", http.StatusOK
	if s.opts.Health != nil {
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		err := s.opts.Health(ctx)
		cancel()
		if err != nil {
			s.opts.Logger.Warn("health check failed", "err", err)
			status, code = "unavailable", http.StatusServiceUnavailable
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"status": status})
}

// ListenAndServe listens on the configured address and serves until ctx
// ends (SIGTERM, SIGINT), then shuts down gracefully.
func (s *HTTPServer) ListenAndServe(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.opts.Addr)
	if err != nil {
		return fmt.Errorf("http: %w", err)
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln until ctx ends, then shuts down: it stops accepting,
// lets the calls in flight finish (up to ShutdownTimeout), closes the MCP
// sessions and their streams, and returns nil.
func (s *HTTPServer) Serve(ctx context.Context, ln net.Listener) error {
	logger := s.opts.Logger
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleConnectionTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	logger.Info("serving MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "auth", len(s.opts.Tokens) > 0)
	ln = newLimitListener(ln, s.opts.MaxConnections, logger)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("http: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down: waiting for the calls in flight", "timeout", s.opts.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), s.opts.ShutdownTimeout)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(sctx) }()
	if err := s.routes.inflight.wait(sctx); err != nil {
		logger.Warn("calls still running at the shutdown timeout are cut", "timeout", s.opts.ShutdownTimeout)
	}
	s.routes.closeSessions()
	if err := <-shut; err != nil {
		srv.Close()
	}
	<-errc
	logger.Info("shut down")
	return nil
}
