// Package cli is the command-line driving adapter: it reads settings from
// the environment and flags, and runs a subcommand for a person (ls, check,
// get, search, tags, eval) or serves MCP on stdio when there is none. Like
// the MCP adapter it only translates: every answer comes from package app.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/librarian/librarian/app"
)

// Invocation is a parsed command line: the settings for the app graph, the
// subcommand ("serve" when none) and its own arguments.
type Invocation struct {
	Settings app.Settings
	Command  string
	Args     []string
	// Done is set when the command line was fully handled while parsing
	// (--help, --version); ExitCode is then the process's exit code.
	Done     bool
	ExitCode int
}

// Deps are what the subcommands run on, built by the fx graph.
type Deps struct {
	Library *app.Library
	Engine  *app.Engine
	// Serve runs the MCP server over the given streams until the input ends
	// and every request read has been answered.
	Serve func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error
}

type command struct {
	name, usage, summary string
}

var commands = []command{
	{"serve", "librarian [serve] [flags]", "serve MCP on stdio (the default; for .mcp.json)"},
	{"ls", "librarian ls [FOLDER] [--line-bounds] [--section-depth N] [--tags a,b] [--depth N] [--max-tokens N]", "print the library tree and outlines"},
	{"check", "librarian check", "validate the library: print every problem, exit 1 if any"},
	{"get", "librarian get SELECTOR... [--include-images] [--include-code=false] [--max-tokens N]", "print docs, sections or line ranges (ids, paths or JSON selectors)"},
	{"search", "librarian search QUERY [--regex] [--case-sensitive] [--tags a,b] [--root FOLDER] [--depth N] [--max-results N]", "search lines of the library"},
	{"tags", "librarian tags [--root FOLDER] [--include-paths] [--depth N]", "list tags, most used first"},
	{"eval", "librarian eval QUESTIONS.jsonl [--fixture ANSWERS.jsonl]", "score a retrieval engine on questions (seed 004's eval)"},
}

// Version is printed by --version; the main package sets it.
var Version = "0.1.0"

// settingsFlags binds every setting's flags (app.SettingSpecs) on fs. They
// only record what was written, in order: app.LoadSettings checks the
// values, by the same rules as the environment's.
func settingsFlags(fs *flag.FlagSet, given *[]app.FlagValue) {
	for _, spec := range app.SettingSpecs {
		for _, name := range spec.Flags {
			fs.Func(name, spec.Help, func(v string) error {
				*given = append(*given, app.FlagValue{Name: name, Value: v})
				return nil
			})
		}
	}
}

// Parse reads env and the command line. --help and --version are answered
// here, on out. Settings flags may come before or after the command; their
// values and the environment's are checked once, by app.LoadSettings.
func Parse(args []string, env func(string) string, out io.Writer) (Invocation, error) {
	inv := Invocation{Command: "serve"}
	var given []app.FlagValue
	fs := newFlagSet("librarian", out)
	settingsFlags(fs, &given)
	version := fs.Bool("version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		return helpOrError(inv, err, out)
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
	inv.Args, err = settingsFlagsAfter(rest, &given)
	if err != nil {
		return helpOrError(inv, err, out)
	}
	if inv.Command == "serve" && len(inv.Args) > 0 {
		return Invocation{}, fmt.Errorf("serve takes no arguments, got %q", inv.Args)
	}
	s, err := app.LoadSettings(env, given)
	if err != nil {
		return Invocation{}, err
	}
	if inv.Command == "eval" && !s.HasTools("engine") {
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
func settingsFlagsAfter(args []string, given *[]app.FlagValue) ([]string, error) {
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
		if _, ok := app.SettingFlag(name); !ok {
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
			return nil, fmt.Errorf("flag --%s needs a value", name)
		}
		*given = append(*given, app.FlagValue{Name: name, Value: value})
	}
	return keep, nil
}

// flagName returns the name of a -flag or --flag argument ("" if a is not
// a flag) and whether it carries "=value".
func flagName(a string) (string, bool) {
	if len(a) < 2 || a[0] != '-' {
		return "", false
	}
	n := strings.TrimLeft(a, "-")
	name, _, has := strings.Cut(n, "=")
	return name, has
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
	return Invocation{}, err
}

func knownCommand(name string) bool {
	for _, c := range commands {
		if c.name == name {
			return true
		}
	}
	return false
}

// Usage prints the help for cmd ("" or "serve": the whole program).
func Usage(out io.Writer, cmd string) {
	if cmd != "" && cmd != "serve" {
		for _, c := range commands {
			if c.name == cmd {
				fmt.Fprintf(out, "usage: %s\n\n%s.\n", c.usage, c.summary)
				fmt.Fprintln(out, "\nSettings flags (any command, before or after it; see librarian --help):")
				fmt.Fprint(out, settingsHelp())
				return
			}
		}
	}
	usage(out)
}

func usage(out io.Writer) {
	fmt.Fprintln(out, "librarian: serves a markdown library to coding agents over MCP (stdio).")
	fmt.Fprintln(out, "\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(out, "  %-7s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(out, "\nUsage:")
	for _, c := range commands {
		fmt.Fprintf(out, "  %s\n", c.usage)
	}
	fmt.Fprintln(out, "\nSettings flags (before or after the command; a flag beats its env var):")
	fmt.Fprint(out, settingsHelp())
	fmt.Fprintln(out, `  --version                 print the version
  --help                    this help; "librarian COMMAND --help" for a command`)
}

// settingsHelp lists the settings flags from app.SettingSpecs, each with
// its env vars and default.
func settingsHelp() string {
	var b strings.Builder
	for _, spec := range app.SettingSpecs {
		if len(spec.Flags) == 0 {
			continue
		}
		names := "--" + strings.Join(spec.Flags, ", --") + " " + spec.Value
		about := "env " + strings.Join(spec.Env, ", ")
		if spec.Default != "" {
			about += "; default " + spec.Default
		}
		fmt.Fprintf(&b, "  %-25s %s (%s)\n", names, spec.Help, about)
	}
	return b.String()
}
