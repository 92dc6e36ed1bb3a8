package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/domain"
)

// TestHTTPBinaryAnswerCeiling (issue 20): over HTTP `max_tokens: 0` was
// honoured for any token holder. The built binary, with
// LIBRARIAN_HTTP_MAX_ANSWER_TOKENS and LIBRARIAN_HTTP_MAX_RESULTS set,
// answers such calls at the ceiling and says so; stdio keeps no ceiling.
func TestHTTPBinaryAnswerCeiling(t *testing.T) {
	env := []string{"LIBRARY_ROOT=" + filepath.Join(repoRoot(t), "library"), "LIBRARIAN_TOKEN=" + httpToken,
		"LIBRARIAN_HTTP_MAX_ANSWER_TOKENS=200", "LIBRARIAN_HTTP_MAX_RESULTS=1"}
	srv := startHTTPBinary(t, env...)
	cs := connectHTTPClient(t, srv.base+"/mcp", httpToken, "")
	call := func(tool string, args map[string]any) string {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", tool, err, res)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	got := call("get_documents", map[string]any{"select": []any{map[string]any{"root": "."}}, "max_tokens": 0})
	if !strings.Contains(got, "Note: max_tokens=0 (no limit) was answered at max_tokens=200, this server's ceiling for one answer (LIBRARIAN_HTTP_MAX_ANSWER_TOKENS).") {
		t.Errorf("get_documents max_tokens 0: no ceiling note:\n%s", got)
	}
	if n := domain.EstimateTokens(int64(len(got))); n > 200+45 {
		t.Errorf("get_documents max_tokens 0: ~%d tokens under a ceiling of 200:\n%s", n, got)
	}
	got = call("search_documents", map[string]any{"query": "token", "max_results": 0})
	if !strings.Contains(got, "Note: max_results=0 (no limit) was answered at max_results=1, this server's ceiling for one answer (LIBRARIAN_HTTP_MAX_RESULTS).") {
		t.Errorf("search_documents max_results 0: no ceiling note:\n%s", got)
	}
}
