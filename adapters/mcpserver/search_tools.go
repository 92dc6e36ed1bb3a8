package mcpserver

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/domain"
)

// search_documents and list_tags: seed 001's search and tag listing in the
// `library` tool set, answering at line level.

type searchDocumentsArgs struct {
	Query         string   `json:"query" jsonschema:"what to look for"`
	Mode          string   `json:"mode,omitempty"`
	CaseSensitive bool     `json:"case_sensitive,omitempty"`
	Root          string   `json:"root,omitempty" jsonschema:"folder"`
	Tags          []string `json:"tags,omitempty" jsonschema:"ANY of these"`
	Depth         *int     `json:"depth,omitempty" jsonschema:"levels below root"`
	MaxResults    *int     `json:"max_results,omitempty" jsonschema:"hit lines (50; 0: all); ranked: sections (5)"`
	Context       *int     `json:"context,omitempty" jsonschema:"lines around hits (0-20)"`
	WholeWord     bool     `json:"whole_word,omitempty" jsonschema:"string mode: not inside words"`
}

const searchDocumentsDescription = "Find lines, the cheapest first step: a name or phrase, a Go RE2 regex " +
	"(linear time, per line), or a question (ranked)."

type listTagsArgs struct {
	Root         string `json:"root,omitempty" jsonschema:"folder"`
	IncludePaths bool   `json:"include_paths,omitempty"`
	Depth        *int   `json:"depth,omitempty" jsonschema:"levels below root"`
}

const listTagsDescription = "Tags under root, most used first, with counts."

// addSearchTools registers search_documents and list_tags.
func addSearchTools(srv *mcp.Server, lib *browse.Browser, searcher *search.Searcher, logger *slog.Logger, ceil Ceilings) {
	searchSchema := schemaFor[searchDocumentsArgs](map[string]any{
		"mode": search.SearchString, "case_sensitive": false, "root": ".", "tags": []string{}, "depth": -1,
		"context": 0, "whole_word": false,
	})
	// max_results has no schema default: it depends on the mode (50 hit
	// lines, 5 ranked sections), so the handler fills it in.
	searchSchema.Properties["mode"].Enum = []any{search.SearchString, search.SearchRegex, search.SearchRanked}
	// No "minimum" on max_results: the app's error for a negative one
	// ("'max_results' must be 0 (no limit) or more, got -1") reads better
	// than the schema validator's.
	addTool(srv, &mcp.Tool{
		Name:        "search_documents",
		Description: searchDocumentsDescription,
		Annotations: readOnly("Search documents"),
	}, searchSchema, func(ctx context.Context, call *mcp.CallToolRequest, in searchDocumentsArgs) (*mcp.CallToolResult, error) {
		maxResults := search.DefaultMaxResults
		if in.Mode == search.SearchRanked {
			maxResults = search.DefaultRankedResults
		}
		req := search.SearchRequest{
			Scope:         domain.Scope{Root: in.Root, Tags: in.Tags, Depth: derefOr(in.Depth, -1)},
			Query:         in.Query,
			Mode:          in.Mode,
			CaseSensitive: in.CaseSensitive,
			MaxResults:    derefOr(in.MaxResults, maxResults),
			// A default answer may show a close sixth section, unless
			// this server's ceiling is the default or under it.
			DefaultLimit: in.MaxResults == nil && (ceil.Results <= 0 || ceil.Results > search.DefaultRankedResults),
			Context:      derefOr(in.Context, 0),
			WholeWord:    in.WholeWord,
			Progress:     indexProgress(ctx, call),
		}
		var note string
		if req.MaxResults >= 0 {
			req.MaxResults, note = under(req.MaxResults, ceil.Results, "max_results", "LIBRARIAN_HTTP_MAX_RESULTS")
		}
		out, err := searcher.SearchDocuments(ctx, req)
		if err != nil {
			return nil, toolError(logger, "search_documents", err)
		}
		return withNote(text(out), note), nil
	})

	addTool(srv, &mcp.Tool{
		Name:        "list_tags",
		Description: listTagsDescription,
		Annotations: readOnly("List tags"),
	}, schemaFor[listTagsArgs](map[string]any{"root": ".", "include_paths": false, "depth": -1}),
		func(ctx context.Context, _ *mcp.CallToolRequest, in listTagsArgs) (*mcp.CallToolResult, error) {
			out, err := lib.ListTags(ctx, browse.TagsRequest{Root: in.Root, Depth: derefOr(in.Depth, -1), IncludePaths: in.IncludePaths})
			if err != nil {
				return nil, toolError(logger, "list_tags", err)
			}
			return text(out), nil
		})
}

// indexProgress reports the section index's first build as MCP progress
// notifications, when the client sent a progress token (nil otherwise).
func indexProgress(ctx context.Context, call *mcp.CallToolRequest) func(done, total int) {
	if call == nil || call.Params == nil || call.Session == nil {
		return nil
	}
	token := call.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	last := -1
	return func(done, total int) {
		if done == last {
			return
		}
		last = done
		call.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token, Progress: float64(done), Total: float64(total),
			Message: fmt.Sprintf("indexing the library: %d of %d changed docs", done, total),
		})
	}
}
