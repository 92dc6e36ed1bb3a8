package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/search"
)

// searchTestLibrary is a small frontmatter library: tags inherited from
// index.md, frontmatter that must not be searched, nested sections.
var searchTestLibrary = map[string]string{
	"index.md": "---\ntags: [handbook]\n---\n# Handbook\n\nWhere the team writes things down.\n",
	"backend/auth.md": "---\nsummary: token validation\ntags: [security]\n---\n# Auth\n\nTokens in short.\n\n" +
		"## Refresh tokens\n\nOpaque strings.\n\n### Rotation\n\nEvery refresh returns a NEW refresh token.\n",
	"guides/setup.md": "# Setup\n\nClone the repo, then ask for a token.\n",
}

// connectSearch serves the library tool set over in-memory transports and
// returns a go-sdk client session speaking protocolVersion ("" = default).
func connectSearch(t *testing.T, protocolVersion string) *mcp.ClientSession {
	t.Helper()
	dir := t.TempDir()
	for name, text := range searchTestLibrary {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := frontmatterindex.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	lib := library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
	srv := mcpserver.NewServer(mcpserver.Options{Name: "librarian", Version: "test"})
	mcpserver.AddLibraryTools(srv, browse.New(lib), search.New(lib), nil, mcpserver.Ceilings{})

	return connectClient(t, srv, "search-test", protocolVersion)
}

func callText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): protocol error %v", tool, args, err)
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return strings.Join(texts, "\n"), res.IsError
}

func TestSearchTools(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		cs := connectSearch(t, version)
		tests := []struct {
			name    string
			tool    string
			args    map[string]any
			isError bool
			want    string // the whole text, or with isError a part of it
		}{
			{"defaults: whole library, case-insensitive", "search_documents", map[string]any{"query": "token"}, false,
				`4 hits in 2 of 3 docs for "token" (string, case-insensitive)` + "\n\n" +
					"backend/auth (backend/auth.md) ~43 tokens\n" +
					"§ _intro L5–8 ~7 tokens\nL7: Tokens in short.\n" +
					"§ refresh-tokens L9–15 ~24 tokens\nL9: ## Refresh tokens\n" +
					"§ refresh-tokens/rotation L13–15 ~15 tokens\nL15: Every refresh returns a NEW refresh token.\n\n" +
					"guides/setup (guides/setup.md) ~12 tokens\n" +
					"§ _intro L1–3 ~12 tokens\nL3: Clone the repo, then ask for a token."},
			{"context and whole_word", "search_documents", map[string]any{"query": "refresh", "whole_word": true, "context": 1}, false,
				`2 hits in 1 of 3 docs for "refresh" (string, whole word, case-insensitive)` + "\n\n" +
					"backend/auth (backend/auth.md) ~43 tokens\n" +
					"§ _intro L5–8 ~7 tokens\nL8-\n§ refresh-tokens L9–15 ~24 tokens\nL9: ## Refresh tokens\nL10-\n" +
					"§ refresh-tokens/rotation L13–15 ~15 tokens\nL14-\nL15: Every refresh returns a NEW refresh token."},
			{"context out of range", "search_documents", map[string]any{"query": "x", "context": 99}, true, "'context' must be 0 to 20 lines, got 99"},
			{"regex, case-sensitive, root", "search_documents",
				map[string]any{"query": `^#+ [A-Z]`, "mode": "regex", "case_sensitive": true, "root": "backend"}, false,
				`3 hits in 1 of 1 doc for "^#+ [A-Z]" (regex, case-sensitive)` + "\n\n" +
					"backend/auth (backend/auth.md) ~43 tokens\n" +
					"§ _intro L5–8 ~7 tokens\nL5: # Auth\n§ refresh-tokens L9–15 ~24 tokens\nL9: ## Refresh tokens\n§ refresh-tokens/rotation L13–15 ~15 tokens\nL13: ### Rotation"},
			{"max_results cut", "search_documents", map[string]any{"query": "token", "max_results": 1}, false,
				`4 hits in 2 of 3 docs for "token" (string, case-insensitive)` + "\n\n" +
					"backend/auth (backend/auth.md) ~43 tokens\n" +
					"§ _intro L5–8 ~7 tokens\nL7: Tokens in short.\n\n" +
					"… 3 more hits in 2 docs not shown (max_results=1): narrow root, tags or the query, or raise max_results"},
			{"tags and depth", "search_documents", map[string]any{"query": "the", "tags": []string{"handbook"}, "depth": 1}, false,
				`1 hit in 1 of 1 doc for "the" (string, case-insensitive)` + "\n\n" +
					"index (index.md) ~18 tokens · tags: handbook\n§ _intro L4–6 ~12 tokens\nL6: Where the team writes things down."},
			{"frontmatter is not searched", "search_documents", map[string]any{"query": "validation"}, false,
				`No hits for "validation" in 3 docs (string, case-insensitive).`},
			{"invalid regex", "search_documents", map[string]any{"query": "a(", "mode": "regex"}, true,
				"invalid regex \"a(\": error parsing regexp: missing closing ): `a(`"},
			{"empty query", "search_documents", map[string]any{"query": ""}, true, "'query' is empty"},
			{"missing query", "search_documents", map[string]any{}, true, "query"},
			{"unknown mode", "search_documents", map[string]any{"query": "x", "mode": "fuzzy"}, true, "mode"},
			{"negative max_results", "search_documents", map[string]any{"query": "x", "max_results": -1}, true, "'max_results' must be 0 (no limit) or more, got -1"},
			{"unknown field", "search_documents", map[string]any{"query": "x", "caseSensitive": true}, true, "caseSensitive"},
			{"unknown root", "search_documents", map[string]any{"query": "x", "root": "nosuch"}, true, "no folder 'nosuch'"},
			{"tags", "list_tags", map[string]any{}, false, "- handbook (3)\n- security (1)"},
			{"tags with paths under a root", "list_tags", map[string]any{"root": "backend", "include_paths": true}, false,
				"- handbook (1)\n  - backend/auth.md\n- security (1)\n  - backend/auth.md"},
			{"tags at depth 0", "list_tags", map[string]any{"depth": 0}, false, "- handbook (1)"},
			{"tags, wrong type", "list_tags", map[string]any{"include_paths": "yes"}, true, "include_paths"},
		}
		for _, tc := range tests {
			t.Run(version+"/"+tc.name, func(t *testing.T) {
				got, isError := callText(t, cs, tc.tool, tc.args)
				if isError != tc.isError {
					t.Fatalf("%s(%v): got isError %v (%s), want %v", tc.tool, tc.args, isError, got, tc.isError)
				}
				if tc.isError && !strings.Contains(got, tc.want) || !tc.isError && got != tc.want {
					t.Errorf("%s(%v): got\n%s\nwant\n%s", tc.tool, tc.args, got, tc.want)
				}
			})
		}
	}
}

