package cli

import (
	"flag"
	"strings"

	"github.com/librarian/librarian/app"
)

// The streamable HTTP settings of `librarian serve --http ADDR`, kept apart
// from the other settings flags.

// httpFlags binds --http on fs.
func httpFlags(fs *flag.FlagSet, s *app.Settings) {
	fs.Func("http", "serve MCP over streamable HTTP at ADDR instead of stdio (env LIBRARIAN_HTTP; bare --http: "+app.DefaultHTTPAddr+")", func(v string) error {
		addr, err := app.HTTPAddr(v)
		s.HTTP.Addr = addr
		return err
	})
}

// bareHTTPFlag gives a --http written without an address (last, or before
// another flag or a command) the default address, so `librarian serve
// --http` listens on 127.0.0.1:8000.
func bareHTTPFlag(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if a == "--http" || a == "-http" {
			if i+1 == len(args) || strings.HasPrefix(args[i+1], "-") || knownCommand(args[i+1]) {
				a = "--http=" + app.DefaultHTTPAddr
			}
		}
		out = append(out, a)
	}
	return out
}
