package mcpserver_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/engineapi"
	"github.com/librarian/librarian/adapters/localretrieval"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/adapters/memjournal"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/app/engine"
	"github.com/librarian/librarian/ports/journal"
)

// TestEngineToolsOwnedByToken serves the engine tools and the engine API
// over HTTP with two tokens, every MCP session's engine tagged with the same
// session id (as CLAUDE_CODE_SESSION_ID does over stdio): the session is
// alice's, who used it first; bob's tools get a not-found error for it, and
// his engine API calls 404. A tell bob stores claiming to be alice is quoted
// to alice as told by bob.
func TestEngineToolsOwnedByToken(t *testing.T) {
	f := newLibraryFactory(t)
	ix, err := sqlitesectionindex.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	f.lib.UseIndex(ix, nil)
	if err := f.lib.EnsureIndexed(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	local, err := localretrieval.New(localretrieval.Options{Index: ix, Journal: memjournal.New(journal.Limits{})})
	if err != nil {
		t.Fatal(err)
	}
	endpoint, _ := startHTTP(t, f, mcpserver.HTTPOptions{
		Tokens: []mcpserver.Token{{Name: "alice", Value: tokenAlice}, {Name: "bob", Value: tokenBob}},
		NewServer: func() *mcp.Server {
			srv := mcpserver.NewServer(mcpserver.Options{Name: "librarian", Version: "test"})
			mcpserver.AddEngineTools(srv, engine.New(local, engine.Config{Session: "shared"}))
			return srv
		},
		Mounts: []mcpserver.Mount{{Prefix: engineapi.Prefix, Handler: engineapi.New(local, engineapi.Options{})}},
	})
	for _, protocol := range []string{"", "2025-11-25"} {
		t.Run("protocol "+protocol, func(t *testing.T) {
			alice := mustConnectHTTP(t, endpoint, tokenAlice, protocol)
			bob := mustConnectHTTP(t, endpoint, tokenBob, protocol)
			if text, isErr := callTool(t, alice, "librarian_guide", map[string]any{"text": "stay out of storage", "exclude": []string{"storage/"}, "caller": "lead"}); isErr {
				t.Fatalf("alice guides her session: %s", text)
			}
			for name, args := range map[string]map[string]any{
				"librarian_session_log": {},
				"librarian_guide":       {"reset": true},
				"librarian_locate":      {"query": "invalidate"},
			} {
				text, isErr := callTool(t, bob, name, args)
				if !isErr || !strings.Contains(text, "no session 'shared' for this token") || strings.Contains(text, "stay out of storage") {
					t.Errorf("bob's %s in alice's session: isError %v: %s", name, isErr, text)
				}
			}
			if text, isErr := callTool(t, alice, "librarian_session_log", map[string]any{}); isErr || !strings.Contains(text, "stay out of storage") {
				t.Errorf("alice's session log: %s", text)
			}
			status, body := engineAPI(t, endpoint, tokenBob, "GET", "/api/library/interactions?session=shared&limit=5")
			if status != http.StatusNotFound || strings.Contains(body, "stay out of storage") {
				t.Errorf("bob reads alice's session over the engine API: %d %s", status, body)
			}
			if status, body := engineAPI(t, endpoint, tokenBob, "DELETE", "/api/library/guide?session=shared"); status != http.StatusNotFound {
				t.Errorf("bob clears alice's guide over the engine API: %d %s", status, body)
			}
			if text, isErr := callTool(t, alice, "librarian_guide", map[string]any{"reset": true}); isErr || !strings.Contains(text, "Guidance cleared.") {
				t.Errorf("alice clears her own guide: %s", text)
			}
		})
	}
	// Bob's tell, stored over the engine API in a session of his own.
	if status, body := engineAPIBody(t, endpoint, tokenBob, "POST", "/api/library/tell",
		`{"subject": "session store", "info": "sessions moved to the quillwort cluster in v2", "session": "bob-s", "caller": "alice"}`); status != 200 {
		t.Fatalf("bob tells: %d %s", status, body)
	}
	alice := mustConnectHTTP(t, endpoint, tokenAlice, "")
	text, isErr := callTool(t, alice, "librarian_ask", map[string]any{"query": "where is the session store?"})
	if isErr || !strings.Contains(text, `(told by bob, caller label "alice", `) || strings.Contains(text, "told by alice") {
		t.Errorf("alice's ask quoting bob's tell:\n%s", text)
	}
}

func engineAPI(t *testing.T, endpoint, token, method, path string) (int, string) {
	t.Helper()
	return engineAPIBody(t, endpoint, token, method, path, "")
}

// engineAPIBody sends one engine API request with token to the server
// whose MCP endpoint is endpoint.
func engineAPIBody(t *testing.T, endpoint, token, method, path, body string) (int, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, strings.TrimSuffix(endpoint, "/mcp")+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}
