package config

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// HTTPSettings configure `librarian serve --http`: MCP over streamable
// HTTP for a team. Addr "" means stdio, as always.
type HTTPSettings struct {
	Addr           string   // LIBRARIAN_HTTP, --http; host:port
	Token          string   // LIBRARIAN_TOKEN: one accepted bearer token
	TokenFile      string   // LIBRARIAN_TOKEN_FILE: a file of tokens, one a line
	AllowedOrigins []string // LIBRARIAN_ALLOWED_ORIGINS: browser origins allowed to call
	MaxSessions    int      // LIBRARIAN_HTTP_MAX_SESSIONS; 0 = the server's default
	MaxCalls       int      // LIBRARIAN_HTTP_MAX_CALLS; 0 = the server's default
	// LIBRARIAN_HTTP_MAX_SESSIONS_PER_TOKEN and _MAX_CALLS_PER_TOKEN; 0 =
	// the server's default (half of the whole with two tokens or more).
	MaxSessionsPerToken int
	MaxCallsPerToken    int
	MaxConnections      int           // LIBRARIAN_HTTP_MAX_CONNECTIONS; 0 = the server's default
	BodyTimeout         time.Duration // LIBRARIAN_HTTP_BODY_TIMEOUT; 0 = the server's default
	WriteTimeout        time.Duration // LIBRARIAN_HTTP_WRITE_TIMEOUT; 0 = the server's default
	// MaxAnswerTokens and MaxResults are the ceilings of one answer's
	// max_tokens and max_results (LIBRARIAN_HTTP_MAX_ANSWER_TOKENS,
	// LIBRARIAN_HTTP_MAX_RESULTS); 0 = the server's default.
	MaxAnswerTokens int
	MaxResults      int
}

// DefaultHTTPAddr is where `--http` listens when given no address.
const DefaultHTTPAddr = "127.0.0.1:8000"

