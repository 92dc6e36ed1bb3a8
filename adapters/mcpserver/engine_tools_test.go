package mcpserver_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/httpretrieval"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/app/engine"
	"github.com/librarian/librarian/ports/retrieval/retrievaltest"
)

// -update may be declared by another test file; look it up, declare it
// only if nobody did (package-level variables are set before init runs).
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files")
	}
}

func engineUpdate() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// engineTiming shrinks the seed's waits and timeouts for tests.
var engineTiming = httpretrieval.Options{
	Waits:      []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond},
	GetTimeout: time.Second, PostTimeout: 2 * time.Second, GuideTimeout: time.Second,
}

// connectEngine serves the engine tool set, talking to the engine at url,
// over in-memory transports, and returns a go-sdk client session speaking
// protocolVersion ("" = the client's default).
func connectEngine(t *testing.T, url string, cfg engine.Config, protocolVersion string) *mcp.ClientSession {
	t.Helper()
	opts := engineTiming
	opts.URL = url
	remote, err := httpretrieval.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "librarian-test", Version: "0"}, nil)
	mcpserver.AddEngineTools(srv, engine.New(remote, cfg))
	return connectClient(t, srv, "test-client", protocolVersion)
}

// callEngine calls a tool and returns its text and isError.
func callEngine(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	var parts []string
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok {
			t.Fatalf("%s: content %T, want text only", name, c)
		}
		parts = append(parts, tc.Text)
	}
	return strings.Join(parts, "\n"), res.IsError
}

func engineGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "engine", name)
	if engineUpdate() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

var engineToolNames = []string{"librarian_ask", "librarian_brief", "librarian_depends", "librarian_discuss", "librarian_gap",
	"librarian_guide", "librarian_locate", "librarian_session_log", "librarian_status", "librarian_tell"}

// TestEngineToolsList snapshots the ten tools' names, annotations and input
// schemas, so any change to what agents see shows up in review.
func TestEngineToolsList(t *testing.T) {
	fake := retrievaltest.NewFakeEngine(t)
	cs := connectEngine(t, fake.URL(), engine.Config{Session: "s"}, "")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		a := tool.Annotations
		writes := tool.Name == "librarian_tell" || tool.Name == "librarian_gap" || tool.Name == "librarian_guide"
		if a == nil || a.ReadOnlyHint == writes || a.OpenWorldHint == nil || !*a.OpenWorldHint {
			t.Errorf("%s: annotations %+v, want readOnlyHint %t and openWorldHint true", tool.Name, a, !writes)
		}
		if tool.Description == "" {
			t.Errorf("%s has no description", tool.Name)
		}
	}
	if !reflect.DeepEqual(names, engineToolNames) {
		t.Errorf("tools %v, want %v", names, engineToolNames)
	}
	data, err := json.MarshalIndent(res.Tools, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	engineGolden(t, "tools.json", string(data)+"\n")
}

