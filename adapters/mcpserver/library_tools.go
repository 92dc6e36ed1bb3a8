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
	Root         string   `json:"root,omitempty" jsonschema:"folder, or a doc id/path for its outline"`
	LineBounds   bool     `json:"line_bounds,omitempty"`
	SectionDepth *int     `json:"section_depth,omitempty" jsonschema:"outline heading levels (0: none)"`
	Tags         []string `json:"tags,omitempty" jsonschema:"ANY of these"`
	Depth        *int     `json:"depth,omitempty" jsonschema:"levels below root"`
	MaxTokens    *int     `json:"max_tokens,omitempty" jsonschema:"budget (0: none)"`
}

const listDocumentsDescription = "Browse folders and docs (~tokens, summary, tags) with section outlines; " +
	"past max_tokens, left-out folders are named."

// AddLibraryTools registers the `library` tool set, its answers bounded by
// ceil (Ceilings{}: by what each call asks).
func AddLibraryTools(srv *mcp.Server, lib *browse.Browser, searcher *search.Searcher, logger *slog.Logger, ceil Ceilings) {
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
		var note string
		if ceil.AnswerTokens > 0 && (in.MaxTokens == nil || *in.MaxTokens >= 0) {
			budget, n := under(derefOr(in.MaxTokens, lib.Config().MaxAnswerTokens), ceil.AnswerTokens, "max_tokens", "LIBRARIAN_HTTP_MAX_ANSWER_TOKENS")
			req.MaxTokens, note = &budget, n
		}
		out, err := lib.ListDocuments(ctx, req)
		if err != nil {
			return nil, toolError(logger, "list_documents", err)
		}
		return withNote(text(out), note), nil
	})
	addSearchTools(srv, lib, searcher, logger, ceil)
	addGetDocuments(srv, lib, logger, ceil)
}

func derefOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
