package mcpresources

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/domain"
)

// The one prompt, for a person: a slash command in a client that lists
// prompts, which asks the agent to answer a question from the library and
// cite the lines it used.

// AnswerPromptName names the prompt.
const AnswerPromptName = "answer_from_library"

// AddLibraryPrompts registers the prompt on srv (with the library tools).
func AddLibraryPrompts(srv *mcp.Server) {
	srv.AddPrompt(&mcp.Prompt{
		Name:        AnswerPromptName,
		Title:       "Answer from the library",
		Description: "Answer a question from the library's docs, citing the lines used",
		Arguments:   []*mcp.PromptArgument{{Name: "question", Description: "what to answer", Required: true}},
	}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		q := strings.TrimSpace(req.Params.Arguments["question"])
		if q == "" {
			return nil, fmt.Errorf("%w: 'question' is empty: say what to answer", domain.ErrInvalidArgument)
		}
		text := "Answer from this library's docs only: " + q + "\n\n" +
			"Find the lines with search_documents (a name or phrase; mode \"ranked\" for a question in words), " +
			"read exactly the sections the hits name in one get_documents call, then answer and cite each fact " +
			"as doc id and line range (auth L18–38). If the docs do not say, answer that they do not."
		return &mcp.GetPromptResult{
			Description: "Answer from the library, with citations",
			Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
		}, nil
	})
}
