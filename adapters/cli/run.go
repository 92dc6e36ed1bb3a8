package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
)

// keepStopWait bounds the wait, when a session ends, for the background
// refresh to stop (it stops at its next step: a batch of the first build).
const keepStopWait = 5 * time.Second

// Execute runs a parsed invocation and returns the process exit code:
// 0 success, 1 a finding (check's problems, eval below its bar), 2 misuse
// or failure.
func Execute(ctx context.Context, inv Invocation, deps Deps, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer) int {
	switch inv.Command {
	case "serve":
		if deps.Library != nil && deps.Library.Index() != nil {
			// Bring the index up to date behind the calls: until a doc is
			// indexed, searches read it from its file as before. It stops
			// with the session, before the index is closed.
			keepCtx, stopKeeping := context.WithCancel(ctx)
			kept := make(chan struct{})
			go func() {
				defer close(kept)
				deps.Library.KeepIndexed(keepCtx)
			}()
			defer func() {
				stopKeeping()
				select {
				case <-kept:
				case <-time.After(keepStopWait):
				}
			}()
		}
		serve := func() error { return deps.Serve(ctx, stdin, stdout) }
		if inv.Settings.HTTP.Addr != "" {
			serve = func() error { return deps.ServeHTTP(ctx) }
		}
		if err := serve(); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
			fmt.Fprintln(stderr, "librarian:", err)
			return 2
		}
		return 0
	case "ls":
		return runLs(ctx, deps.Library, inv.Args, stdout, stderr)
	case "check":
		return runCheck(ctx, deps.Library, inv.Args, stdout, stderr)
	case "get":
		return RunGet(ctx, deps.Library, inv.Args, stdout, stderr)
	case "search":
		return RunSearch(ctx, deps.Library, inv.Args, stdout, stderr)
	case "tags":
		return RunTags(ctx, deps.Library, inv.Args, stdout, stderr)
	case "index":
		return runIndex(ctx, deps.Library, inv.Args, stdout, stderr)
	case "eval":
		return RunEval(ctx, deps.Engine, inv.Args, stdout, stderr)
	case "gaps":
		return RunGaps(ctx, deps.Engine, inv.Args, stdout, stderr)
	}
	panic("cli: unknown command " + inv.Command) // Parse admits only known commands
}

// fail prints an error for a person and picks the exit code: a library
// that fails validation is a finding (1), anything else a failure (2).
func fail(stderr io.Writer, err error) int {
	fmt.Fprintln(stderr, "librarian:", err)
	var ie *domain.IndexError
	if errors.As(err, &ie) || errors.Is(err, domain.ErrNotFound) {
		// A finding about the library (a folder or doc that is not there,
		// an invalid index), as get's unmatched selectors: exit 1. A
		// mistake in the command itself is 2.
		return 1
	}
	return 2
}

// lsOptions are ls's own flags.
type lsOptions struct {
	lineBounds                     bool
	sectionDepth, depth, maxTokens int
	folder                         string
	tags                           listFlag
}

func newLsFlags() (*flag.FlagSet, *lsOptions) {
	fs, o := newFlagSet("ls", io.Discard), &lsOptions{}
	fs.BoolVar(&o.lineBounds, "line-bounds", false, "")
	fs.IntVar(&o.sectionDepth, "section-depth", -1, "")
	fs.IntVar(&o.depth, "depth", -1, "")
	fs.StringVar(&o.folder, "folder", "", "")
	fs.IntVar(&o.maxTokens, "max-tokens", -1, "")
	fs.Var(&o.tags, "tags", "")
	return fs, o
}

func runLs(ctx context.Context, lib *library.Library, args []string, stdout, stderr io.Writer) int {
	fs, o := newLsFlags()
	operands, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		Usage(stdout, "ls")
		return 0
	}
	if err != nil {
		return fail(stderr, err)
	}
	folder, err := folderFrom("ls", o.folder, operands, 0)
	if err != nil {
		return fail(stderr, err)
	}
	if given(fs, "max-tokens") && o.maxTokens < 0 {
		return fail(stderr, usageError("ls", "--max-tokens: want 0 (no limit) or more, got %d", o.maxTokens))
	}
	req := browse.ListRequest{Scope: domain.Scope{Root: folder, Tags: o.tags, Depth: o.depth}, LineBounds: o.lineBounds}
	if o.sectionDepth >= 0 {
		req.SectionDepth = &o.sectionDepth
	}
	if given(fs, "max-tokens") {
		req.MaxTokens = &o.maxTokens
	}
	out, err := browse.New(lib).ListDocuments(ctx, req)
	if err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintln(stdout, out)
	return 0
}

func runCheck(ctx context.Context, lib *library.Library, args []string, stdout, stderr io.Writer) int {
	operands, err := parseInterleaved(newFlagSet("check", io.Discard), args)
	if errors.Is(err, flag.ErrHelp) {
		Usage(stdout, "check")
		return 0
	}
	if err != nil {
		return fail(stderr, err)
	}
	if len(operands) > 0 {
		return fail(stderr, usageError("check", "takes no operands, got %q", operands))
	}
	report, err := browse.New(lib).Check(ctx)
	if err != nil {
		var ie *domain.IndexError
		if errors.As(err, &ie) {
			fmt.Fprintln(stdout, err)
			return 1
		}
		return fail(stderr, err)
	}
	if report.Docs == 0 && len(report.Problems) == 0 {
		// A docs CI pointed at the wrong folder must not go green.
		fmt.Fprintln(stderr, "librarian check: no docs found: is --root (or LIBRARY_ROOT) the library's folder?")
		return 1
	}
	fmt.Fprintln(stdout, report.Text())
	if len(report.Problems) > 0 {
		return 1
	}
	return 0
}
