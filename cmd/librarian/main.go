// Command librarian serves a markdown library to coding agents over MCP on
// stdio, and answers the same questions on the command line for people.
// It only parses the command line, builds the fx graph and runs.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxevent"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/cli"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/app/appfx"
	"github.com/librarian/librarian/app/config"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the whole program, testable: every log line goes to stderr,
// stdout carries only the MCP stream or a command's answer.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer) int {
	cli.Version = appfx.Version
	// --json: errors are one JSON object on stderr, log lines are JSON too
	// (docs/command-line.md), so that a script reads stderr line by line.
	asJSON := cli.WantsJSON(args)
	fail := func(err error) { cli.PrintError(stderr, asJSON, err, 2) }
	inv, err := cli.Parse(args, getenv, stdout)
	if err != nil {
		fail(cli.WithKind("usage", err)) // the command line or a setting's value
		return 2
	}
	if inv.Done {
		return inv.ExitCode
	}
	defer startProfiles(getenv, stderr)()
	serveHTTP := inv.Command == "serve" && inv.Settings.HTTP.Addr != ""
	// Over HTTP the default level is info, for the access log; fx's own
	// start-up lines stay at warn unless LIBRARIAN_LOG asks for more.
	level, fxLevel := logLevel(getenv("LIBRARIAN_LOG"), serveHTTP), logLevel(getenv("LIBRARIAN_LOG"), false)
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if asJSON {
		logger = slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))
	}
	// One log format on stderr: what logs through slog's default (the
	// markdown parser's warnings) goes through the same handler.
	slog.SetDefault(logger)
	fxLogger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: fxLevel}))
	// fx builds only what the command needs: eval needs no library, the
	// other commands no engine unless the MCP server serves its tools.
	var deps cli.Deps
	var server *mcp.Server
	var httpServer *mcpserver.HTTPServer
	var targets []any
	// index --list and --prune are about the local index files: no library.
	indexFiles := inv.Command == "index" && cli.IndexFilesOnly(inv.Args)
	switch inv.Command {
	case "eval":
		// No library and no engine named: nothing to ask (RunEval says so)
		// rather than retrying seed 004's default URL for 14 s.
		if s := inv.Settings; appfx.EngineChoice(s) == config.EngineLocal || s.EngineURL != "" || s.Engine != "" {
			targets = []any{&deps.Engine}
		}
	case "gaps":
		if appfx.EngineChoice(inv.Settings) == config.EngineLocal {
			targets = []any{&deps.Engine}
		}
	case "serve":
		targets = []any{&server}
		if serveHTTP {
			targets = []any{&httpServer}
		}
	case "index":
		targets = []any{&deps.Library}
		if indexFiles {
			targets = []any{&deps.IndexFiles}
		}
	default:
		targets = []any{&deps.Library}
	}
	if inv.Command == "serve" {
		inv.Settings.IndexWait = true // a shared index's database may come up after the server
	}
	if err := appfx.CheckRoot(inv.Settings); err != nil && inv.Command != "eval" && inv.Command != "gaps" && !indexFiles {
		s := &inv.Settings
		switch {
		case appfx.FromIndexOnly(*s) && inv.Command != "index" && inv.Command != "check":
			// LIBRARY_INDEX=postgres://… and no library: serve from the index.
			logger.Info("no library root: serving from the section index alone", "err", err)
		case inv.Command == "serve" && !s.RootGiven && s.ToolsDefaulted && s.HasTools("engine") && s.Engine != config.EngineLocal:
			// Seed 004's setup names only LIBRARIAN_URL: serve the engine
			// tools alone rather than fail on a library nobody asked for.
			logger.Warn("no library: serving the engine tools only", "err", err)
			s.Tools = []string{"engine"}
		case inv.Command != "serve" || s.NeedsLibrary():
			if abs := absoluteOperand(inv.Args); abs != "" && !s.RootGiven {
				// "librarian ls /path/to/mylib" from a folder with no
				// ./library: the operand was meant as the library.
				msg := fmt.Sprintf("%s: %q is an absolute path, but a folder is relative to the library root; to use %s as the library, write --root %s",
					inv.Command, abs, abs, abs)
				if asJSON {
					fail(cli.WithKind("usage", errors.New(msg)))
				} else {
					fmt.Fprintln(stderr, "librarian "+msg)
				}
				return 2
			}
			fail(cli.WithKind("startup", err))
			return 2
		}
	}
	if serveHTTP {
		if err := appfx.CheckHTTP(inv.Settings); err != nil {
			fail(cli.WithKind("startup", err))
			return 2
		}
	}
	if inv.Command == "serve" && inv.Settings.NeedsLibrary() {
		targets = append(targets, &deps.Library) // to keep its index up to date
	}
	// fx's own events (the wiring, a failed constructor with its stack) are
	// for LIBRARIAN_LOG=debug: a start-up failure is printed once, below,
	// as the setting or file that failed and why.
	fxEvents := func() fxevent.Logger { return fxevent.NopLogger }
	if fxLevel <= slog.LevelDebug {
		fxEvents = func() fxevent.Logger { return &fxevent.SlogLogger{Logger: fxLogger} }
	}
	fxApp := fx.New(
		appfx.Module(inv.Settings, logger),
		fx.Populate(targets...),
		fx.WithLogger(fxEvents),
	)
	if err := fxApp.Err(); err != nil {
		logger.Debug("start-up failed", "err", err.Error())
		fail(cli.WithKind("startup", startupCause(err)))
		return 2
	}
	// Starting and stopping the graph closes what holds writes in flight
	// (the section index's text snapshot, the frontmatter metadata cache)
	// once the command is done.
	if err := fxApp.Start(ctx); err != nil {
		logger.Debug("start-up failed", "err", err.Error())
		fail(cli.WithKind("startup", startupCause(err)))
		return 2
	}
	defer func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := fxApp.Stop(stopCtx); err != nil {
			logger.Warn("closing the index", "err", err.Error())
		}
	}()
	deps.Serve = func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return server.Run(ctx, &mcpserver.StdioTransport{In: in, Out: out, Logger: logger})
	}
	deps.ServeHTTP = func(ctx context.Context) error { return httpServer.ListenAndServe(ctx) }
	return cli.Execute(ctx, inv, deps, stdin, stdout, stderr)
}

