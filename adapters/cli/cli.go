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
	{"index", "librarian index [--to postgres://…]", "build or refresh the library's section index, or a shared PostgreSQL one (progress on a terminal)"},
	{"eval", "librarian eval QUESTIONS.jsonl [--fixture ANSWERS.jsonl]", "score a retrieval engine on questions (seed 004's eval)"},
}

// Version is printed by --version; the main package sets it.
var Version = "0.1.0"

// globalFlags binds the settings' flags on fs. rootName is "root" for
// commands where --root means the library root, "" where --root is the
// command's folder filter (ls, search, tags); --docs-root works everywhere.
func globalFlags(fs *flag.FlagSet, s *app.Settings, rootName string) {
	setRoot := func(v string) error {
		s.Root, s.RootGiven, s.RootSeed001 = v, true, false
		return nil
	}
	fs.Func("docs-root", "library root (env LIBRARY_ROOT or LIBRARIAN_DOCS_ROOT; default ./library)", func(v string) error {
		s.Root, s.RootGiven, s.RootSeed001 = v, true, true // seed 001's flag
		return nil
	})
	if rootName != "" {
		fs.Func(rootName, "library root (same as --docs-root)", setRoot)
	}
	fs.StringVar(&s.Convention, "convention", s.Convention, "library convention: auto, json or frontmatter (env LIBRARY_CONVENTION)")
	fs.StringVar(&s.DocIndex, "doc-index", s.DocIndex, "json convention: doc index relative to the root (env LIBRARY_DOC_INDEX)")
	fs.StringVar(&s.ImageIndex, "image-index", s.ImageIndex, "image index relative to the root (env LIBRARY_IMAGE_INDEX)")
	fs.Func("max-image-bytes", "larger images become placeholders (env LIBRARY_MAX_IMAGE_BYTES; default 5MB)", func(v string) error {
		n, err := app.ParseByteSize(v)
		s.MaxImageBytes = n
		return err
	})
	fs.Func("max-doc-bytes", "larger document files are not read (env LIBRARY_MAX_DOC_BYTES; default 16MB)", func(v string) error {
		n, err := app.ParseByteSize(v)
		s.MaxDocBytes = n
		return err
	})
	fs.IntVar(&s.MaxAnswerTokens, "max-answer-tokens", s.MaxAnswerTokens, "get_documents budget, 0 = none (env LIBRARY_MAX_ANSWER_TOKENS)")
	fs.Func("tools", "tool sets to serve: library, librarian-ts, engine (env LIBRARIAN_TOOLS)", func(v string) error {
		s.Tools = app.SplitList(v)
		return nil
	})
	fs.StringVar(&s.EngineURL, "engine-url", s.EngineURL, "retrieval engine URL (env LIBRARIAN_URL)")
	fs.StringVar(&s.Index, "index", s.Index, "section index: on (a SQLite file per library) or off (in memory) (env LIBRARY_INDEX)")
	fs.StringVar(&s.IndexDir, "index-dir", s.IndexDir, "folder of the index files (env LIBRARY_INDEX_DIR; default the user cache folder's librarian/)")
}

// Parse reads env and the command line. --help and --version are answered
// here, on out.
func Parse(args []string, env func(string) string, out io.Writer) (Invocation, error) {
	s, err := app.SettingsFromEnv(env)
	if err != nil {
		return Invocation{}, err
	}
	inv := Invocation{Command: "serve"}
	fs := newFlagSet("librarian", out)
	globalFlags(fs, &s, "root")
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
	inv.Args, err = settingsFlagsAfter(inv.Command, rest, &s, out)
	if err != nil {
		return helpOrError(inv, err, out)
	}
	if inv.Command == "index" {
		if inv.Args, err = indexTarget(inv.Args, &s); err != nil {
			return Invocation{}, err
		}
	}
	if inv.Command == "serve" && len(inv.Args) > 0 {
		return Invocation{}, fmt.Errorf("serve takes no arguments, got %q", inv.Args)
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
// arguments, leaving its own flags and operands in order.
func settingsFlagsAfter(cmd string, args []string, s *app.Settings, out io.Writer) ([]string, error) {
	rootName := "root"
	if cmd == "ls" || cmd == "search" || cmd == "tags" {
		rootName = ""
	}
	probe := newFlagSet(cmd, out)
	globalFlags(probe, s, rootName)
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
		f := probe.Lookup(name)
		if f == nil {
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
		if err := probe.Set(name, value); err != nil {
			return nil, fmt.Errorf("flag --%s: %v", name, err)
		}
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
				fmt.Fprintln(out, "\nSettings flags (any command): --docs-root DIR, --convention auto|json|frontmatter, --doc-index FILE,")
				fmt.Fprintln(out, "  --image-index FILE, --max-image-bytes N, --max-doc-bytes N, --max-answer-tokens N, --tools LIST, --engine-url URL,")
				fmt.Fprintln(out, "  --index on|off, --index-dir DIR")
				if cmd == "ls" || cmd == "search" || cmd == "tags" {
					fmt.Fprintln(out, "Here --root is the folder to look in; the library root is --docs-root (or --root before the command).")
				}
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
	fmt.Fprintln(out, `
Flags (before or after the command):
  --root, --docs-root DIR   library root (env LIBRARY_ROOT, LIBRARIAN_DOCS_ROOT; default ./library)
  --convention NAME         auto (default), json or frontmatter (env LIBRARY_CONVENTION)
  --doc-index FILE          json doc index, relative to the root (env LIBRARY_DOC_INDEX; index.json)
  --image-index FILE        image index, relative to the root (env LIBRARY_IMAGE_INDEX; images/index.json)
  --max-image-bytes N       larger images become placeholders (env LIBRARY_MAX_IMAGE_BYTES; 5MB)
  --max-doc-bytes N         larger document files are noted, not read (env LIBRARY_MAX_DOC_BYTES; 16MB)
  --max-answer-tokens N     answer budget of get and list, 0 = none (env LIBRARY_MAX_ANSWER_TOKENS; 20000)
  --tools LIST              tool sets: library, librarian-ts, engine (env LIBRARIAN_TOOLS)
  --engine-url URL          retrieval engine (env LIBRARIAN_URL; enables the engine tools)
  --index on|off            section index: a SQLite file per library, or in memory (env LIBRARY_INDEX; on)
  --index-dir DIR           folder of index files (env LIBRARY_INDEX_DIR; the user cache folder's librarian/)
  --version                 print the version
  --help                    this help; "librarian COMMAND --help" for a command
After ls, search and tags, --root names the folder to look in.`)
}
