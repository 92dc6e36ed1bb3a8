package appfx

import (
	"context"
	"fmt"
	"net"
	"net/url"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"

	"github.com/librarian/librarian/adapters/engineapi"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/app/config"
	"github.com/librarian/librarian/app/engine"
)

// HTTPMountGroup is the fx value group of extra handlers served on the
// `serve --http` listener behind its guards and token: provide a
// mcpserver.Mount with fx.ResultTags(`group:"http_mounts"`) (seed 004's
// engine API under /api/library/ does).
const HTTPMountGroup = "http_mounts"

// HTTPModule provides the streamable HTTP server; fx builds it only when
// something asks for it (serve --http).
func HTTPModule() fx.Option {
	return fx.Module("http", fx.Provide(newHTTPServer))
}

type httpDeps struct {
	fx.In
	Server    serverDeps
	EngineAPI *engineapi.Handler
	Mounts    []mcpserver.Mount `group:"http_mounts"`
}

// newHTTPServer builds the HTTP server: each MCP session gets its own
// server over the shared library, with an engine of its own (its own
// session id and discuss threads, sharing the one engine client).
func newHTTPServer(d httpDeps) (*mcpserver.HTTPServer, error) {
	s := d.Server.Settings
	tokens, err := Tokens(s.HTTP)
	if err != nil {
		return nil, err
	}
	cfg := engine.Config{URL: s.EngineURL, Project: s.EngineProject}
	lib := d.Server.Library
	sessionDeps := d.Server
	sessionDeps.Logger = mcpserver.WarnAndAbove(d.Server.Logger) // no session ids in the log
	mounts := d.Mounts
	if EngineChoice(s) == config.EngineRemote && URLIsListener(s.EngineURL, s.HTTP.Addr) {
		// Fronting LIBRARIAN_URL would send every engine API request back
		// to this listener, again and again.
		d.Server.Logger.Warn("not serving the engine API: LIBRARIAN_URL is this server's own address", "url", s.EngineURL)
	} else {
		mounts = append(mounts, mcpserver.Mount{Prefix: engineapi.Prefix, Handler: d.EngineAPI})
	}
	ceil := mcpserver.HTTPCeilings(mcpserver.Ceilings{AnswerTokens: s.HTTP.MaxAnswerTokens, Results: s.HTTP.MaxResults})
	return mcpserver.NewHTTPServer(mcpserver.HTTPOptions{
		Addr: s.HTTP.Addr,
		NewServer: func() *mcp.Server {
			return buildServer(sessionDeps, engine.New(d.Server.Port, cfg), ceil)
		},
		Tokens:         tokens,
		AllowedOrigins: s.HTTP.AllowedOrigins,
		Mounts:         mounts,
		Health: func(ctx context.Context) error {
			if lib == nil {
				return nil // an engine-only server reads no library
			}
			if _, err := lib.Catalog(ctx); err != nil {
				return err
			}
			if ix := lib.Index(); ix != nil { // the section index, when one is kept
				if _, err := ix.Status(ctx); err != nil {
					return fmt.Errorf("section index: %w", err)
				}
			}
			return nil
		},
		MaxSessions:         s.HTTP.MaxSessions,
		MaxSessionsPerToken: s.HTTP.MaxSessionsPerToken,
		MaxCalls:            s.HTTP.MaxCalls,
		MaxCallsPerToken:    s.HTTP.MaxCallsPerToken,
		MaxConnections:      s.HTTP.MaxConnections,
		BodyTimeout:         s.HTTP.BodyTimeout,
		WriteTimeout:        s.HTTP.WriteTimeout,
		Logger:              d.Server.Logger,
	})
}

// URLIsListener reports whether engineURL names the HTTP listener at addr:
// the same port, and the same host, or a loopback host when addr listens on
// loopback or every interface.
func URLIsListener(engineURL, addr string) bool {
	u, err := url.Parse(engineURL)
	if err != nil || u.Host == "" {
		engineURL = config.DefaultEngineURL
		u, _ = url.Parse(engineURL)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	host, listenPort, err := net.SplitHostPort(addr)
	if err != nil || listenPort != port {
		return false
	}
	loopback := func(h string) bool {
		ip := net.ParseIP(h)
		return h == "localhost" || ip != nil && ip.IsLoopback()
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() || loopback(host) {
		return loopback(u.Hostname()) || u.Hostname() == host
	}
	return u.Hostname() == host
}

// CheckHTTP reports, before the graph is built, what would stop the HTTP
// server from starting: an unreadable token file, a bad token or origin, a
// non-loopback address without a token.
func CheckHTTP(s config.Settings) error {
	tokens, err := Tokens(s.HTTP)
	if err != nil {
		return err
	}
	return mcpserver.CheckHTTPOptions(mcpserver.HTTPOptions{Addr: s.HTTP.Addr, Tokens: tokens, AllowedOrigins: s.HTTP.AllowedOrigins})
}

// Tokens are the bearer tokens of LIBRARIAN_TOKEN and LIBRARIAN_TOKEN_FILE.
func Tokens(h config.HTTPSettings) ([]mcpserver.Token, error) {
	var tokens []mcpserver.Token
	if h.Token != "" {
		tokens = append(tokens, mcpserver.Token{Name: "LIBRARIAN_TOKEN", Value: h.Token})
	}
	if h.TokenFile != "" {
		more, err := mcpserver.ReadTokenFile(h.TokenFile)
		if err != nil {
			return nil, fmt.Errorf("LIBRARIAN_TOKEN_FILE: %w", err)
		}
		tokens = append(tokens, more...)
	}
	return tokens, nil
}
