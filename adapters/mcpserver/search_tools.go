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
	Query         string   `json:"query" jsonschema:"what to look for: a plain string, or a Go RE2 regex when mode is regex"`
	Mode          string   `json:"mode,omitempty" jsonschema:"string (a literal, the default) or regex (Go RE2 syntax, matched against each line alone)"`
	CaseSensitive bool     `json:"case_sensitive,omitempty" jsonschema:"match case exactly; by default case is ignored (Unicode folding)"`
	Root          string   `json:"root,omitempty" jsonschema:"folder to search, relative to the library root ('.' is the whole library)"`
	Tags          []string `json:"tags,omitempty" jsonschema:"search only docs carrying ANY of these tags (exact, case-sensitive)"`
	Depth         *int     `json:"depth,omitempty" jsonschema:"how many path segments below root to descend, the file name included (1 = docs directly in root; root's index.md is always searched); negative is unlimited"`
	MaxResults    *int     `json:"max_results,omitempty" jsonschema:"most hit lines to show (0 = all); the answer says how many more there were"`
	Context       *int     `json:"context,omitempty" jsonschema:"lines shown before and after each hit (0-20), merged as grep -C"`
	WholeWord     bool     `json:"whole_word,omitempty" jsonschema:"string mode: match whole words only (port, not import)"`
}

const searchDocumentsDescription = "Find lines in the library: the cheapest first step when you have a name or " +
	"an exact phrase. `query` is a plain string (case-insensitive unless `case_sensitive`; `whole_word` skips " +
	"matches inside longer words) or, with mode=\"regex\", Go RE2 (linear time, no lookaround or backreferences), " +
	"matched per line. Frontmatter is not searched. `root`, `tags` (ANY of) and `depth` narrow the docs. " +
	"Per doc: `id (path) ~tokens`; per section holding hits, once: `§ <FULL id> L18–38 ~tokens`; per hit " +
	"`L21: <line>` (`L26 [go code]:` inside code; a table row also shows its header row). `context: N` adds N " +
	"lines around hits as `L20- <line>`, merged like grep -C. Then fetch in ONE get_documents call exactly what " +
	"the hits name: {\"doc\": \"<id>\", \"sections\": [\"<§ id>\"]} or {\"doc\": \"<id>\", \"lines\": [from, to]}. " +
	"`max_results` caps hit lines (default 50) and the answer says how many it left out."

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
