package mcpserver

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// The HTTP guards every route passes, outermost first: the access log, panic
// recovery, the Host check, the Origin check, then (every route but
// /healthz) the bearer token. Each refusal names what was refused and why,
// and none ever echoes a token.

// Token is one accepted bearer token. Name identifies it in logs and binds
// the MCP sessions opened with it; Value is the secret and is never logged.
type Token struct {
	Name  string
	Value string
}

// ReadTokenFile reads LIBRARIAN_TOKEN_FILE: one token per line, either
// `TOKEN` alone (named "line N") or `NAME TOKEN`; empty lines and lines
// starting with # are skipped. A line of only spaces or tabs is an error
// (a token left blank, not a separator), and so is a file with no token.
func ReadTokenFile(path string) ([]Token, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err // names the path
	}
	defer f.Close()
	var tokens []Token
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		raw := strings.TrimRight(sc.Text(), "\r")
		line := strings.TrimSpace(raw)
		if line == "" && raw != "" {
			return nil, fmt.Errorf("token file %s line %d is blank (only whitespace): a token cannot be blank; write one, or leave the line empty", path, n)
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		switch len(fields) {
		case 1:
			tokens = append(tokens, Token{Name: fmt.Sprintf("%s line %d", path, n), Value: fields[0]})
		case 2:
			tokens = append(tokens, Token{Name: fields[0], Value: fields[1]})
		default:
			return nil, fmt.Errorf("token file %s line %d: want TOKEN or NAME TOKEN, got %d fields", path, n, len(fields))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("token file %s: %w", path, err)
	}
	if len(tokens) == 0 {
		return nil, fmt.Errorf("token file %s holds no token", path)
	}
	return tokens, nil
}

// tokenSet checks bearer tokens in constant time: every configured token is
// compared (as a SHA-256 digest, so lengths leak nothing) on every check.
type tokenSet struct {
	names   []string
	digests [][sha256.Size]byte
}

func newTokenSet(tokens []Token) (*tokenSet, error) {
	ts := &tokenSet{}
	seen := map[string]bool{}
	for i, t := range tokens {
		if t.Value == "" || strings.ContainsAny(t.Value, " \t\r\n") {
			return nil, fmt.Errorf("token %q (#%d) is empty or holds whitespace", t.Name, i+1)
		}
		if seen[t.Name] {
			return nil, fmt.Errorf("two tokens are named %q", t.Name)
		}
		seen[t.Name] = true
		ts.names = append(ts.names, t.Name)
		ts.digests = append(ts.digests, sha256.Sum256([]byte(t.Value)))
	}
	return ts, nil
}

