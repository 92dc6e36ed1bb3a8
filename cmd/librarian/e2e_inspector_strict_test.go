package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// inspector is the MCP Inspector's command (LIBRARIAN_INSPECTOR, set by
// .ci/run, or mcp-inspector on PATH). Outside CI the test is skipped when
// it is missing; in CI a missing Inspector fails the test.
func inspector(t *testing.T) string {
	t.Helper()
	path := os.Getenv("LIBRARIAN_INSPECTOR")
	if path == "" {
		path, _ = exec.LookPath("mcp-inspector")
	}
	if _, err := os.Stat(path); path == "" || err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must provide the MCP Inspector (LIBRARIAN_INSPECTOR=%q)", path)
		}
		t.Skip("MCP Inspector not installed: set LIBRARIAN_INSPECTOR, e.g. after " +
			"npm install --prefix /tmp/librarian-inspector @modelcontextprotocol/inspector@2.12.0, " +
			"LIBRARIAN_INSPECTOR=/tmp/librarian-inspector/node_modules/.bin/mcp-inspector")
	}
	return path
}

// TestInspectorStrictSchemas lists every tool set's tools with the
// Inspector's --strict schema check, which warns about schemas some
// clients reject (a `type` array such as ["null", "integer"] cannot be
// mapped onto the OpenAPI subset of Gemini's function declarations). It
// must report nothing.
func TestInspectorStrictSchemas(t *testing.T) {
	cmd := exec.Command(inspector(t), "--cli",
		"-e", "LIBRARY_ROOT="+filepath.Join(repoRoot(t), "library"),
		"-e", "LIBRARIAN_TOOLS=library,librarian-ts,engine",
		"-e", "LIBRARIAN_URL=http://127.0.0.1:9",
		binary, "--method", "tools/list", "--strict")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running the Inspector: %v", err)
	}
	if err != nil || strings.Contains(stderr.String(), "Warning") || strings.Contains(stderr.String(), "warning") {
		t.Errorf("inspector --strict: %v\n%s", err, stderr.String())
	}
	var list struct {
		Tools []struct{ Name string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &list); err != nil {
		t.Fatalf("the Inspector's output is not a tools list: %v\n%s", err, stdout.String())
	}
	seen := map[string]bool{}
	for _, tool := range list.Tools {
		seen[tool.Name] = true
	}
	for _, name := range []string{"list_documents", "get_documents", "search_documents", "list_tags", "getDocument", "searchDocuments", "librarian_brief", "librarian_guide"} {
		if !seen[name] {
			t.Errorf("the Inspector did not see %s among %d tools: every tool set must be checked", name, len(list.Tools))
		}
	}
}
