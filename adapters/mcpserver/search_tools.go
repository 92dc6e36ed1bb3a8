package mcpserver

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/app"
)

// search_documents and list_tags: seed 001's search and tag listing in the
// `library` tool set, answering at line level.

type searchDocumentsArgs struct {
	Query         string   `json:"query" jsonschema:"what to look for: a plain string, a Go RE2 regex when mode is regex, or the words of a question when mode is ranked"`
	Mode          string   `json:"mode,omitempty" jsonschema:"string (a literal, the default), regex (Go RE2 syntax, matched against each line alone) or ranked (the sections that best answer a question in words)"`
	CaseSensitive bool     `json:"case_sensitive,omitempty" jsonschema:"match case exactly; by default case is ignored (Unicode folding)"`
	Root          string   `json:"root,omitempty" jsonschema:"folder to search, relative to the library root ('.' is the whole library)"`
	Tags          []string `json:"tags,omitempty" jsonschema:"search only docs carrying ANY of these tags (exact, case-sensitive)"`
	Depth         *int     `json:"depth,omitempty" jsonschema:"how many path segments below root to descend, the file name included (1 = docs directly in root; root's index.md is always searched); negative is unlimited"`
	MaxResults    *int     `json:"max_results,omitempty" jsonschema:"most hit lines to show (0 = all; default 50); the answer says how many more there were. In ranked mode: how many sections (default 5)"`
}

const searchDocumentsDescription = "Find lines in the library. `query` is a plain string (default, case-insensitive " +
	"unless `case_sensitive`) or, with mode=\"regex\", a Go RE2 regular expression: linear time, no backreferences " +
	"or lookaround, matched against each line on its own (^ and $ are the line's ends; no match spans lines). " +
	"Frontmatter is not searched. `root`, `tags` (ANY of) and `depth` narrow the docs searched. The answer starts " +
	"with a count (\"12 hits in 3 of 40 docs\"), then for each matching doc in path order its id, (path) and tags, " +
	"then one line per hit: `L18 § refresh-tokens/rotation: <the line>` (line number, FULL id of the innermost " +
	"section holding it, the line, cut to ~300 chars around the match). To read around hits, pass them straight to " +
	"get_documents in ONE call: {\"doc\": \"<id>\", \"sections\": [\"<§ id>\"]} for the whole section, or " +
	"{\"doc\": \"<id>\", \"lines\": [from, to]} for a window around the L number. `max_results` caps the hit lines " +
	"shown (default 50); the answer says how many hits it left out. With mode=\"ranked\", `query` is a question in " +
	"words (\"how do I rotate refresh tokens\"; English word forms and code identifiers such as getRuntimeKey or " +
	"max_age match whole or by their parts) and the answer lists the sections that best answer it (default 5), best " +
	"first: `1. <id> (<path>) § <section id> · L<from>–<to> · ~N tokens`, then its best lines as `L<n>: <line>`; pass " +
	"{\"doc\": \"<id>\", \"sections\": [\"<section id>\"]} to get_documents."

type listTagsArgs struct {
	Root         string `json:"root,omitempty" jsonschema:"folder whose docs are counted, relative to the library root ('.' is the whole library)"`
	IncludePaths bool   `json:"include_paths,omitempty" jsonschema:"list under each tag the paths of the docs carrying it"`
	Depth        *int   `json:"depth,omitempty" jsonschema:"how many path segments below root to descend, the file name included (1 = docs directly in root; root's index.md always counts); negative is unlimited"`
}

const listTagsDescription = "List the tags of the library's docs (or of those under `root`), most used first, as " +
	"`- tag (number of docs)` lines. A doc's tags include those it inherits from the index.md files of its folders. " +
	"`include_paths` adds each doc's path (relative to the library root) under its tag. Use a tag in " +
	"list_documents' or search_documents' `tags` filter."

// addSearchTools registers search_documents and list_tags.
func addSearchTools(srv *mcp.Server, lib *app.Library, logger *slog.Logger) {
	searchSchema := schemaFor[searchDocumentsArgs](map[string]any{
		"mode": app.SearchString, "case_sensitive": false, "root": ".", "tags": []string{}, "depth": -1,
	})
	// max_results has no schema default: it depends on the mode (50 hit
	// lines, 5 ranked sections), so the handler fills it in.
	searchSchema.Properties["mode"].Enum = []any{app.SearchString, app.SearchRegex, app.SearchRanked}
	// No "minimum" on max_results: the app's error for a negative one
	// ("'max_results' must be 0 (no limit) or more, got -1") reads better
	// than the schema validator's.
	addTool(srv, &mcp.Tool{
		Name:        "search_documents",
		Description: searchDocumentsDescription,
		Annotations: readOnly("Search documents"),
	}, searchSchema, func(ctx context.Context, call *mcp.CallToolRequest, in searchDocumentsArgs) (*mcp.CallToolResult, error) {
		maxResults := app.DefaultMaxResults
		if in.Mode == app.SearchRanked {
			maxResults = app.DefaultRankedResults
		}
		req := app.SearchRequest{
			Scope:         app.Scope{Root: in.Root, Tags: in.Tags, Depth: derefOr(in.Depth, -1)},
			Query:         in.Query,
			Mode:          in.Mode,
			CaseSensitive: in.CaseSensitive,
			MaxResults:    derefOr(in.MaxResults, maxResults),
			Progress:      indexProgress(ctx, call),
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
