package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/app/engine"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/retrieval"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/json")

// jsonCase is one command run with --json: its golden file holds the exit
// code, stdout and stderr.
type jsonCase struct {
	name string
	run  func(ctx context.Context, args []string, stdout, stderr *bytes.Buffer) int
	args []string
}

// TestJSONShapes: every command's --json answer, and its errors, as
// docs/command-line.md documents them. A change to a shape shows as a
// golden diff (go test ./adapters/cli -run TestJSONShapes -update
// rewrites them); every stdout is one JSON object, every stderr line one
// JSON object.
func TestJSONShapes(t *testing.T) {
	ctx := context.Background()
	getLib := getCLILibrary(t)
	searchLib := searchCLILibrary(t)
	ranked := searchCLILibrary(t)
	mem, err := sqlitesectionindex.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mem.Close() })
	ranked.UseIndex(mem, nil)
	if _, err := ranked.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	checkLib := searchCLILibraryWith(t, map[string]string{"ok.md": "# OK\n", "bad.md": "---\ntags: go\n---\n# Bad\n"})
	gapEngine := engine.New(&gapsOnly{gaps: []knowledge.Knowledge{
		{ID: 2, Kind: "gap", Subject: "rate limits", Text: "no doc says how the gateway limits clients", At: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC),
			Tags: knowledge.EngineTags{Session: "s-1", Project: "gateway", Caller: "claude"}},
		{ID: 1, Kind: "gap", Subject: "backups", Text: "where are backups kept?", At: time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC), Tags: knowledge.EngineTags{Session: "s-0"}},
	}}, engine.Config{})
	on := func(lib *library.Library, f func(context.Context, *library.Library, []string, *bytes.Buffer, *bytes.Buffer) int) func(context.Context, []string, *bytes.Buffer, *bytes.Buffer) int {
		return func(ctx context.Context, args []string, out, errOut *bytes.Buffer) int {
			return f(ctx, lib, args, out, errOut)
		}
	}
	ls := func(ctx context.Context, lib *library.Library, args []string, out, errOut *bytes.Buffer) int {
		return runLs(ctx, lib, args, out, errOut)
	}
	get := func(ctx context.Context, lib *library.Library, args []string, out, errOut *bytes.Buffer) int {
		return RunGet(ctx, lib, args, out, errOut)
	}
	check := func(ctx context.Context, lib *library.Library, args []string, out, errOut *bytes.Buffer) int {
		return runCheck(ctx, lib, args, out, errOut)
	}
	gaps := func(ctx context.Context, args []string, out, errOut *bytes.Buffer) int {
		return RunGaps(ctx, gapEngine, args, out, errOut)
	}
	for _, tc := range []jsonCase{
		{"ls", on(getLib, ls), []string{"--json"}},
		{"ls-folder-no-outline", on(getLib, ls), []string{"backend", "--section-depth", "0", "--json"}},
		{"ls-doc", on(getLib, ls), []string{"auth", "--json"}},
		{"ls-unknown-folder", on(getLib, ls), []string{"nosuch", "--json"}},
		{"ls-with-max-tokens", on(getLib, ls), []string{"--json", "--max-tokens", "100"}},
		{"search", on(searchLib, runSearchBuf), []string{"token", "--json"}},
		{"search-regex-code", on(getLib, runSearchBuf), []string{"--regex", "revoked_at|^### Fan", "--json", "--max-results", "3"}},
		{"search-ranked", on(ranked, runSearchBuf), []string{"--ranked", "rotate tokens", "--json"}},
		{"search-unknown-flag", on(searchLib, runSearchBuf), []string{"token", "--fuzzy", "--json"}},
		{"search-bad-regex", on(searchLib, runSearchBuf), []string{"--regex", "a(", "--json"}},
		{"get", on(getLib, get), []string{`{"doc": "auth", "sections": ["login-flow"]}`, "caching", "--json"}},
		{"get-images", on(getLib, get), []string{"gallery", "--include-images", "--json"}},
		{"get-budget", on(getLib, get), []string{"auth", "caching", "--max-tokens", "150", "--json"}},
		{"get-unmatched", on(getLib, get), []string{"auth", "nosuch", "--json"}},
		{"tags", on(searchLib, runTagsBuf), []string{"--json"}},
		{"check", on(checkLib, check), []string{"--json"}},
		{"check-ok", on(searchLib, check), []string{"--json"}},
		{"check-no-docs", on(searchCLILibraryWith(t, nil), check), []string{"--json"}},
		{"gaps", gaps, []string{"--json"}},
		{"gaps-bad-limit", gaps, []string{"--json", "--limit", "-1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := tc.run(ctx, tc.args, &out, &errOut)
			stdout := out.String()
			if out.Len() > 0 {
				// One object on one line; the golden file holds it
				// indented, for review.
				var indented bytes.Buffer
				if strings.Count(stdout, "\n") != 1 || !strings.HasSuffix(stdout, "\n") || json.Indent(&indented, out.Bytes(), "", "  ") != nil {
					t.Fatalf("stdout is not one JSON object on one line:\n%s", stdout)
				}
				stdout = indented.String()
			}
			for _, line := range strings.Split(strings.TrimSpace(errOut.String()), "\n") {
				if line != "" && !json.Valid([]byte(line)) {
					t.Errorf("a stderr line is not JSON: %q", line)
				}
			}
			got := fmt.Sprintf("exit %d\n-- stdout --\n%s-- stderr --\n%s", code, stdout, errOut.String())
			file := filepath.Join("testdata", "json", tc.name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if got != string(want) {
				t.Errorf("librarian %s %s:\n%s\nwant (%s):\n%s", tc.name, strings.Join(tc.args, " "), got, file, want)
			}
		})
	}
}

// TestJSONExitCodesAsText: --json changes what is printed, never the exit
// code: each case exits as it does without --json.
func TestJSONExitCodesAsText(t *testing.T) {
	ctx := context.Background()
	lib := searchCLILibrary(t)
	for _, args := range [][]string{{"token"}, {"token", "nosuch"}, {"token", "--fuzzy"}, {"--regex", "a("}, {""}} {
		var a, b bytes.Buffer
		text := RunSearch(ctx, lib, args, &a, &b)
		asJSON := RunSearch(ctx, lib, append(args, "--json"), &a, &b)
		if text != asJSON {
			t.Errorf("search %q: exit %d as text, %d with --json", args, text, asJSON)
		}
	}
}

// searchCLILibraryWith writes files (name → text) as a frontmatter library.
func searchCLILibraryWith(t *testing.T, files map[string]string) *library.Library {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return openFrontmatter(t, dir)
}

// gapsOnly is an engine that lists gaps and does nothing else.
type gapsOnly struct {
	retrieval.Engine
	gaps []knowledge.Knowledge
}

func (g *gapsOnly) Gaps(_ context.Context, limit int) ([]knowledge.Knowledge, error) {
	if limit > 0 && limit < len(g.gaps) {
		return g.gaps[:limit], nil
	}
	return g.gaps, nil
}

// openFrontmatter opens the frontmatter library at dir.
func openFrontmatter(t *testing.T, dir string) *library.Library {
	t.Helper()
	src, err := frontmatterindex.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
}
