package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
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
		return runIndex(ctx, deps.Library, deps.IndexFiles, inv.Args, stdout, stderr)
	case "eval":
		return RunEval(ctx, deps.Engine, inv.Args, stdout, stderr)
	case "gaps":
		return RunGaps(ctx, deps.Engine, inv.Args, stdout, stderr)
	}
	panic("cli: unknown command " + inv.Command) // Parse admits only known commands
}

// fail prints an error for a person and picks the exit code: a finding
// about the library (a folder or doc that is not there, an invalid index)
// is 1, anything else 2 (see reporter.fail).
func fail(stderr io.Writer, err error) int {
	return reporter{stderr: stderr}.fail(err)
}

// lsOptions are ls's own flags.
type lsOptions struct {
	lineBounds                     bool
	sectionDepth, depth, maxTokens int
	folder                         string
	tags                           listFlag
	json                           bool
}

func newLsFlags() (*flag.FlagSet, *lsOptions) {
	fs, o := newFlagSet("ls", io.Discard), &lsOptions{}
	fs.BoolVar(&o.lineBounds, "line-bounds", false, "")
	fs.IntVar(&o.sectionDepth, "section-depth", -1, "")
	fs.IntVar(&o.depth, "depth", -1, "")
	fs.StringVar(&o.folder, "folder", "", "")
	fs.IntVar(&o.maxTokens, "max-tokens", -1, "")
	fs.Var(&o.tags, "tags", "")
	fs.BoolVar(&o.json, "json", false, "")
	return fs, o
}

func runLs(ctx context.Context, lib *library.Library, args []string, stdout, stderr io.Writer) int {
	rep := reporterFor(stderr, args)
	fs, o := newLsFlags()
	operands, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		Usage(stdout, "ls")
		return 0
	}
	if err != nil {
		return rep.fail(err)
	}
	folder, err := folderFrom("ls", o.folder, operands, 0)
	if err != nil {
		return rep.fail(err)
	}
	if given(fs, "max-tokens") && o.maxTokens < 0 {
		return rep.fail(usageError("ls", "--max-tokens: want 0 (no limit) or more, got %d", o.maxTokens))
	}
	if o.json && given(fs, "max-tokens") {
		return rep.fail(usageError("ls", "--max-tokens bounds the text listing; --json lists every doc in scope: narrow it with FOLDER, --tags or --depth"))
	}
	req := browse.ListRequest{Scope: domain.Scope{Root: folder, Tags: o.tags, Depth: o.depth}, LineBounds: o.lineBounds}
	if o.sectionDepth >= 0 {
		req.SectionDepth = &o.sectionDepth
	}
	if given(fs, "max-tokens") {
		req.MaxTokens = &o.maxTokens
	}
	if o.json {
		listing, err := browse.New(lib).ListData(ctx, req)
		if err != nil {
			return rep.fail(err)
		}
		return rep.writeJSON(stdout, listingJSON(listing), 0)
	}
	out, err := browse.New(lib).ListDocuments(ctx, req)
	if err != nil {
		return rep.fail(err)
	}
	fmt.Fprintln(stdout, out)
	return 0
}

// checkOptions are check's own flags.
type checkOptions struct {
	max  int
	json bool
}

// defaultCheckMax is how many problems check prints by default: enough for
// any docs CI to fix in one go, while a folder of unrelated files (211,734
// problems, seen) still prints a page, not a flood.
const defaultCheckMax = 200

func newCheckFlags() (*flag.FlagSet, *checkOptions) {
	fs, o := newFlagSet("check", io.Discard), &checkOptions{}
	fs.IntVar(&o.max, "max", defaultCheckMax, "")
	fs.BoolVar(&o.json, "json", false, "")
	return fs, o
}

func runCheck(ctx context.Context, lib *library.Library, args []string, stdout, stderr io.Writer) int {
	rep := reporterFor(stderr, args)
	fs, o := newCheckFlags()
	operands, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		Usage(stdout, "check")
		return 0
	}
	if err != nil {
		return rep.fail(err)
	}
	if len(operands) > 0 {
		return rep.fail(usageError("check", "takes no operands, got %q", operands))
	}
	if o.max < 0 {
		return rep.fail(usageError("check", "--max: want 0 (every problem) or more, got %d", o.max))
	}
	report, err := browse.New(lib).Check(ctx)
	if err != nil {
		var ie *domain.IndexError
		if !errors.As(err, &ie) {
			return rep.fail(err)
		}
		// An invalid index is check's finding: its problems, on stdout.
		if o.json {
			problems := make([]string, len(ie.Problems))
			for i, p := range ie.Problems {
				problems[i] = p.String()
			}
			return rep.writeJSON(stdout, checkJSON{Problems: problems, Warnings: []string{}, InvalidIndex: ie.File}, 1)
		}
		fmt.Fprintln(stdout, indexErrorText(ie, o.max))
		return 1
	}
	if report.Docs == 0 && len(report.Problems) == 0 {
		// A docs CI pointed at the wrong folder must not go green.
		return rep.finding(errors.New("check: no docs found: is --root (or LIBRARY_ROOT) the library's folder?"), "not_found")
	}
	code := 0
	if len(report.Problems) > 0 {
		code = 1
	}
	if o.json {
		return rep.writeJSON(stdout, checkJSON{OK: code == 0, Docs: report.Docs, ProblemDocs: report.ProblemDocs,
			Problems: orEmpty(report.Problems), Warnings: orEmpty(report.Warnings)}, code)
	}
	fmt.Fprintln(stdout, report.TextMax(o.max, "librarian check --json lists them all, --max 0 prints them all"))
	return code
}

// indexErrorText is an invalid index's error as check prints it: its
// problems, at most max of them (0: all), and how many more there are.
func indexErrorText(ie *domain.IndexError, max int) string {
	if max == 0 || len(ie.Problems) <= max {
		return ie.Error()
	}
	header, _, _ := strings.Cut(ie.Error(), "\n")
	var b strings.Builder
	b.WriteString(header)
	for _, p := range ie.Problems[:max] {
		b.WriteString("\n- ")
		b.WriteString(p.String())
	}
	left := len(ie.Problems) - max
	fmt.Fprintf(&b, "\n… and %d more %s (librarian check --json lists them all, --max 0 prints them all)", left, plural(left, "problem", "problems"))
	return b.String()
}
