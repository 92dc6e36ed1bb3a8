package mcpserver

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Ceilings bound what one tool answer may hold whatever the call asks:
// over HTTP a client is not the operator, and `max_tokens: 0` (no limit) or
// `max_results: 1000000` would let any token holder ask for answers of tens
// of megabytes, each held in memory until it is written. A ceiling of 0 is
// none (stdio: the one agent is the user's). A call over a ceiling is
// answered at the ceiling, with a note saying so.
type Ceilings struct {
	// AnswerTokens caps max_tokens of list_documents and get_documents
	// (LIBRARIAN_HTTP_MAX_ANSWER_TOKENS).
	AnswerTokens int
	// Results caps search_documents' max_results
	// (LIBRARIAN_HTTP_MAX_RESULTS).
	Results int
}

// The ceilings of `serve --http` when the settings leave them unset: five
// times the default answer budget (about 400 KB of text), and twenty times
// the default hit lines.
const (
	DefaultCeilingAnswerTokens = 100_000
	DefaultCeilingResults      = 1000
)

// HTTPCeilings are c with the HTTP server's defaults for unset ceilings.
func HTTPCeilings(c Ceilings) Ceilings {
	defaults(&c.AnswerTokens, DefaultCeilingAnswerTokens)
	defaults(&c.Results, DefaultCeilingResults)
	return c
}

// under returns the limit a tool applies for asked (0 = no limit) under
// ceiling (0 = none), and the note to add when the ceiling lowered it.
func under(asked, ceiling int, arg, setting string) (int, string) {
	if ceiling <= 0 || asked > 0 && asked <= ceiling {
		return asked, ""
	}
	was := fmt.Sprintf("%s=%d", arg, asked)
	if asked == 0 {
		was += " (no limit)"
	}
	return ceiling, fmt.Sprintf("Note: %s was answered at %s=%d, this server's ceiling for one answer (%s).", was, arg, ceiling, setting)
}

// withNote appends note, when there is one, as the result's last text.
func withNote(res *mcp.CallToolResult, note string) *mcp.CallToolResult {
	if note == "" || res == nil {
		return res
	}
	if n := len(res.Content); n > 0 {
		if t, ok := res.Content[n-1].(*mcp.TextContent); ok {
			t.Text += "\n" + note + "\n"
			return res
		}
	}
	res.Content = append(res.Content, &mcp.TextContent{Text: "\n" + note + "\n"})
	return res
}
