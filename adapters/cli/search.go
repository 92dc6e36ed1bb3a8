package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/librarian/librarian/app"
)

// RunSearch is `librarian search QUERY [--regex] [--case-sensitive]
// [--whole-word] [--context N] [--tags a,b] [--root DIR] [--depth N]
// [--max-results N]`: search_documents'
// answer, for a person. Flags and the query may come in any order; a query
// starting with '-' goes after `--`. It returns the exit code: 0 with or
// without hits, 2 for misuse or failure.
func RunSearch(ctx context.Context, lib *app.Library, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("search", stderr)
	regex := fs.Bool("regex", false, "")
	caseSensitive := fs.Bool("case-sensitive", false, "")
	wholeWord := fs.Bool("whole-word", false, "")
	context := fs.Int("context", 0, "")
	root := fs.String("root", ".", "")
	depth := fs.Int("depth", -1, "")
	maxResults := fs.Int("max-results", app.DefaultMaxResults, "")
	var tags listFlag
	fs.Var(&tags, "tags", "")
	operands, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		Usage(stdout, "search")
		return 0
	}
	if err != nil {
		return fail(stderr, err)
	}
	if len(operands) != 1 {
		return fail(stderr, fmt.Errorf("search takes one QUERY (quote a phrase; put a query starting with '-' after --), got %d: %q", len(operands), operands))
	}
	req := app.SearchRequest{
		Scope:         app.Scope{Root: *root, Tags: tags, Depth: *depth},
		Query:         operands[0],
		Mode:          app.SearchString,
		CaseSensitive: *caseSensitive,
		MaxResults:    *maxResults,
		Context:       *context,
		WholeWord:     *wholeWord,
	}
	if *regex {
		req.Mode = app.SearchRegex
	}
	out, err := lib.SearchDocuments(ctx, req)
	if err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintln(stdout, out)
	return 0
}

// RunTags is `librarian tags [--root DIR] [--include-paths] [--depth N]`:
// list_tags' answer, for a person.
func RunTags(ctx context.Context, lib *app.Library, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("tags", stderr)
	root := fs.String("root", ".", "")
	includePaths := fs.Bool("include-paths", false, "")
	depth := fs.Int("depth", -1, "")
	operands, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		Usage(stdout, "tags")
		return 0
	}
	if err != nil {
		return fail(stderr, err)
	}
	if len(operands) > 0 {
		return fail(stderr, fmt.Errorf("tags takes no operands (use --root FOLDER), got %q", operands))
	}
	out, err := lib.ListTags(ctx, app.TagsRequest{Root: *root, Depth: *depth, IncludePaths: *includePaths})
	if err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintln(stdout, out)
	return 0
}