// httpSettingSpecs are the HTTP server's settings. Tokens have no flag: a
// command line is visible to every user of the machine.
var httpSettingSpecs = []SettingSpec{
	{Key: "http", Flags: []string{"http"}, Env: []string{"LIBRARIAN_HTTP"}, Value: "ADDR",
		Help: "serve: MCP over streamable HTTP at ADDR/mcp instead of stdio (host:port, :port, a port; bare --http: " + DefaultHTTPAddr + ")",
		Apply: func(s *Settings, v, _ string) (err error) {
			s.HTTP.Addr, err = HTTPAddr(v)
			return err
		}},
	{Key: "LIBRARIAN_TOKEN", Env: []string{"LIBRARIAN_TOKEN"}, Value: "TOKEN",
		Help: "serve --http: a bearer token clients must send (required on a non-loopback address)",
		Apply: func(s *Settings, v, _ string) error {
			s.HTTP.Token = strings.TrimSpace(v)
			if s.HTTP.Token == "" {
				// Taken for unset, a blank token would start the server
				// without auth: refused, so a typo cannot open it.
				return fmt.Errorf("the token is blank (only whitespace): set a token, or unset the variable to serve loopback without one")
			}
			if strings.ContainsAny(s.HTTP.Token, " \t\r\n") {
				return fmt.Errorf("a token holds no whitespace")
			}
			return nil
		}},
	{Key: "LIBRARIAN_TOKEN_FILE", Env: []string{"LIBRARIAN_TOKEN_FILE"}, Value: "FILE",
		Help:  "serve --http: a file of bearer tokens, one a line (TOKEN, or NAME TOKEN)",
		Apply: func(s *Settings, v, _ string) error { s.HTTP.TokenFile = v; return nil }},
	{Key: "LIBRARIAN_ALLOWED_ORIGINS", Env: []string{"LIBRARIAN_ALLOWED_ORIGINS"}, Value: "LIST",
		Help:  "serve --http: browser origins allowed to call (https://docs.example, comma-separated); any other Origin gets 403",
		Apply: func(s *Settings, v, _ string) error { s.HTTP.AllowedOrigins = SplitList(v); return nil }},
	{Key: "LIBRARIAN_HTTP_MAX_SESSIONS", Env: []string{"LIBRARIAN_HTTP_MAX_SESSIONS"}, Value: "N", Default: "256",
		Help:  "serve --http: MCP sessions open at once",
		Apply: func(s *Settings, v, _ string) (err error) { s.HTTP.MaxSessions, err = positive(v); return err }},
	{Key: "LIBRARIAN_HTTP_MAX_SESSIONS_PER_TOKEN", Env: []string{"LIBRARIAN_HTTP_MAX_SESSIONS_PER_TOKEN"}, Value: "N",
		Default: "half of LIBRARIAN_HTTP_MAX_SESSIONS with two tokens or more, else all",
		Help:    "serve --http: MCP sessions one token may hold at once",
		Apply:   func(s *Settings, v, _ string) (err error) { s.HTTP.MaxSessionsPerToken, err = positive(v); return err }},
	{Key: "LIBRARIAN_HTTP_MAX_CALLS", Env: []string{"LIBRARIAN_HTTP_MAX_CALLS"}, Value: "N", Default: "64",
		Help:  "serve --http: calls running at once, all callers together (tool calls, resource reads, engine API requests)",
		Apply: func(s *Settings, v, _ string) (err error) { s.HTTP.MaxCalls, err = positive(v); return err }},
	{Key: "LIBRARIAN_HTTP_MAX_CALLS_PER_TOKEN", Env: []string{"LIBRARIAN_HTTP_MAX_CALLS_PER_TOKEN"}, Value: "N",
		Default: "half of LIBRARIAN_HTTP_MAX_CALLS with two tokens or more, else all",
		Help:    "serve --http: calls one token may run at once",
		Apply:   func(s *Settings, v, _ string) (err error) { s.HTTP.MaxCallsPerToken, err = positive(v); return err }},
	{Key: "LIBRARIAN_HTTP_MAX_CONNECTIONS", Env: []string{"LIBRARIAN_HTTP_MAX_CONNECTIONS"}, Value: "N", Default: "1024",
		Help:  "serve --http: connections open at once; more wait to be accepted",
		Apply: func(s *Settings, v, _ string) (err error) { s.HTTP.MaxConnections, err = positive(v); return err }},
	{Key: "LIBRARIAN_HTTP_BODY_TIMEOUT", Env: []string{"LIBRARIAN_HTTP_BODY_TIMEOUT"}, Value: "DURATION", Default: "30s",
		Help:  "serve --http: a request body must arrive within this long of its headers (else 408)",
		Apply: func(s *Settings, v, _ string) (err error) { s.HTTP.BodyTimeout, err = positiveDuration(v); return err }},
	{Key: "LIBRARIAN_HTTP_WRITE_TIMEOUT", Env: []string{"LIBRARIAN_HTTP_WRITE_TIMEOUT"}, Value: "DURATION", Default: "30s",
		Help:  "serve --http: a client must take each write of an answer (or stream event) within this long, else its connection is cut",
		Apply: func(s *Settings, v, _ string) (err error) { s.HTTP.WriteTimeout, err = positiveDuration(v); return err }},
	{Key: "LIBRARIAN_HTTP_MAX_ANSWER_TOKENS", Env: []string{"LIBRARIAN_HTTP_MAX_ANSWER_TOKENS"}, Value: "N", Default: "100000",
		Help:  "serve --http: the most tokens one list_documents or get_documents answer holds, whatever max_tokens asks (0 included), with a note when it caps",
		Apply: func(s *Settings, v, _ string) (err error) { s.HTTP.MaxAnswerTokens, err = positive(v); return err }},
	{Key: "LIBRARIAN_HTTP_MAX_RESULTS", Env: []string{"LIBRARIAN_HTTP_MAX_RESULTS"}, Value: "N", Default: "1000",
		Help:  "serve --http: the most hit lines (ranked: sections) one search_documents answer holds, whatever max_results asks (0 included)",
		Apply: func(s *Settings, v, _ string) (err error) { s.HTTP.MaxResults, err = positive(v); return err }},
}

func positiveDuration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(v))
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("want a positive duration such as 30s or 2m, got %q", v)
	}
	return d, nil
}

func positive(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("want a positive integer, got %q", v)
	}
	return n, nil
}

// HTTPAddr reads a listen address: "host:port", ":port" (every interface),
// a bare port (loopback), or one of 1, true, on, yes for DefaultHTTPAddr.
func HTTPAddr(v string) (string, error) {
	v = strings.TrimSpace(v)
	switch strings.ToLower(v) {
	case "1", "true", "on", "yes", "default":
		return DefaultHTTPAddr, nil
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n <= 0 || n > 65535 {
			return "", fmt.Errorf("port %d is out of range", n)
		}
		return net.JoinHostPort("127.0.0.1", v), nil
	}
	host, port, err := net.SplitHostPort(v)
	if err != nil {
		return "", fmt.Errorf("want host:port, :port or a port, e.g. %s; got %q", DefaultHTTPAddr, v)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "", fmt.Errorf("port %q of %q is not a number from 0 to 65535", port, v)
	}
	return net.JoinHostPort(host, port), nil
}