// TestEngineToolsTranscript runs every tool against the fake engine and
// pins each answer; the requests the engine received are checked too.
func TestEngineToolsTranscript(t *testing.T) {
	fake := retrievaltest.NewFakeEngine(t)
	cs := connectEngine(t, fake.URL(), engine.Config{Session: "sess-42", Project: "shop",
		Now: func() time.Time { return fake.BuiltAt.Add(3*time.Hour + 20*time.Minute) }}, "")
	steps := []struct {
		tool string
		args map[string]any
	}{
		{"librarian_brief", map[string]any{"task": "add rate limiting to login", "caller": "worker-1"}},
		{"librarian_locate", map[string]any{"query": "auth middleware", "caller": "worker-1"}},
		{"librarian_ask", map[string]any{"query": "where are sessions stored?"}},
		{"librarian_discuss", map[string]any{"message": "how do sessions expire?", "caller": "worker-1"}},
		{"librarian_discuss", map[string]any{"message": "and who renews them?", "caller": "worker-1"}},
		{"librarian_discuss", map[string]any{"message": "unrelated: what is a recipe?", "caller": "worker-2"}},
		{"librarian_discuss", map[string]any{"message": "", "reset": true, "caller": "worker-1"}},
		{"librarian_discuss", map[string]any{"message": "fresh start", "caller": "worker-1"}},
		{"librarian_depends", map[string]any{"entry_id": "auth-middleware"}},
		{"librarian_status", map[string]any{}},
		{"librarian_tell", map[string]any{"subject": "session store", "info": "moved to redis in v2", "caller": "worker-1"}},
		{"librarian_gap", map[string]any{"subject": "billing", "missing": "where invoices are rendered"}},
		{"librarian_guide", map[string]any{"text": "prefer the v2 session store", "exclude": []string{"legacy/"}, "expect": "src/web/session_store.py", "caller": "lead"}},
		{"librarian_guide", map[string]any{"text": ""}},
		{"librarian_guide", map[string]any{"reset": true}},
		{"librarian_guide", map[string]any{"reset": true}},
		{"librarian_session_log", map[string]any{"limit": 5}},
		{"librarian_brief", map[string]any{"task": "  "}},
	}
	var b strings.Builder
	for _, s := range steps {
		args, _ := json.Marshal(s.args)
		text, isError := callEngine(t, cs, s.tool, s.args)
		fmt.Fprintf(&b, "> %s %s\n", s.tool, args)
		if isError {
			b.WriteString("[isError]\n")
		}
		b.WriteString(text + "\n\n")
	}
	engineGolden(t, "transcript.txt", b.String())

	// What the engine received: tags where the seed puts them, the
	// discussion history per caller.
	for _, r := range fake.Requests() {
		if problems := retrievaltest.Check(r); len(problems) > 0 {
			t.Errorf("%s broke the contract: %v", r.Endpoint(), problems)
		}
	}
	asks := fake.RequestsTo("POST", "/api/library/ask")
	var histories []int
	for _, r := range asks {
		h, _ := r.JSON["history"].([]any)
		histories = append(histories, len(h))
	}
	// ask, discuss w1, discuss w1 (2 earlier messages), discuss w2, discuss w1 after reset.
	if want := []int{0, 0, 2, 0, 0}; !reflect.DeepEqual(histories, want) {
		t.Errorf("history lengths sent %v, want %v", histories, want)
	}
	brief := fake.RequestsTo("POST", "/api/library/brief")[0].JSON
	if brief["caller"] != "worker-1" || brief["project"] != "shop" || brief["session"] != "sess-42" || brief["surface"] != "mcp" {
		t.Errorf("brief body %v: want caller worker-1, project shop, session sess-42, surface mcp", brief)
	}
	locate := fake.RequestsTo("GET", "/api/library/locate")[0].Query
	if locate.Get("caller") != "worker-1" || locate.Has("project") || locate.Get("session") != "sess-42" {
		t.Errorf("locate query %v: want caller and session, no project", locate)
	}
}

