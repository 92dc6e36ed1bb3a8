package mcpserver

import (
	"context"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/app"
)

// search_documents and list_tags: seed 001's search and tag listing in the
// `library` tool set, answering at line level.

type searchDocumentsArgs struct {
	Query         string   `json:"query" jsonschema:"what to look for: a string, or a Go RE2 regex with mode regex"`
	Mode          string   `json:"mode,omitempty" jsonschema:"string (a literal) or regex (Go RE2, per line)"`
	CaseSensitive bool     `json:"case_sensitive,omitempty" jsonschema:"match case exactly (default: Unicode folding)"`
	Root          string   `json:"root,omitempty" jsonschema:"folder to search ('.' is the whole library)"`
	Tags          []string `json:"tags,omitempty" jsonschema:"only docs carrying ANY of these tags"`
	Depth         *int     `json:"depth,omitempty" jsonschema:"path segments below root, the file name included (1 = root's own docs); negative: all"`
	MaxResults    *int     `json:"max_results,omitempty" jsonschema:"most hit lines shown (0 = all)"`
	Context       *int     `json:"context,omitempty" jsonschema:"lines shown before and after each hit (0-20), merged as grep -C"`
	WholeWord     bool     `json:"whole_word,omitempty" jsonschema:"string mode: whole words only (port, not import)"`
}

const searchDocumentsDescription = "Find lines: the cheapest first step for a name or an exact phrase. " +
	"`query` is a string (case-insensitive unless `case_sensitive`; `whole_word` skips matches inside words) or, " +
	"with mode=\"regex\", Go RE2 (linear time) matched per line. `root`, `tags`, `depth` narrow the docs. The answer: per doc " +
	"`id (path) ~tokens`; per section, once, `§ FULL-ID L18–38 ~tokens`; per hit `L21: line` (`L26 [go code]:` in " +
	"code; a table row brings its header row); `context: N` adds `L20- line` around hits. Then ONE get_documents " +
	"call with exactly the sections or lines the hits name."

type listTagsArgs struct {
	Root         string `json:"root,omitempty" jsonschema:"folder whose docs are counted ('.' is the whole library)"`
	IncludePaths bool   `json:"include_paths,omitempty" jsonschema:"list each tag's doc paths under it"`
	Depth        *int   `json:"depth,omitempty" jsonschema:"path segments below root, the file name included (1 = root's own docs); negative: all"`
}

const listTagsDescription = "List the tags of the docs under `root`, most used first: `- tag (docs)`. Tags include " +
	"those inherited from folders' index.md files. Use one in list_documents' or search_documents' `tags`."

// addSearchTools registers search_documents and list_tags.
func addSearchTools(srv *mcp.Server, lib *app.Library, logger *slog.Logger) {
	searchSchema := schemaFor[searchDocumentsArgs](map[string]any{
		"mode": app.SearchString, "case_sensitive": false, "root": ".", "tags": []string{}, "depth": -1, "max_results": app.DefaultMaxResults,
		"context": 0, "whole_word": false,
	})
	searchSchema.Properties["mode"].Enum = []any{app.SearchString, app.SearchRegex}
	// No "minimum" on max_results: the app's error for a negative one
	// ("'max_results' must be 0 (no limit) or more, got -1") reads better
	// than the schema validator's.
	addTool(srv, &mcp.Tool{
		Name:        "search_documents",
		Description: searchDocumentsDescription,
		Annotations: readOnly("Search documents"),
	}, searchSchema, func(ctx context.Context, _ *mcp.CallToolRequest, in searchDocumentsArgs) (*mcp.CallToolResult, error) {
		req := app.SearchRequest{
			Scope:         app.Scope{Root: in.Root, Tags: in.Tags, Depth: derefOr(in.Depth, -1)},
			Query:         in.Query,
			Mode:          in.Mode,
			CaseSensitive: in.CaseSensitive,
			MaxResults:    derefOr(in.MaxResults, app.DefaultMaxResults),
			Context:       derefOr(in.Context, 0),
			WholeWord:     in.WholeWord,
		}
		out, err := lib.SearchDocuments(ctx, req)
		if err != nil {
			return nil, toolError(logger, "search_documents", err)
		}
		return text(out), nil
	})

	addTool(srv, &mcp.Tool{
		Name:        "list_tags",
		Description: listTagsDescription,
		Annotations: readOnly("List tags"),
	}, schemaFor[listTagsArgs](map[string]any{"root": ".", "include_paths": false, "depth": -1}),
		func(ctx context.Context, _ *mcp.CallToolRequest, in listTagsArgs) (*mcp.CallToolResult, error) {
			out, err := lib.ListTags(ctx, app.TagsRequest{Root: in.Root, Depth: derefOr(in.Depth, -1), IncludePaths: in.IncludePaths})
			if err != nil {
				return nil, toolError(logger, "list_tags", err)
			}
			return text(out), nil
		})
}
