package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/librarian/librarian/app"
	"github.com/librarian/librarian/domain"
)

// Execute runs a parsed invocation and returns the process exit code:
// 0 success, 1 a finding (check's problems, eval below its bar), 2 misuse
// or failure.
func Execute(ctx context.Context, inv Invocation, deps Deps, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer) int {
	switch inv.Command {
	case "serve":
		if deps.Library != nil && deps.Library.Index() != nil {
			// Bring the index up to date behind the calls: until a doc is
			// indexed, searches read it from its file as before.
			go deps.Library.KeepIndexed(ctx)
		}
		if err := deps.Serve(ctx, stdin, stdout); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
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
	}
	panic("cli: unknown command " + inv.Command) // Parse admits only known commands
}

// intList is a flag holding a comma list.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, app.SplitList(v)...); return nil }

// parseInterleaved parses fs over args that mix flags and operands in any
// order, returning the operands.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		if rest[0] == "--" {
			return append(operands, rest[1:]...), nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// fail prints an error for a person and picks the exit code: a library
// that fails validation is a finding (1), anything else a failure (2).
func fail(stderr io.Writer, err error) int {
	fmt.Fprintln(stderr, "librarian:", err)
	var ie *domain.IndexError
	if errors.As(err, &ie) {
		return 1
	}
	return 2
}

func runLs(ctx context.Context, lib *app.Library, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ls", stderr)
	lineBounds := fs.Bool("line-bounds", false, "")
	sectionDepth := fs.Int("section-depth", -1, "")
	depth := fs.Int("depth", -1, "")
	root := fs.String("root", ".", "")
	maxTokens := fs.Int("max-tokens", -1, "")
	var tags listFlag
	fs.Var(&tags, "tags", "")
	operands, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		Usage(stdout, "ls")
		return 0
	}
	if err != nil {
		return fail(stderr, err)
	}
	if len(operands) > 1 {
		return fail(stderr, fmt.Errorf("ls takes at most one FOLDER, got %q", operands))
	}
	if len(operands) == 1 {
		*root = operands[0]
	}
	req := app.ListRequest{Scope: app.Scope{Root: *root, Tags: tags, Depth: *depth}, LineBounds: *lineBounds}
	if *sectionDepth >= 0 {
		req.SectionDepth = sectionDepth
	}
	if *maxTokens >= 0 {
		req.MaxTokens = maxTokens
	}
	out, err := lib.ListDocuments(ctx, req)
	if err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintln(stdout, out)
	return 0
}

func runCheck(ctx context.Context, lib *app.Library, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if args[0] == "--help" || args[0] == "-h" {
			Usage(stdout, "check")
			return 0
		}
		return fail(stderr, fmt.Errorf("check takes no arguments, got %q", args))
	}
	report, err := lib.Check(ctx)
	if err != nil {
		var ie *domain.IndexError
		if errors.As(err, &ie) {
			fmt.Fprintln(stdout, err)
			return 1
		}
		return fail(stderr, err)
	}
	fmt.Fprintln(stdout, report.Text())
	if len(report.Problems) > 0 {
		return 1
	}
	return 0
}
