// Package cli is the command-line driving adapter: it reads settings from
// the environment and flags, and runs a subcommand for a person (ls, check,
// get, search, tags, eval) or serves MCP on stdio when there is none. Like
// the MCP adapter it only translates: every answer comes from the use cases
// under app/ (browse, search, engine).
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/librarian/librarian/app/config"
	"github.com/librarian/librarian/app/engine"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/localindex"
	"github.com/librarian/librarian/domain"
)

// Invocation is a parsed command line: the settings for the app graph, the
// subcommand ("serve" when none) and its own arguments.
type Invocation struct {
	Settings config.Settings
	Command  string
	Args     []string
	// Done is set when the command line was fully handled while parsing
	// (--help, --version); ExitCode is then the process's exit code.
	Done     bool
	ExitCode int
}

// Deps are what the subcommands run on, built by the fx graph.
type Deps struct {
	Library *library.Library
	Engine  *engine.Engine
	// IndexFiles are the local index files (index --list, --prune).
	IndexFiles *localindex.Files
	// Serve runs the MCP server over the given streams until the input ends
	// and every request read has been answered.
	Serve func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error
	// ServeHTTP serves MCP over streamable HTTP (serve --http) until ctx
	// ends, then shuts down gracefully.
	ServeHTTP func(ctx context.Context) error
}

// settingsFlags binds every setting's flags (config.SettingSpecs) on fs. They
// only record what was written, in order: config.LoadSettings checks the
// values, by the same rules as the environment's.
func settingsFlags(fs *flag.FlagSet, given *[]config.FlagValue) {
	for _, spec := range config.SettingSpecs {
		for _, name := range spec.Flags {
			fs.Func(name, spec.Help, func(v string) error {
				*given = append(*given, config.FlagValue{Name: name, Value: v})
				return nil
			})
		}
	}
}

// Parse reads env and the command line. --help and --version are answered
// here, on out. Settings flags may come before or after the command; their
// values and the environment's are checked once, by config.LoadSettings.
func Parse(args []string, env func(string) string, out io.Writer) (Invocation, error) {
	inv := Invocation{Command: "serve"}
	args = bareHTTPFlag(args)
	var given []config.FlagValue
	fs := newFlagSet("librarian", out)
	settingsFlags(fs, &given)
	version := fs.Bool("version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		// Before any command: --help is the whole program's.
		return helpOrError(Invocation{}, err, out)
	}
	if *version {
		fmt.Fprintf(out, "librarian %s\n", Version)
		return Invocation{Done: true}, nil
	}
	rest := fs.Args()
	if len(rest) > 0 {
		inv.Command, rest = rest[0], rest[1:]
		if inv.Command == "help" {
			usage(out)
			return Invocation{Done: true}, nil
		}
		if !knownCommand(inv.Command) {
			return Invocation{}, fmt.Errorf("unknown command %q (try librarian --help)", inv.Command)
		}
	}
	// The subcommand's own flags are parsed when it runs; settings flags may
	// follow the subcommand too, so peel those off here.
	var err error
	inv.Args, err = settingsFlagsAfter(inv.Command, rest, &given)
	if err != nil {
		return helpOrError(inv, err, out)
	}
	if inv.Command == "index" {
		if inv.Args, given, err = indexTarget(inv.Args, given); err != nil {
			return Invocation{}, err
		}
	}
	if inv.Command == "serve" && len(inv.Args) > 0 {
		return Invocation{}, fmt.Errorf("serve takes no arguments, got %q", inv.Args)
	}
	s, err := config.LoadSettings(env, given)
	if err != nil {
		return Invocation{}, err
	}
	if inv.Command != "serve" {
		s.Commands = domain.CLICommands // hints name what a person runs
	}
	if (inv.Command == "eval" || inv.Command == "gaps") && !s.HasTools("engine") {
		s.Tools = append(s.Tools, "engine")
	}
	if err := s.Validate(); err != nil {
		return Invocation{}, err
	}
	inv.Settings = s
	return inv, nil
}

// settingsFlagsAfter pulls the settings flags out of a subcommand's
// arguments into given, leaving its own flags and operands in order.
func settingsFlagsAfter(cmd string, args []string, given *[]config.FlagValue) ([]string, error) {
	var keep []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			keep = append(keep, args[i:]...)
			break
		}
		name, hasValue := flagName(a)
		if name == "help" || name == "h" {
			return nil, flag.ErrHelp
		}
		if _, ok := config.SettingFlag(name); !ok {
			keep = append(keep, a)
			continue
		}
		value := ""
		if _, v, ok := strings.Cut(a, "="); ok && hasValue {
			value = v
		} else if i+1 < len(args) {
			i++
			value = args[i]
		} else {
			return nil, usageError(cmd, "flag --%s needs a value", name)
		}
		*given = append(*given, config.FlagValue{Name: name, Value: value})
	}
	return keep, nil
}

func newFlagSet(name string, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	_ = out
	return fs
}

func helpOrError(inv Invocation, err error, out io.Writer) (Invocation, error) {
	if errors.Is(err, flag.ErrHelp) {
		Usage(out, inv.Command)
		return Invocation{Done: true, Command: inv.Command}, nil
	}
	if strings.HasPrefix(err.Error(), "flag ") || strings.HasPrefix(err.Error(), "invalid ") { // the flag package's own wording
		return Invocation{}, wordFlagError(inv.Command, err)
	}
	return Invocation{}, err
}
