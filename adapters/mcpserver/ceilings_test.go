package mcpserver_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/domain"
)

// TestCeilingsCapWhatACallAsks (issue 20): over HTTP `max_tokens: 0` and
// `max_results: 1000000` were honoured for any token holder; under a
// ceiling they are answered at the ceiling, with a note saying so, and a
// call within the ceiling is answered as asked, with no note.
func TestCeilingsCapWhatACallAsks(t *testing.T) {
	cs := connectGetWithin(t, testConfig(), "", mcpserver.Ceilings{AnswerTokens: 300, Results: 2})
	call := func(tool string, args map[string]any) string {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s(%v): %v %s", tool, args, err, allText(res))
		}
		return allText(res)
	}
	noteOf := func(arg, asked, setting string, ceiling string) string {
		return "Note: " + arg + "=" + asked + " was answered at " + arg + "=" + ceiling + ", this server's ceiling for one answer (" + setting + ")."
	}
	for _, tc := range []struct {
		tool    string
		args    map[string]any
		note    string // "" = none
		maxToks int    // 0: not checked
		maxHits int    // -1: not checked
	}{
		{"get_documents", map[string]any{"select": []any{map[string]any{"root": "."}}, "max_tokens": 0},
			noteOf("max_tokens", "0 (no limit)", "LIBRARIAN_HTTP_MAX_ANSWER_TOKENS", "300"), 300 + 45, -1},
		{"get_documents", map[string]any{"select": []any{"auth"}, "max_tokens": 5000},
			noteOf("max_tokens", "5000", "LIBRARIAN_HTTP_MAX_ANSWER_TOKENS", "300"), 300 + 45, -1},
		{"get_documents", map[string]any{"select": []any{"auth"}, "max_tokens": 100}, "", 100, -1},
		{"list_documents", map[string]any{"max_tokens": 0, "line_bounds": true},
			noteOf("max_tokens", "0 (no limit)", "LIBRARIAN_HTTP_MAX_ANSWER_TOKENS", "300"), 300 + 45, -1},
		{"search_documents", map[string]any{"query": "token", "max_results": 0},
			noteOf("max_results", "0 (no limit)", "LIBRARIAN_HTTP_MAX_RESULTS", "2"), 0, 2},
		{"search_documents", map[string]any{"query": "token", "max_results": 1000000},
			noteOf("max_results", "1000000", "LIBRARIAN_HTTP_MAX_RESULTS", "2"), 0, 2},
		{"search_documents", map[string]any{"query": "token", "max_results": 1}, "", 0, 1},
	} {
		got := call(tc.tool, tc.args)
		if tc.note != "" && !strings.HasSuffix(got, "\n"+tc.note+"\n") {
			t.Errorf("%s(%v): no closing note %q:\n%s", tc.tool, tc.args, tc.note, got)
		}
		if tc.note == "" && strings.Contains(got, "this server's ceiling") {
			t.Errorf("%s(%v): a ceiling note on a call within the ceiling:\n%s", tc.tool, tc.args, got)
		}
		if n := domain.EstimateTokens(int64(len(got))); tc.maxToks > 0 && n > tc.maxToks {
			t.Errorf("%s(%v): ~%d tokens, over %d:\n%s", tc.tool, tc.args, n, tc.maxToks, got)
		}
		if tc.maxHits >= 0 {
			hits := len(hitLineRE.FindAllString(got, -1))
			if hits == 0 || hits > tc.maxHits {
				t.Errorf("%s(%v): %d hit lines, want at most %d:\n%s", tc.tool, tc.args, hits, tc.maxHits, got)
			}
		}
	}
}

// hitLineRE finds a search answer's hit lines ("L7: The client posts…").
var hitLineRE = regexp.MustCompile(`(?m)^L\d+: `)