// match returns the name of the token equal to got, or "" when none is.
func (ts *tokenSet) match(got string) string {
	d := sha256.Sum256([]byte(got))
	found := -1
	for i := range ts.digests {
		if subtle.ConstantTimeCompare(d[:], ts.digests[i][:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return ""
	}
	return ts.names[found]
}

// verifier adapts the set to the go-sdk's auth middleware, whose TokenInfo
// (UserID = the token's name) binds each stateful session to its token.
func (ts *tokenSet) verifier(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	name := ts.match(token)
	if name == "" {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{UserID: name}, nil
}

// requireToken answers 401 with `WWW-Authenticate: Bearer` to a request
// without a valid bearer token, and otherwise passes it through the go-sdk's
// RequireBearerToken, which records the token's TokenInfo in the context.
func (ts *tokenSet) requireToken(next http.Handler) http.Handler {
	sdk := auth.RequireBearerToken(ts.verifier, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, token, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
		token = strings.TrimSpace(token)
		switch {
		case !strings.EqualFold(scheme, "Bearer") || token == "":
			w.Header().Set("WWW-Authenticate", `Bearer realm="librarian"`)
			http.Error(w, "unauthorized: send the header 'Authorization: Bearer <token>' (the server's LIBRARIAN_TOKEN or a line of its LIBRARIAN_TOKEN_FILE)", http.StatusUnauthorized)
		case ts.match(token) == "":
			w.Header().Set("WWW-Authenticate", `Bearer realm="librarian", error="invalid_token"`)
			http.Error(w, "unauthorized: the bearer token is not one this server accepts", http.StatusUnauthorized)
		default:
			sdk.ServeHTTP(w, r)
		}
	})
}

// callerName is the name of the request's token, for the access log; "" when
// the server requires none or the request was refused before auth.
func callerName(r *http.Request) string {
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		return ti.UserID
	}
	return ""
}

// originGuard refuses, with 403, what a browser page on another site sends,
// on every route and method, GETs included (a GET to the engine API writes
// a session's log, and an <img> or a link can send one):
//   - a request whose Origin header is present and not in the allow list
//     (LIBRARIAN_ALLOWED_ORIGINS); the go-sdk does not check Origin;
//   - a request without Origin that the browser marks as coming from
//     another site (Sec-Fetch-Site: cross-site or same-site; "same-site"
//     is another port of localhost, say). net/http's CrossOriginProtection
//     lets such a GET through, and on a server without tokens nothing else
//     would stop it.
//
// Requests with neither header (agents, CI jobs, curl) pass, and so do a
// browser's same-origin requests and the ones the user typed in
// (Sec-Fetch-Site: same-origin, none).
type originGuard struct {
	allowed map[string]bool
}

func newOriginGuard(origins []string) (*originGuard, error) {
	g := &originGuard{allowed: map[string]bool{}}
	for _, o := range origins {
		n, err := normalizeOrigin(o)
		if err != nil {
			return nil, fmt.Errorf("allowed origin %q: %v (LIBRARIAN_ALLOWED_ORIGINS wants scheme://host[:port] entries)", o, err)
		}
		g.allowed[n] = true
	}
	return g, nil
}

// normalizeOrigin lowercases scheme and host and drops a default port, so
// "HTTPS://Docs.Example:443" and "https://docs.example" are one origin.
func normalizeOrigin(o string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(o))
	if err != nil {
		return "", err
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", errors.New("not an http or https origin")
	}
	if u.User != nil || strings.TrimSuffix(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" {
		return "", errors.New("an origin has no user, path, query or fragment")
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host, nil
}

func (g *originGuard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" {
			n, err := normalizeOrigin(origin)
			if err != nil || !g.allowed[n] {
				http.Error(w, fmt.Sprintf("forbidden: Origin \"%s\" is not allowed (LIBRARIAN_ALLOWED_ORIGINS lists the origins that are)", quoteCapped(origin)), http.StatusForbidden)
				return
			}
			next.ServeHTTP(w, r) // an allowed origin, however it is spelled
			return
		}
		switch site := r.Header.Get("Sec-Fetch-Site"); site {
		case "", "same-origin", "none":
		default:
			http.Error(w, fmt.Sprintf("forbidden: a browser request from another site (Sec-Fetch-Site: %s) without an allowed Origin; list its origin in LIBRARIAN_ALLOWED_ORIGINS to allow it", quoteCapped(site)), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// quoteCapped is a header's value for a refusal: at most 100 characters,
// quotes and control characters escaped.
func quoteCapped(v string) string {
	const most = 100
	if r := []rune(v); len(r) > most {
		v = string(r[:most]) + "…"
	}
	q := strconv.Quote(v)
	return q[1 : len(q)-1]
}

// hostGuard applies the go-sdk's DNS-rebinding rule to every route, not
// only /mcp (where the SDK's own check also stays on): a request that
// arrived on a loopback address must name a loopback host.
func hostGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && local != nil {
			if isLoopback(local.String()) && !isLoopback(r.Host) {
				http.Error(w, fmt.Sprintf("forbidden: Host %q is not a loopback name, and this server listens on loopback (DNS-rebinding protection)", r.Host), http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// isLoopback reports whether a host or host:port names the loopback
// interface: localhost, 127.0.0.0/8 or ::1.
func isLoopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// recoverPanicsHTTP turns a panic in any handler into a 500 and a log line
// with the stack, so one bad request never takes the server down.
func recoverPanicsHTTP(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				logger.Error("http handler panic", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				http.Error(w, "internal server error", http.StatusInternalServerError)
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// accessLog writes one info line per request after it ends: method, path,
// status, duration, and the token's name (never the token, never the query).
func accessLog(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		var caller string
		next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), callerSlot{}, &caller)))
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		attrs := []any{"method", r.Method, "path", r.URL.Path, "status", status, "duration", time.Since(start).Round(time.Microsecond), "remote", r.RemoteAddr}
		if caller != "" {
			attrs = append(attrs, "token", caller)
		}
		logger.Info("http", attrs...)
	})
}

// callerSlot carries a pointer the auth layer fills with the token's name,
// so the access log, outside it, can name the caller.
type callerSlot struct{}

func noteCaller(r *http.Request) {
	if p, ok := r.Context().Value(callerSlot{}).(*string); ok {
		*p = callerName(r)
	}
}

// statusRecorder remembers the status written; it forwards Flush (the SSE
// streams need it) and exposes the writer underneath to
// http.ResponseController.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) Flush() { s.FlushError() }

// FlushError flushes and says whether it failed (a client that stopped
// reading), for deadlineWriter.
func (s *statusRecorder) FlushError() error {
	return http.NewResponseController(s.ResponseWriter).Flush()
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// WarnAndAbove is logger without its debug and info lines: the go-sdk logs
// each session's id at info, and over HTTP a session id is a credential.
func WarnAndAbove(logger *slog.Logger) *slog.Logger {
	return slog.New(minLevel{logger.Handler()})
}

type minLevel struct{ slog.Handler }

func (m minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && m.Handler.Enabled(ctx, l)
}

func (m minLevel) WithAttrs(a []slog.Attr) slog.Handler { return minLevel{m.Handler.WithAttrs(a)} }
func (m minLevel) WithGroup(n string) slog.Handler      { return minLevel{m.Handler.WithGroup(n)} }
