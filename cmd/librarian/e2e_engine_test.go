package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/ports/retrieval/retrievaltest"
)

// TestStdioEngineTools starts the binary with LIBRARIAN_URL pointing at a
// fake engine on 127.0.0.1 and calls each of the ten engine tools over
// stdio, checking what reached the engine and what came back.
func TestStdioEngineTools(t *testing.T) {
	fake := retrievaltest.NewFakeEngine(t)
	defer fake.Close()
	cs := connect(t, "",
		"LIBRARY_ROOT="+filepath.Join(repoRoot(t), "library"),
		"LIBRARIAN_URL="+fake.URL(),
		"LIBRARIAN_PROJECT=recipes",
		"CLAUDE_CODE_SESSION_ID=e2e-session",
	)
	for _, tc := range []struct {
		tool     string
		args     map[string]any
		endpoint string
		want     string
	}{
		{"librarian_brief", map[string]any{"task": "add a password reset", "caller": "worker-1"}, "POST /api/library/brief", ""},
		{"librarian_locate", map[string]any{"query": "auth middleware"}, "GET /api/library/locate",
			"Locations for 'auth middleware' (source: index):\n- [function] require_session -> src/web/auth_middleware.py:24  (request)\n- [entry] auth-middleware ->\n    depends_on: session-store"},
		{"librarian_ask", map[string]any{"query": "how are sessions stored?"}, "POST /api/library/ask", ""},
		{"librarian_discuss", map[string]any{"message": "and their expiry?"}, "POST /api/library/ask", ""},
		{"librarian_depends", map[string]any{"entry_id": "auth-middleware"}, "GET /api/library/depends", ""},
		{"librarian_status", map[string]any{}, "GET /api/library/status", "Index age"},
		{"librarian_tell", map[string]any{"subject": "mailer", "info": "uses SES"}, "POST /api/library/tell", ""},
		{"librarian_gap", map[string]any{"subject": "billing", "missing": "no entry for refunds"}, "POST /api/library/gap", ""},
		{"librarian_guide", map[string]any{"text": "focus on auth", "exclude": []string{"legacy/"}}, "POST /api/library/guide", ""},
		{"librarian_session_log", map[string]any{"limit": 5}, "GET /api/library/interactions", ""},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			before := len(fake.Requests())
			got, isErr := callText(t, cs, tc.tool, tc.args)
			if isErr {
				t.Fatalf("%s failed: %s", tc.tool, got)
			}
			if got == "" {
				t.Fatalf("%s answered nothing", tc.tool)
			}
			if tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("%s answer lacks %q:\n%s", tc.tool, tc.want, got)
			}
			reqs := fake.Requests()[before:]
			if len(reqs) == 0 || reqs[len(reqs)-1].Endpoint() != tc.endpoint {
				t.Fatalf("%s: engine saw %v, want %s", tc.tool, reqs, tc.endpoint)
			}
			for _, r := range reqs {
				if problems := retrievaltest.Check(r); len(problems) > 0 {
					t.Errorf("%s: request %s breaks seed 004's contract: %v", tc.tool, r.Endpoint(), problems)
				}
			}
		})
	}
	// The library tools stay available beside the engine's.
	if got, isErr := callText(t, cs, "list_documents", map[string]any{"root": "guides"}); isErr || !strings.Contains(got, "getting-started") {
		t.Errorf("list_documents beside the engine tools: %q (isError %v)", got, isErr)
	}
	for _, r := range fake.Requests() {
		if strings.Contains(r.Endpoint(), "POST /api/library/brief") && !strings.Contains(string(r.Body), `"session":"e2e-session"`) {
			t.Errorf("brief body lacks the session id: %s", r.Body)
		}
	}
}

// TestStdioEngineOnlyWithoutLibrary: seed 004's setup names only
// LIBRARIAN_URL; started where there is no ./library, the server serves the
// engine tools alone instead of failing.
func TestStdioEngineOnlyWithoutLibrary(t *testing.T) {
	fake := retrievaltest.NewFakeEngine(t)
	defer fake.Close()
	cmd := exec.Command(binary)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "LIBRARIAN_URL="+fake.URL())
	cmd.Stderr = &testLogWriter{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if !strings.HasPrefix(tool.Name, "librarian_") {
			t.Errorf("engine-only server lists %s", tool.Name)
		}
	}
	if got, isErr := callText(t, cs, "librarian_status", map[string]any{}); isErr || !strings.Contains(got, "Index age") {
		t.Errorf("librarian_status = %q (isError %v)", got, isErr)
	}
	if res := cs.InitializeResult(); res == nil || strings.Contains(res.Instructions, "list_documents") {
		t.Errorf("an engine-only server's instructions should not name the library tools: %+v", res)
	}
}
