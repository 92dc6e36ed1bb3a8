package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/engine"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/ports/retrieval/retrievaltest"
)

// A mistaken argument is a tool error that names the argument and what it
// must be, never the schema's path ("validating root: ...") or a Go type
// ("mcpserver.listDocumentsArgs.depth of type int"); null is "not given".
func TestArgumentErrorsNameTheArgument(t *testing.T) {
	cs := connectSearch(t, "2025-11-25")
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string // "" for no error
	}{
		{"list_documents", map[string]any{"depth": json.RawMessage("9223372036854775807")},
			"invalid argument: 'depth' must be a whole number from -2147483648 to 2147483647, got 9223372036854775807"},
		{"list_documents", map[string]any{"depth": json.RawMessage("9e18")},
			"invalid argument: 'depth' must be a whole number from -2147483648 to 2147483647, got 9e18"},
		{"list_documents", map[string]any{"depth": 1.5}, "invalid argument: 'depth' must be a whole number, got 1.5"},
		{"list_documents", map[string]any{"depth": json.RawMessage("1e0")}, ""},
		{"list_documents", map[string]any{"root": nil}, ""},
		{"list_documents", map[string]any{"section_depth": nil, "tags": nil, "max_tokens": nil}, ""},
		{"list_documents", map[string]any{"line_bounds": "yes"}, `invalid argument: 'line_bounds' must be true or false, got a string: "yes"`},
		{"list_documents", map[string]any{"rooot": "x"},
			"invalid argument: unknown argument 'rooot': list_documents takes depth, line_bounds, max_tokens, root, section_depth, tags"},
		{"list_documents", map[string]any{"tags": []any{"a", 5}}, "invalid argument: 'tags[1]' must be a string, got 5"},
		{"list_documents", manyUnknown(), "invalid argument: unknown argument 'x000', 'x001', 'x002', and 997 more: list_documents takes"},
		{"list_documents", map[string]any{"root": strings.Repeat("x", 1<<20) + "\u0000", "depth": strings.Repeat("9", 1<<20)},
			`invalid argument: 'depth' must be a whole number, got a string: "9999999999`},
		{"search_documents", map[string]any{"query": "x", "tags": "a"}, `invalid argument: 'tags' must be a list, got a string: "a"`},
		{"search_documents", map[string]any{}, "invalid argument: 'query' is missing: what to look for"},
		{"search_documents", map[string]any{"query": nil}, "invalid argument: 'query' is missing"},
		{"search_documents", map[string]any{"query": 5}, "invalid argument: 'query' must be a string, got 5"},
		{"search_documents", map[string]any{"query": "x", "mode": "fuzzy"},
			`invalid argument: 'mode' must be one of "string", "regex", "ranked", got a string: "fuzzy"`},
		{"search_documents", map[string]any{"query": "x", "max_results": json.RawMessage("1e400")}, "invalid argument: 'max_results' must be a whole number, got 1e400"},
		{"list_tags", map[string]any{"include_paths": 1}, "invalid argument: 'include_paths' must be true or false, got 1"},
		{"get_documents", manyUnknown(), "invalid argument: unknown argument 'x000', 'x001', 'x002', and 997 more: get_documents takes"},
		{"list_tags", map[string]any{"depth": "deep"}, `invalid argument: 'depth' must be a whole number, got a string: "deep"`},
	} {
		got, isErr := callText(t, cs, tc.tool, tc.args)
		switch {
		case tc.want == "" && isErr:
			t.Errorf("%s failed: %.300s", tc.tool, got)
		case tc.want != "" && (!isErr || !strings.HasPrefix(got, tc.want)):
			t.Errorf("%s = %.300q (isError %v)\nwant it to start %q", tc.tool, got, isErr, tc.want)
		}
		if isErr && (strings.Contains(got, "validating") || strings.Contains(got, "Go struct") || len(got) > 400) {
			t.Errorf("%s exposes internals or echoes too much: %.300q", tc.tool, got)
		}
	}
	if got, _ := callText(t, cs, "list_documents", map[string]any{"root": nil}); got != mustCall(t, cs, "list_documents", map[string]any{}) {
		t.Errorf(`{"root": null} should list like no root at all, got %q`, got)
	}
}

// manyUnknown is 1,000 unknown arguments.
func manyUnknown() map[string]any {
	args := map[string]any{}
	for i := range 1000 {
		args[fmt.Sprintf("x%03d", i)] = i
	}
	return args
}

