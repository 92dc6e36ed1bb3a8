package mcpserver

import (
	"context"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/domain"
)

// The `library` tool set: seed 000's browse-and-fetch tools plus search and
// tags, in snake_case. Each handler translates its arguments and calls app.

type listDocumentsArgs struct {
	Root         string   `json:"root,omitempty" jsonschema:"folder to list ('.' is the whole library), or a doc id or path for its outline with sizes"`
	LineBounds   bool     `json:"line_bounds,omitempty" jsonschema:"add each section's line range (L18–38)"`
	SectionDepth *int     `json:"section_depth,omitempty" jsonschema:"cap the outline's heading levels (2: # and ##; 0: no outline); omit for all"`
	Tags         []string `json:"tags,omitempty" jsonschema:"only docs carrying ANY of these tags"`
	Depth        *int     `json:"depth,omitempty" jsonschema:"path segments below root, the file name included (1 = root's own docs; deeper folders still show their counts); negative: all"`
	MaxTokens    *int     `json:"max_tokens,omitempty" jsonschema:"answer budget in tokens (0 = no limit)"`
}

const listDocumentsDescription = "Browse: folders (docs, ~tokens) and docs (id, file, ~tokens, summary, tags) with " +
	"section outlines (FULL ids for get_documents' `sections`). Over max_tokens it shows every folder level " +
	"first and names the folders left out: list those next. A doc id or path as `root` gives that doc's outline " +
	"with line ranges and section sizes. `section_depth: 0` lists doc lines only."

// AddLibraryTools registers the `library` tool set.
func AddLibraryTools(srv *mcp.Server, lib *browse.Browser, searcher *search.Searcher, logger *slog.Logger) {
	listSchema := schemaFor[listDocumentsArgs](map[string]any{
		"root": ".", "line_bounds": false, "tags": []string{}, "depth": -1, "max_tokens": lib.Config().MaxAnswerTokens,
	})
	addTool(srv, &mcp.Tool{
		Name:        "list_documents",
		Description: listDocumentsDescription,
		Annotations: readOnly("List documents"),
	}, listSchema, func(ctx context.Context, _ *mcp.CallToolRequest, in listDocumentsArgs) (*mcp.CallToolResult, error) {
		req := browse.ListRequest{
			Scope:        domain.Scope{Root: in.Root, Tags: in.Tags, Depth: derefOr(in.Depth, -1)},
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
	addSearchTools(srv, lib, searcher, logger)
	addGetDocuments(srv, lib, logger)
}

func derefOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
