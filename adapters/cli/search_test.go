package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/domain"
)

// searchCLILibrary writes a small frontmatter library and opens it.
func searchCLILibrary(t *testing.T) *library.Library {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"index.md":        "---\ntags: [handbook]\n---\n# Handbook\n\nRead the guides first.\n",
		"backend/auth.md": "---\ntags: [security]\n---\n# Auth\n\n## Tokens\n\nTokens rotate.\n\n## -x flags\n\nA line with -x in it.\n",
		"guides/setup.md": "# Setup\n\nAsk for a token.\n",
	}
	for name, text := range files {
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
	return library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
}

// TestRunSearchAndTags: the commands print the tools' text (the app's,
// checked against a direct call) and take flags and operands in any order.
func TestRunSearchAndTags(t *testing.T) {
	lib := searchCLILibrary(t)
	ctx := context.Background()
	direct := func(f func() (string, error)) string {
		t.Helper()
		out, err := f()
		if err != nil {
			t.Fatal(err)
		}
		return out + "\n"
	}
	tests := []struct {
		name string
		run  func(context.Context, *library.Library, []string, *bytes.Buffer, *bytes.Buffer) int
		args []string
		want string
	}{
		{"search, defaults", runSearchBuf, []string{"token"}, direct(func() (string, error) {
			return search.New(lib).SearchDocuments(ctx, search.SearchRequest{Query: "token", Scope: domain.Scope{Depth: -1}, MaxResults: 50})
		})},
		{"search, flags before and after", runSearchBuf, []string{"--regex", `^#+ T`, "--case-sensitive", "--folder", "backend", "--max-results=1"}, direct(func() (string, error) {
			return search.New(lib).SearchDocuments(ctx, search.SearchRequest{Query: `^#+ T`, Mode: search.SearchRegex, CaseSensitive: true,
				Scope: domain.Scope{Root: "backend", Depth: -1}, MaxResults: 1})
		})},
		{"search, tags and depth", runSearchBuf, []string{"the", "--tags", "handbook,nosuch", "--depth", "1"}, direct(func() (string, error) {
			return search.New(lib).SearchDocuments(ctx, search.SearchRequest{Query: "the", Scope: domain.Scope{Tags: []string{"handbook", "nosuch"}, Depth: 1}, MaxResults: 50})
		})},
		{"search, a query starting with -", runSearchBuf, []string{"--folder", "backend", "--", "-x"}, direct(func() (string, error) {
			return search.New(lib).SearchDocuments(ctx, search.SearchRequest{Query: "-x", Scope: domain.Scope{Root: "backend", Depth: -1}, MaxResults: 50})
		})},
		{"tags", runTagsBuf, nil, "- handbook (3)\n- security (1)\n"},
		{"tags, paths, root", runTagsBuf, []string{"--include-paths", "backend"}, "- handbook (1)\n  - backend/auth.md\n- security (1)\n  - backend/auth.md\n"},
		{"tags, depth 0", runTagsBuf, []string{"--depth", "0"}, "- handbook (1)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := tc.run(ctx, lib, tc.args, &stdout, &stderr); code != 0 {
				t.Fatalf("%v: exit %d, stderr %s", tc.args, code, stderr.String())
			}
			if got := stdout.String(); got != tc.want {
				t.Errorf("%v: got\n%s\nwant\n%s", tc.args, got, tc.want)
			}
		})
	}
}

func TestRunSearchAndTagsMisuse(t *testing.T) {
	lib := searchCLILibrary(t)
	tests := []struct {
		name       string
		run        func(context.Context, *library.Library, []string, *bytes.Buffer, *bytes.Buffer) int
		args       []string
		code       int
		wantStdout string
		wantStderr string
	}{
		{"no query", runSearchBuf, nil, 2, "", "search: takes one QUERY and at most one FOLDER"},
		{"three operands", runSearchBuf, []string{"a", "b", "c"}, 2, "", `got 3: ["a" "b" "c"]`},
		{"empty query", runSearchBuf, []string{""}, 2, "", "search: QUERY is empty"},
		{"negative max results", runSearchBuf, []string{"x", "--max-results", "-1"}, 2, "", "search: --max-results: want 0 (no limit) or more, got -1"},
		{"invalid regex", runSearchBuf, []string{"--regex", "a("}, 2, "", "librarian: invalid argument: invalid regex \"a(\": error parsing regexp: missing closing ): `a(`"},
		{"unknown flag", runSearchBuf, []string{"x", "--fuzzy"}, 2, "", "librarian: search: unknown flag --fuzzy (see librarian search --help)"},
		{"bad depth", runSearchBuf, []string{"x", "--depth", "deep"}, 2, "", `search: --depth: want a whole number, got "deep" (see librarian search --help)`},
		{"unknown folder", runSearchBuf, []string{"x", "nosuch"}, 1, "", "no folder 'nosuch'"},
		{"unknown folder flag", runSearchBuf, []string{"x", "--folder", "nosuch"}, 1, "", "no folder 'nosuch'"},
		{"absolute folder", runSearchBuf, []string{"x", "/tmp/big"}, 2, "", `search: folder "/tmp/big" is an absolute path, but a folder is relative to the library root (e.g. backend/storage); to use /tmp/big as the library, write --root /tmp/big`},
		{"folder twice", runSearchBuf, []string{"x", "backend", "--folder", "guides"}, 2, "", `FOLDER given twice`},
		{"tags absolute folder", runTagsBuf, []string{"--folder=/srv/docs"}, 2, "", `tags: folder "/srv/docs" is an absolute path`},
		{"tags unknown flag", runTagsBuf, []string{"--fuzzy"}, 2, "", "librarian: tags: unknown flag --fuzzy (see librarian tags --help)"},
		{"bad boolean", runTagsBuf, []string{"--include-paths=maybe"}, 2, "", `tags: --include-paths: want true or false, got "maybe"`},
		{"search help", runSearchBuf, []string{"--help"}, 0, "usage: librarian search QUERY", ""},
		{"tags two folders", runTagsBuf, []string{"backend", "guides"}, 2, "", `tags: takes at most one FOLDER, got ["backend" "guides"]`},
		{"tags help", runTagsBuf, []string{"-h"}, 0, "usage: librarian tags", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := tc.run(context.Background(), lib, tc.args, &stdout, &stderr)
			if code != tc.code || !strings.Contains(stdout.String(), tc.wantStdout) || !strings.Contains(stderr.String(), tc.wantStderr) {
				t.Errorf("%v: got exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
					tc.args, code, stdout.String(), stderr.String(), tc.code, tc.wantStdout, tc.wantStderr)
			}
			if tc.code != 0 && stdout.Len() > 0 {
				t.Errorf("%v: a failure wrote to stdout: %q", tc.args, stdout.String())
			}
		})
	}
}

func runSearchBuf(ctx context.Context, lib *library.Library, args []string, stdout, stderr *bytes.Buffer) int {
	return RunSearch(ctx, lib, args, stdout, stderr)
}

func runTagsBuf(ctx context.Context, lib *library.Library, args []string, stdout, stderr *bytes.Buffer) int {
	return RunTags(ctx, lib, args, stdout, stderr)
}