// Failures reach the agent as tool errors it can act on.
func TestEngineToolsFailures(t *testing.T) {
	refused := retrievaltest.RefusedURL(t)
	cs := connectEngine(t, refused, engine.Config{Session: "s"}, "")
	text, isError := callEngine(t, cs, "librarian_status", nil)
	if want := "engine unreachable at " + refused + ": GET /api/library/status failed 4 times (connection refused)"; !isError || !strings.HasPrefix(text, want) {
		t.Errorf("refused: %q (isError %t), want an error starting %q", text, isError, want)
	}

	fake := retrievaltest.NewFakeEngine(t)
	cs = connectEngine(t, fake.URL(), engine.Config{Session: "s"}, "")
	for _, tc := range []struct {
		name         string
		method, path string
		reply        retrievaltest.Reply
		tool         string
		args         map[string]any
		isError      bool
		want         string
	}{
		{"slow", "GET", "/api/library/locate", retrievaltest.Stall(5 * time.Second), "librarian_locate", map[string]any{"query": "q"},
			true, "engine too slow: the engine at " + fake.URL() + " gave no answer to GET /api/library/locate within 1s (not retried; try again later)"},
		{"status", "POST", "/api/library/ask", retrievaltest.JSON(503, map[string]any{"detail": "warming up"}), "librarian_ask", map[string]any{"query": "q"},
			true, `engine answered 503 to POST /api/library/ask: {"detail":"warming up"}`},
		{"error field", "POST", "/api/library/brief", retrievaltest.JSON(200, map[string]any{"error": "index is rebuilding"}), "librarian_brief", map[string]any{"task": "t"},
			true, "engine error (POST /api/library/brief): index is rebuilding"},
		{"busy", "POST", "/api/library/brief", retrievaltest.JSON(200, map[string]any{"busy": true, "position": 2, "eta_s": 30}), "librarian_brief", map[string]any{"task": "t"},
			false, "The engine is busy and did not answer. Your request is number 2 in its queue. Try again in about 30 s."},
		{"malformed", "GET", "/api/library/depends", retrievaltest.Raw(200, "<html>"), "librarian_depends", map[string]any{"entry_id": "x"},
			true, "unexpected engine reply: the reply to GET /api/library/depends is not valid JSON"},
		{"guide rejected", "POST", "/api/library/guide", retrievaltest.Raw(422, `{"reason": "exclude matches every hit"}`), "librarian_guide", map[string]any{"text": "t", "exclude": []string{"*"}},
			true, "the engine rejected the guidance (HTTP 422): exclude matches every hit\nengine reply: {\"reason\": \"exclude matches every hit\"}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake.Script(tc.method, tc.path, tc.reply)
			text, isError := callEngine(t, cs, tc.tool, tc.args)
			if isError != tc.isError || !strings.HasPrefix(text, tc.want) {
				t.Errorf("got %q (isError %t)\nwant %q (isError %t)", text, isError, tc.want, tc.isError)
			}
		})
	}
}

// Arguments that do not fit a tool's schema are tool errors naming the field.
func TestEngineToolsArgumentErrors(t *testing.T) {
	fake := retrievaltest.NewFakeEngine(t)
	cs := connectEngine(t, fake.URL(), engine.Config{Session: "s"}, "")
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"librarian_brief", map[string]any{}, "task"},
		{"librarian_locate", map[string]any{"query": "q", "limit": 5}, "limit"},
		{"librarian_depends", map[string]any{"entry_id": 7}, "entry_id"},
		{"librarian_guide", map[string]any{"exclude": "legacy/"}, "exclude"},
		{"librarian_session_log", map[string]any{"limit": -2}, "'limit'"},
		{"librarian_status", map[string]any{"verbose": true}, "verbose"},
	} {
		text, isError := callEngine(t, cs, tc.tool, tc.args)
		if !isError || !strings.Contains(text, tc.want) {
			t.Errorf("%s %v: %q (isError %t), want an error naming %s", tc.tool, tc.args, text, isError, tc.want)
		}
	}
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("the engine got %d requests for calls that should not reach it", n)
	}
}

// The tools work for clients speaking the 2025-11-25 protocol too (the
// Inspector and the TypeScript SDK).
func TestEngineToolsOlderProtocol(t *testing.T) {
	fake := retrievaltest.NewFakeEngine(t)
	cs := connectEngine(t, fake.URL(), engine.Config{Session: "s"}, "2025-11-25")
	text, isError := callEngine(t, cs, "librarian_locate", map[string]any{"query": "auth middleware"})
	want := "Locations for 'auth middleware' (source: index):\n" +
		"- [function] require_session -> src/web/auth_middleware.py:24  (request)\n" +
		"- [entry] auth-middleware ->\n" +
		"    depends_on: session-store"
	if isError || text != want {
		t.Errorf("got %q (isError %t), want the seed's rendering", text, isError)
	}
}