func mustCall(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	got, isErr := callText(t, cs, tool, args)
	if isErr {
		t.Fatalf("%s(%v): %s", tool, args, got)
	}
	return got
}

// Engine tools read their arguments the same way.
func TestEngineArgumentErrorsNameTheArgument(t *testing.T) {
	fake := retrievaltest.NewFakeEngine(t)
	cs := connectEngine(t, fake.URL(), engine.Config{Session: "s"}, "")
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"librarian_guide", map[string]any{"text": "t", "exclude": "a"}, `invalid argument: 'exclude' must be a list, got a string: "a"`},
		{"librarian_session_log", map[string]any{"limit": 2.5}, "invalid argument: 'limit' must be a whole number, got 2.5"},
		{"librarian_brief", map[string]any{}, "invalid argument: 'task' is missing: what you are about to do"},
	} {
		got, isErr := callEngine(t, cs, tc.tool, tc.args)
		if !isErr || !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s = %.300q (isError %v)\nwant it to start %q", tc.tool, got, isErr, tc.want)
		}
	}
	if got, isErr := callEngine(t, cs, "librarian_guide", map[string]any{"text": "t", "exclude": nil}); isErr {
		t.Errorf("librarian_guide with exclude null failed: %s", got)
	}
}

// list_documents' max_tokens shows the budget the server runs with as its
// default, not a fixed 20000, and every property has one plain type.
func TestListDocumentsDefaultsAreTheServers(t *testing.T) {
	src, err := frontmatterindex.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	cfg := library.DefaultConfig()
	cfg.MaxAnswerTokens = 1234
	srv := mcpserver.NewServer(mcpserver.Options{Name: "librarian", Version: "test"})
	lib := library.New(src, goldmarkmarkdown.New(), nil, cfg)
	mcpserver.AddLibraryTools(srv, browse.New(lib), search.New(lib), nil, mcpserver.Ceilings{})
	cs := connectClient(t, srv, "defaults-test", "")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		var schema struct {
			Properties map[string]struct {
				Type    any             `json:"type"`
				Default json.RawMessage `json:"default"`
			} `json:"properties"`
		}
		data, _ := json.Marshal(tool.InputSchema)
		if err := json.Unmarshal(data, &schema); err != nil {
			t.Fatal(err)
		}
		for name, p := range schema.Properties {
			if _, plain := p.Type.(string); !plain && p.Type != nil {
				t.Errorf("%s.%s has type %v, want one plain type", tool.Name, name, p.Type)
			}
		}
		if tool.Name == "list_documents" {
			if got := string(schema.Properties["max_tokens"].Default); got != "1234" {
				t.Errorf("list_documents.max_tokens default = %s, want the server's 1234", got)
			}
			// Only the server's own budget is published: false, '.' and -1 go
			// without saying (readArguments fills them in).
			if got := string(schema.Properties["line_bounds"].Default); got != "" {
				t.Errorf("list_documents.line_bounds default = %s, want none published", got)
			}
		}
	}
}

// The librarian-ts tools keep the original's JSON-RPC invalid-params error
// and its rules (null refused, unknown arguments ignored), worded the same
// way: the argument and what it must be, not the schema's path.
func TestTSArgumentErrorsNameTheArgument(t *testing.T) {
	cs := connectTS(t, "")
	for _, tc := range []struct {
		tool string
		args any
		want string
	}{
		{"listDocuments", map[string]any{"depth": "x"}, `Invalid arguments for tool listDocuments: 'depth' must be a number, got a string: "x"`},
		{"listDocuments", map[string]any{"directory": nil}, "Invalid arguments for tool listDocuments: 'directory' must be a string, got null"},
		{"searchDocuments", map[string]any{"query": "x", "caseSensitive": "true"}, `Invalid arguments for tool searchDocuments: 'caseSensitive' must be true or false, got a string: "true"`},
		{"getDocument", map[string]any{}, "Invalid arguments for tool getDocument: 'filepath' is missing"},
		{"listTags", json.RawMessage(`[1]`), "Invalid arguments for tool listTags: the arguments must be a JSON object, got [1]"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams || !strings.HasPrefix(rpcErr.Message, tc.want) {
			t.Errorf("%s(%v) = %v, %v\nwant a -32602 error starting %q", tc.tool, tc.args, res, err, tc.want)
		}
	}
}