// logLevel reads LIBRARIAN_LOG (debug, info, warn, error); by default warn,
// so fx's start-up chatter stays out of the way, or info over HTTP, for the
// access log.
// absoluteOperand is the first operand of args (not a flag) that is the
// absolute path of a folder, "" when there is none.
func absoluteOperand(args []string) string {
	for _, a := range args {
		if strings.HasPrefix(a, "-") || !filepath.IsAbs(a) {
			continue
		}
		if fi, err := os.Stat(a); err == nil && fi.IsDir() {
			return a
		}
	}
	return ""
}

// startupCause is what a failed start-up says to a person: the error a
// constructor returned (it names the setting or file and why), without
// the dependency graph's wrapping around it ("could not build arguments for
// function … failed to build *library.Library: …"), on its first line (a
// driver's detail, such as each address it dialled, stays in the debug
// log).
func startupCause(err error) error {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if t := fmt.Sprintf("%T", e); !strings.Contains(t, "dig.") && !strings.Contains(t, "fx.") {
			err = e
			break
		}
	}
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return errors.New(strings.TrimSuffix(msg, ":"))
}

func logLevel(v string, serveHTTP bool) slog.Level {
	if v == "" && serveHTTP {
		return slog.LevelInfo
	}
	switch strings.ToLower(v) {
	case "debug":
		return slog.LevelDebug
	case "info":
		return slog.LevelInfo
	case "error":
		return slog.LevelError
	}
	return slog.LevelWarn
}
