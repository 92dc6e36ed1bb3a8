package appfx

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"

	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/app"
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
	Server serverDeps
	Mounts []mcpserver.Mount `group:"http_mounts"`
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
	cfg := app.EngineConfig{URL: s.EngineURL, Project: s.EngineProject}
	lib := d.Server.Library
	sessionDeps := d.Server
	sessionDeps.Logger = mcpserver.WarnAndAbove(d.Server.Logger) // no session ids in the log
	return mcpserver.NewHTTPServer(mcpserver.HTTPOptions{
		Addr: s.HTTP.Addr,
		NewServer: func() *mcp.Server {
			return buildServer(sessionDeps, app.NewEngine(d.Server.Port, cfg))
		},
		Tokens:         tokens,
		AllowedOrigins: s.HTTP.AllowedOrigins,
		Mounts:         d.Mounts,
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
		MaxSessions: s.HTTP.MaxSessions,
		MaxCalls:    s.HTTP.MaxCalls,
		Logger:      d.Server.Logger,
	})
}

// CheckHTTP reports, before the graph is built, what would stop the HTTP
// server from starting: an unreadable token file, a bad token or origin, a
// non-loopback address without a token.
func CheckHTTP(s app.Settings) error {
	tokens, err := Tokens(s.HTTP)
	if err != nil {
		return err
	}
	return mcpserver.CheckHTTPOptions(mcpserver.HTTPOptions{Addr: s.HTTP.Addr, Tokens: tokens, AllowedOrigins: s.HTTP.AllowedOrigins})
}

// Tokens are the bearer tokens of LIBRARIAN_TOKEN and LIBRARIAN_TOKEN_FILE.
func Tokens(h app.HTTPSettings) ([]mcpserver.Token, error) {
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
