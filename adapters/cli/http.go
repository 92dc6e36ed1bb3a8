package cli

import (
	"strings"

	"github.com/librarian/librarian/app/config"
)

// `librarian serve --http [ADDR]`: the flag itself is a setting
// (config.SettingSpecs); here only its bare form.

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
				a = "--http=" + config.DefaultHTTPAddr
			}
		}
		out = append(out, a)
	}
	return out
}
