package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/domain"
)

// searchOptions are search's own flags.
type searchOptions struct {
	regex, ranked, caseSensitive, wholeWord bool
	folder                                  string
	depth, maxResults, context              int
	maxGiven                                bool // --max-results was given (its default depends on the mode)
	tags                                    listFlag
	json                                    bool
}

func newSearchFlags() (*flag.FlagSet, *searchOptions) {
	fs, o := newFlagSet("search", io.Discard), &searchOptions{}
	fs.BoolVar(&o.regex, "regex", false, "")
	fs.BoolVar(&o.ranked, "ranked", false, "")
	fs.BoolVar(&o.caseSensitive, "case-sensitive", false, "")
	fs.BoolVar(&o.wholeWord, "whole-word", false, "")
	fs.IntVar(&o.context, "context", 0, "")
	fs.StringVar(&o.folder, "folder", "", "")
	fs.IntVar(&o.depth, "depth", -1, "")
	fs.Func("max-results", "", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("want a whole number, got %q", v)
		}
		o.maxResults, o.maxGiven = n, true
		return nil
	})
	fs.Var(&o.tags, "tags", "")
	fs.BoolVar(&o.json, "json", false, "")
	return fs, o
}

// RunSearch is `librarian search QUERY [FOLDER] [--regex|--ranked]
// [--case-sensitive] [--whole-word] [--context N] [--tags a,b]
// [--folder FOLDER] [--depth N] [--max-results N]`: search_documents'
// answer, for a person. Flags and
// operands may come in any order; a query starting with '-' goes after
// `--`. It returns the exit code: 0 with or without hits, 2 for misuse or
// failure.
func RunSearch(ctx context.Context, lib *library.Library, args []string, stdout, stderr io.Writer) int {
	rep := reporterFor(stderr, args)
	fs, o := newSearchFlags()
	operands, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		Usage(stdout, "search")
		return 0
	}
	if err != nil {
		return rep.fail(err)
	}
	if len(operands) == 0 || len(operands) > 2 {
		return rep.fail(usageError("search", "takes one QUERY and at most one FOLDER (quote a phrase; put a query starting with '-' after --), got %d: %q", len(operands), operands))
	}
	folder, err := folderFrom("search", o.folder, operands, 1)
	if err != nil {
		return rep.fail(err)
	}
	if strings.TrimSpace(operands[0]) == "" {
		return rep.fail(usageError("search", "QUERY is empty: give a string or, with --regex, a regex to look for"))
	}
	if o.regex && o.ranked {
		return rep.fail(usageError("search", "--regex and --ranked are two modes: give one"))
	}
	if !o.maxGiven {
		o.maxResults = search.DefaultMaxResults
		if o.ranked {
			o.maxResults = search.DefaultRankedResults
		}
	}
	if o.maxResults < 0 {
		return rep.fail(usageError("search", "--max-results: want 0 (no limit) or more, got %d", o.maxResults))
	}
	req := search.SearchRequest{
		Scope:         domain.Scope{Root: folder, Tags: o.tags, Depth: o.depth},
		Query:         operands[0],
		Mode:          search.SearchString,
		CaseSensitive: o.caseSensitive,
		MaxResults:    o.maxResults,
		DefaultLimit:  !o.maxGiven,
		Context:       o.context,
		WholeWord:     o.wholeWord,
	}
	switch {
	case o.regex:
		req.Mode = search.SearchRegex
	case o.ranked:
		req.Mode = search.SearchRanked
	}
	if o.json {
		if o.context > 0 {
			return rep.fail(usageError("search", "--context shapes the text answer; --json gives each hit's line number and its section's lines: fetch around it with librarian get"))
		}
		res, err := search.New(lib).SearchData(ctx, req)
		if err != nil {
			return rep.fail(err)
		}
		return rep.writeJSON(stdout, resultJSON(res, o.caseSensitive), 0)
	}
	out, err := search.New(lib).SearchDocuments(ctx, req)
	if err != nil {
		return rep.fail(err)
	}
	fmt.Fprintln(stdout, out)
	return 0
}

// tagsOptions are tags' own flags.
type tagsOptions struct {
	folder       string
	includePaths bool
	depth        int
	json         bool
}

func newTagsFlags() (*flag.FlagSet, *tagsOptions) {
	fs, o := newFlagSet("tags", io.Discard), &tagsOptions{}
	fs.StringVar(&o.folder, "folder", "", "")
	fs.BoolVar(&o.includePaths, "include-paths", false, "")
	fs.IntVar(&o.depth, "depth", -1, "")
	fs.BoolVar(&o.json, "json", false, "")
	return fs, o
}

// RunTags is `librarian tags [FOLDER] [--folder FOLDER] [--include-paths]
// [--depth N]`: list_tags' answer, for a person.
func RunTags(ctx context.Context, lib *library.Library, args []string, stdout, stderr io.Writer) int {
	rep := reporterFor(stderr, args)
	fs, o := newTagsFlags()
	operands, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		Usage(stdout, "tags")
		return 0
	}
	if err != nil {
		return rep.fail(err)
	}
	folder, err := folderFrom("tags", o.folder, operands, 0)
	if err != nil {
		return rep.fail(err)
	}
	if o.json {
		tl, err := browse.New(lib).TagsData(ctx, browse.TagsRequest{Root: folder, Depth: o.depth})
		if err != nil {
			return rep.fail(err)
		}
		return rep.writeJSON(stdout, tagListJSON(tl), 0)
	}
	out, err := browse.New(lib).ListTags(ctx, browse.TagsRequest{Root: folder, Depth: o.depth, IncludePaths: o.includePaths})
	if err != nil {
		return rep.fail(err)
	}
	fmt.Fprintln(stdout, out)
	return 0
}
