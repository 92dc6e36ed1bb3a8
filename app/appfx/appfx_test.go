package appfx_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"

	"github.com/librarian/librarian/app/appfx"
	"github.com/librarian/librarian/app/config"
)

// TestGraph builds the whole fx graph for each convention and tool set
// choice, and checks the MCP server it yields serves the right tools.
func TestGraph(t *testing.T) {
	library := filepath.Join("..", "..", "library")
	corpus := filepath.Join("..", "..", "testdata", "librarian-examples", "docs")
	for _, tc := range []struct {
		name       string
		settings   config.Settings
		convention string
		tools      []string
		// instructions holds what the server's instructions must say and
		// not say ("!" prefix).
		instructions []string
	}{
		{"json, library tools", config.Settings{Root: library, Convention: "auto"}, "json",
			[]string{"get_documents", "list_documents", "list_tags", "search_documents"}, nil},
		{"frontmatter, librarian-ts", config.Settings{Root: corpus, Convention: "auto", Tools: []string{"librarian-ts"}}, "frontmatter",
			[]string{"getDocument", "getDocuments", "listDocuments", "listTags", "searchDocuments"}, nil},
		{"engine beside library", config.Settings{Root: library, Convention: "json", EngineURL: "http://127.0.0.1:1"}, "json",
			[]string{"get_documents", "librarian_ask", "librarian_brief", "librarian_depends", "librarian_discuss", "librarian_gap",
				"librarian_guide", "librarian_locate", "librarian_session_log", "librarian_status", "librarian_tell",
				"list_documents", "list_tags", "search_documents"},
			[]string{"`librarian_locate` before grep", "!answer from this library"}},
		{"local engine over the library", config.Settings{Root: library, Convention: "json", Engine: "local"}, "json",
			[]string{"get_documents", "librarian_ask", "librarian_brief", "librarian_depends", "librarian_discuss", "librarian_gap",
				"librarian_guide", "librarian_locate", "librarian_session_log", "librarian_status", "librarian_tell",
				"list_documents", "list_tags", "search_documents"},
			[]string{"answer from this library", "not from your working tree", "!before grep", "!code index"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the index file's default folder
			s := tc.settings
			s.DocIndex, s.ImageIndex, s.MaxImageBytes, s.MaxAnswerTokens = "index.json", "images/index.json", 5<<20, 20000
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			if got := appfx.Convention(s); got != tc.convention {
				t.Errorf("Convention = %q, want %q", got, tc.convention)
			}
			logger := slog.New(slog.DiscardHandler)
			if err := fx.ValidateApp(appfx.Module(s, logger)); err != nil {
				t.Fatalf("ValidateApp: %v", err)
			}
			var srv *mcp.Server
			fxApp := fx.New(appfx.Module(s, logger), fx.Populate(&srv), fx.NopLogger)
			if err := fxApp.Err(); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			st, ct := mcp.NewInMemoryTransports()
			ss, err := srv.Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
			}
			sort.Strings(names)
			if strings.Join(names, ",") != strings.Join(tc.tools, ",") {
				t.Errorf("tools = %v, want %v", names, tc.tools)
			}
			instructions := cs.InitializeResult().Instructions
			for _, want := range tc.instructions {
				if not, ok := strings.CutPrefix(want, "!"); ok {
					if strings.Contains(instructions, not) {
						t.Errorf("instructions say %q:\n%s", not, instructions)
					}
				} else if !strings.Contains(instructions, want) {
					t.Errorf("instructions do not say %q:\n%s", want, instructions)
				}
			}
		})
	}
}

func TestMissingRootIsAClearError(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"the default", nil, `library root "./library" (` + filepath.Join(wd, "library") + `) does not exist (the default; set LIBRARY_ROOT or LIBRARIAN_DOCS_ROOT or --root or --docs-root)`},
		{"an env var, absolute", map[string]string{"LIBRARIAN_DOCS_ROOT": "/nonexistent/library"}, `library root "/nonexistent/library" does not exist (from LIBRARIAN_DOCS_ROOT)`},
		{"an env var, relative", map[string]string{"LIBRARY_ROOT": "docs"}, `library root "docs" (` + filepath.Join(wd, "docs") + `) does not exist (from LIBRARY_ROOT)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := config.LoadSettings(func(k string) string { return tc.env[k] }, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := appfx.CheckRoot(s); err == nil || err.Error() != tc.want {
				t.Errorf("CheckRoot = %v\nwant %s", err, tc.want)
			}
		})
	}
	s, _ := config.LoadSettings(func(string) string { return "" }, []config.FlagValue{{Name: "root", Value: "/nonexistent/lib"}})
	if err := appfx.CheckRoot(s); err == nil || !strings.HasSuffix(err.Error(), "(from --root)") {
		t.Errorf("CheckRoot = %v, want it to name --root", err)
	}
}
