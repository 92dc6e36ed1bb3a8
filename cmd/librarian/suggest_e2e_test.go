package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestStdioSuggestions: over MCP, unknown docs, sections and folders get a
// did-you-mean by edit distance, naming the MCP tools.
func TestStdioSuggestions(t *testing.T) {
	cs := connect(t, "", "LIBRARY_ROOT="+filepath.Join(repoRoot(t), "library"))
	got, isErr := callText(t, cs, "get_documents", map[string]any{"select": []any{"auht", map[string]any{"doc": "auth", "sections": []string{"login-flw"}}, "backend", "quillwort"}})
	for _, want := range []string{
		"unknown doc 'auht': no document has this id or path (did you mean: auth?)",
		"has no section 'login-flw' (did you mean: login-flow?)",
		`('backend' is a folder: select its docs with {"root": "backend"})`,
		"(list_documents shows every doc)",
	} {
		if isErr || !strings.Contains(got, want) {
			t.Errorf("get_documents answer (isError %v) lacks %q:\n%s", isErr, want, got)
		}
	}
	got, isErr = callText(t, cs, "list_documents", map[string]any{"root": "backend/storag"})
	if !isErr || !strings.Contains(got, "(did you mean: backend/storage/?)") {
		t.Errorf("list_documents(root=backend/storag) = %q (isError %v), want a suggestion", got, isErr)
	}
}
