package app

import (
	"fmt"
	"net"
	"strconv"
	"strings"
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
}

// DefaultHTTPAddr is where `--http` listens when given no address.
const DefaultHTTPAddr = "127.0.0.1:8000"

// httpSettingsFromEnv reads the HTTP settings; a malformed value is an
// error naming its variable.
func httpSettingsFromEnv(env func(string) string) (HTTPSettings, error) {
	h := HTTPSettings{
		Token:          strings.TrimSpace(env("LIBRARIAN_TOKEN")),
		TokenFile:      env("LIBRARIAN_TOKEN_FILE"),
		AllowedOrigins: SplitList(env("LIBRARIAN_ALLOWED_ORIGINS")),
	}
	if v := strings.TrimSpace(env("LIBRARIAN_HTTP")); v != "" {
		addr, err := HTTPAddr(v)
		if err != nil {
			return h, fmt.Errorf("LIBRARIAN_HTTP: %w", err)
		}
		h.Addr = addr
	}
	for _, c := range []struct {
		name string
		into *int
	}{{"LIBRARIAN_HTTP_MAX_SESSIONS", &h.MaxSessions}, {"LIBRARIAN_HTTP_MAX_CALLS", &h.MaxCalls}} {
		if v := env(c.name); v != "" {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n <= 0 {
				return h, fmt.Errorf("%s: want a positive integer, got %q", c.name, v)
			}
			*c.into = n
		}
	}
	return h, nil
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