// TestSearchToolsSchemas checks what agents are told: defaults, the mode
// enum, read-only annotations, and that the description says RE2.
func TestSearchToolsSchemas(t *testing.T) {
	cs := connectSearch(t, "")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		tools[tool.Name] = tool
	}
	type prop struct {
		Type    any   `json:"type"`
		Default any   `json:"default"`
		Enum    []any `json:"enum"`
	}
	schemaOf := func(name string) (map[string]prop, []string) {
		tool := tools[name]
		if tool == nil {
			t.Fatalf("tool %s is not listed", name)
		}
		raw, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Properties map[string]prop `json:"properties"`
			Required   []string        `json:"required"`
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		return s.Properties, s.Required
	}
	props, required := schemaOf("search_documents")
	// No default is published: each is what leaving the argument out means
	// (readArguments fills them in), and tools/list is paid for every turn.
	wantDefaults := map[string]any{"mode": nil, "case_sensitive": nil, "root": nil, "depth": nil, "max_results": nil}
	for name, want := range wantDefaults {
		if got := props[name].Default; got != want {
			t.Errorf("search_documents.%s default: got %v, want %v", name, got, want)
		}
	}
	if got := props["mode"].Enum; len(got) != 3 || got[0] != "string" || got[1] != "regex" || got[2] != "ranked" {
		t.Errorf("search_documents.mode enum: got %v, want [string regex ranked]", got)
	}
	if len(required) != 1 || required[0] != "query" {
		t.Errorf("search_documents required: got %v, want [query]", required)
	}
	if d := tools["search_documents"].Description; !strings.Contains(d, "RE2") || !strings.Contains(d, "linear time") {
		t.Errorf("search_documents description does not say regexes are RE2 (linear time): %s", d)
	}
	props, _ = schemaOf("list_tags")
	for name, want := range map[string]any{"root": nil, "include_paths": nil, "depth": nil} {
		if got := props[name].Default; got != want {
			t.Errorf("list_tags.%s default: got %v, want %v", name, got, want)
		}
	}
	for _, name := range []string{"search_documents", "list_tags"} {
		a := tools[name].Annotations
		if a == nil || !a.ReadOnlyHint {
			t.Errorf("%s annotations: got %+v, want read-only", name, a)
		}
	}
}
