package mcpserver

import (
	"context"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/app"
)

// The `library` tool set: seed 000's browse-and-fetch tools plus search and
// tags, in snake_case. Each handler translates its arguments and calls app.

type listDocumentsArgs struct {
	Root         string   `json:"root,omitempty" jsonschema:"folder to list, relative to the library root ('.' is the whole library)"`
	LineBounds   bool     `json:"line_bounds,omitempty" jsonschema:"add each section's line range (L18–38), for line-range selectors"`
	SectionDepth *int     `json:"section_depth,omitempty" jsonschema:"cap the outline's heading levels: 2 shows # and ## headings, 0 no outline; omit it to show all"`
	Tags         []string `json:"tags,omitempty" jsonschema:"keep only docs carrying ANY of these tags (exact, case-sensitive)"`
	Depth        *int     `json:"depth,omitempty" jsonschema:"how many path segments below root to descend, the file name included (1 = docs directly in root); negative is unlimited"`
	MaxTokens    *int     `json:"max_tokens,omitempty" jsonschema:"answer budget in tokens; past it the listing stops at a whole doc and names the folders left out; 0 = no limit"`
}

const listDocumentsDescription = "Browse the library: a tree of folders (doc count, token sum) and docs " +
	"(id, file, ~tokens, summary, tags), each with its section outline using FULL section ids " +
	"(copy them verbatim into get_documents' `sections`). Call this first, then fetch everything " +
	"relevant in ONE get_documents call. `line_bounds` adds L… ranges; `section_depth` caps the outline; " +
	"`tags` and `depth` filter. A listing larger than the answer budget stops at a whole doc " +
	"and names the folders left out: list those roots next."

// AddLibraryTools registers the `library` tool set.
func AddLibraryTools(srv *mcp.Server, lib *app.Library, logger *slog.Logger) {
	listSchema := schemaFor[listDocumentsArgs](map[string]any{
		"root": ".", "line_bounds": false, "tags": []string{}, "depth": -1, "max_tokens": lib.Config().MaxAnswerTokens,
	})
	addTool(srv, &mcp.Tool{
		Name:        "list_documents",
		Description: listDocumentsDescription,
		Annotations: readOnly("List documents"),
	}, listSchema, func(ctx context.Context, _ *mcp.CallToolRequest, in listDocumentsArgs) (*mcp.CallToolResult, error) {
		req := app.ListRequest{
			Scope:        app.Scope{Root: in.Root, Tags: in.Tags, Depth: derefOr(in.Depth, -1)},
			LineBounds:   in.LineBounds,
			SectionDepth: in.SectionDepth,
			MaxTokens:    in.MaxTokens,
		}
		out, err := lib.ListDocuments(ctx, req)
		if err != nil {
			return nil, toolError(logger, "list_documents", err)
		}
		return text(out), nil
	})
	addSearchTools(srv, lib, logger)
	addGetDocuments(srv, lib, logger)
}

func derefOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
