package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/tscompat"
)

// The replay test of the `librarian-ts` tool set: every call the original
// TypeScript server answered on its example corpus (recorded by driving it
// over stdio with the official TypeScript client) is sent to ours through a
// real go-sdk client, and the answers are compared byte for byte.
//
// The corpus and recordings are MIT-licensed copies, kept in the repository
// under testdata/librarian-examples (LICENSE beside them), so this test never
// skips; TestTSFixtureMatchesShared checks the copy against the original in
// ../shared when that folder is there.

// tsDialectDifferences are the recorded calls whose pattern means something
// else in Go's RE2 than in JavaScript, the original's regex dialect
// (recorded/README.md allows these to differ). For each, ours must give the
// answer RE2 implies, written here, so that the difference stays deliberate.
var tsDialectDifferences = map[string]struct{ reason, want string }{
	"searchDocuments_regex_inline_flag_group": {
		reason: "JavaScript has no inline flags: it rejected (?m)^# Bun$ and searched for it as a literal (no hit); RE2 accepts (?m), so ours finds the line '# Bun'",
		want:   "- /hono/guides/bun.md\n  - tags: documentation, frontend, hono, guides, overview, bun, setup, static-assets, testing",
	},
	"searchDocuments_regex_lookbehind": {
		reason: "RE2 has no lookbehind: ours searches for (?<=use)LocalStorage as a literal (no hit), where JavaScript matched useLocalStorage",
		want:   "No documents found.",
	},
	"searchDocuments_regex_backreference": {
		reason: `RE2 has no backreferences: ours searches for \b(\w+) \1\b as a literal (no hit), where JavaScript matched repeated words`,
		want:   "No documents found.",
	},
}

// tsExamples is the folder of the example corpus and its recordings.
func tsExamples(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "testdata", "librarian-examples")
	if _, err := os.Stat(filepath.Join(dir, "recorded", "calls.json")); err != nil {
		t.Fatalf("the librarian-ts fixture is missing: %v", err)
	}
	return dir
}

// repoRoot is the folder holding go.mod, found upwards from the test's
// working directory (its package folder).
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}

// tsLibrary is the library over the example corpus, built once and shared
// by every test (each server over it is new), so that each doc is parsed
// once.
func tsLibrary(t *testing.T) *library.Library {
	t.Helper()
	tsLib.once.Do(func() {
		src, err := frontmatterindex.New(filepath.Join(tsExamples(t), "docs"))
		if err != nil {
			tsLib.err = err
			return
		}
		tsLib.lib = library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
		// Served as in production: through a section index in its files
		// (the main file and its side files, attached), so every replayed
		// search is narrowed by its candidates and must still answer byte
		// for byte. The folder goes with the test binary's temporary files.
		dir, err := os.MkdirTemp("", "librarian-ts-replay-")
		if err != nil {
			tsLib.err = err
			return
		}
		tsLib.dir = dir
		ix, err := sqlitesectionindex.OpenFile(context.Background(), filepath.Join(dir, "examples.sqlite"), sqlitesectionindex.Options{})
		if err != nil {
			tsLib.err = err
			return
		}
		tsLib.lib.UseIndex(ix, nil)
		if _, err := tsLib.lib.Refresh(context.Background(), nil); err != nil {
			tsLib.err = err
		}
	})
	if tsLib.err != nil {
		t.Fatal(tsLib.err)
	}
	return tsLib.lib
}

var tsLib struct {
	once sync.Once
	lib  *library.Library
	dir  string // its index's folder, removed after the tests (TestMain)
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if tsLib.dir != "" {
		os.RemoveAll(tsLib.dir)
	}
	os.Exit(code)
}

// connectTS serves the librarian-ts tools over the example corpus and
// returns a client session to them, speaking protocolVersion ("" is the Go
// client's default).
func connectTS(t *testing.T, protocolVersion string) *mcp.ClientSession {
	t.Helper()
	lib := tsLibrary(t)
	srv := mcpserver.NewServer(mcpserver.Options{Name: "Librarian", Version: "1.0.0"})
	mcpserver.AddTSTools(srv, tscompat.New(lib), nil)

	return connectClient(t, srv, "ts-replay", protocolVersion)
}

// recordedCall is one recorded/calls/NAME.json.
type recordedCall struct {
	Name      string          `json:"name"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Outcome   string          `json:"outcome"` // "result" or "rpc_error"
	Result    struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	} `json:"result"`
	Error struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// recordedCalls reads calls.json and each call's recording, in order.
func recordedCalls(t *testing.T) []recordedCall {
	t.Helper()
	rec := filepath.Join(tsExamples(t), "recorded")
	var index []struct {
		Name string `json:"name"`
	}
	readJSON(t, filepath.Join(rec, "calls.json"), &index)
	calls := make([]recordedCall, len(index))
	for i, c := range index {
		readJSON(t, filepath.Join(rec, "calls", c.Name+".json"), &calls[i])
		txt, err := os.ReadFile(filepath.Join(rec, "calls", c.Name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		// The .txt is the recorded text; the .json holds the same, as content
		// items. Check the fixture agrees with itself before trusting it.
		if calls[i].Outcome == "result" && recordedText(calls[i]) != string(txt) {
			t.Fatalf("%s: the .txt and .json recordings disagree", c.Name)
		}
	}
	return calls
}

func recordedText(c recordedCall) string {
	texts := make([]string, len(c.Result.Content))
	for i, item := range c.Result.Content {
		texts[i] = item.Text
	}
	return strings.Join(texts, "\n")
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// zodPath finds the argument a recorded zod error names ("path": ["depth"]).
var zodPath = regexp.MustCompile(`"path": \[\s*"([^"]+)"`)

func TestTSReplay(t *testing.T) {
	calls := recordedCalls(t)
	if len(calls) != 84 {
		t.Fatalf("calls.json holds %d calls, want the 84 recorded", len(calls))
	}
	for _, pv := range []string{"", "2025-11-25"} {
		name := "protocol-default"
		if pv != "" {
			name = "protocol-" + pv
		}
		t.Run(name, func(t *testing.T) {
			cs := connectTS(t, pv)
			matched, dialect := 0, 0
			for _, c := range calls {
				ok := t.Run(c.Name, func(t *testing.T) {
					replay(t, cs, c)
				})
				switch _, isDialect := tsDialectDifferences[c.Name]; {
				case ok && isDialect:
					dialect++
				case ok:
					matched++
				}
			}
			t.Logf("%d of %d recorded calls answered as the original; %d differ by regex dialect, as documented", matched, len(calls), dialect)
		})
	}
}

// replay sends one recorded call and compares our answer with the original's.
func replay(t *testing.T, cs *mcp.ClientSession, c recordedCall) {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.Tool, Arguments: c.Arguments})
	if c.Outcome == "rpc_error" {
		// The original rejected the arguments with a JSON-RPC error: so must
		// ours (recorded/README.md lets the wording differ), naming the field.
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) {
			t.Fatalf("arguments %s: got result %v, err %v; want a JSON-RPC error like the original's %d", c.Arguments, resultText(res), err, c.Error.Code)
		}
		if rpcErr.Code != c.Error.Code {
			t.Errorf("error code = %d, want %d", rpcErr.Code, c.Error.Code)
		}
		if m := zodPath.FindStringSubmatch(c.Error.Message); m == nil || !strings.Contains(rpcErr.Message, m[1]) {
			t.Errorf("error %q does not name the argument the original's names (%s)", rpcErr.Message, c.Error.Message)
		}
		return
	}
	if err != nil {
		t.Fatalf("arguments %s: %v", c.Arguments, err)
	}
	want, wantIsError := recordedText(c), c.Result.IsError
	if d, ok := tsDialectDifferences[c.Name]; ok {
		t.Logf("differs from the original on purpose: %s", d.reason)
		want = d.want
	}
	if got := resultText(res); got != want || res.IsError != wantIsError {
		t.Errorf("arguments %s:\ngot (isError %v)\n%s\nwant (isError %v)\n%s", c.Arguments, res.IsError, got, wantIsError, want)
	}
	for _, item := range res.Content {
		if _, ok := item.(*mcp.TextContent); !ok {
			t.Errorf("content item %T, want text only", item)
		}
	}
}

func resultText(res *mcp.CallToolResult) string {
	if res == nil {
		return "<nil>"
	}
	var texts []string
	for _, item := range res.Content {
		if tc, ok := item.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// TestTSToolsList checks that ours advertises the original's five tools with
// its input schemas, property for property, each marked read-only.
func TestTSToolsList(t *testing.T) {
	var recorded struct {
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"inputSchema"`
		} `json:"tools"`
	}
	readJSON(t, filepath.Join(tsExamples(t), "recorded", "tools_list.json"), &recorded)

	cs := connectTS(t, "")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ours := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		ours[tool.Name] = tool
	}
	if len(ours) != len(recorded.Tools) {
		t.Errorf("%d tools, want the original's %d", len(ours), len(recorded.Tools))
	}
	for _, want := range recorded.Tools {
		tool, ok := ours[want.Name]
		if !ok {
			t.Errorf("no tool %q", want.Name)
			continue
		}
		b, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want.InputSchema) {
			t.Errorf("%s: inputSchema\n%s\nwant the original's\n%v", want.Name, b, want.InputSchema)
		}
		if tool.Description != "" {
			t.Errorf("%s: description %q; the original's tools had none", want.Name, tool.Description)
		}
		if a := tool.Annotations; a == nil || !a.ReadOnlyHint {
			t.Errorf("%s: annotations %+v, want read-only", want.Name, a)
		}
	}
}

// TestTSEmbeddedSchemas checks that the schemas compiled into the server
// (ts_tools.json) are the recorded ones.
func TestTSEmbeddedSchemas(t *testing.T) {
	embedded, err := os.ReadFile("ts_tools.json")
	if err != nil {
		t.Fatal(err)
	}
	recorded, err := os.ReadFile(filepath.Join(tsExamples(t), "recorded", "tools_list.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(embedded, recorded) {
		t.Error("adapters/mcpserver/ts_tools.json differs from testdata/librarian-examples/recorded/tools_list.json")
	}
}

// TestTSFixtureMatchesShared checks the repository's copy of the example
// corpus and recordings against the original in ../shared, when it is there
// (it is beside the clone in CI and on the project's machines).
func TestTSFixtureMatchesShared(t *testing.T) {
	shared := filepath.Join(repoRoot(t), "..", "shared", "corpora", "librarian-examples")
	if _, err := os.Stat(shared); err != nil {
		t.Skipf("no ../shared/corpora/librarian-examples beside the repository (%v): only the copy in testdata is used", err)
	}
	ours := tsExamples(t)
	count := 0
	err := filepath.WalkDir(shared, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(shared, p)
		if err != nil {
			return err
		}
		want, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(ours, rel))
		if err != nil {
			t.Errorf("testdata/librarian-examples lacks %s: %v", rel, err)
			return nil
		}
		if !bytes.Equal(got, want) {
			t.Errorf("testdata/librarian-examples/%s differs from the shared original", rel)
		}
		count++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if count == 0 {
		t.Error("the shared folder holds no files")
	}
}

// TestTSArgumentChecks covers what the recordings do not: defaults filled
// in, unknown arguments ignored, and wrong shapes refused.
func TestTSArgumentChecks(t *testing.T) {
	cs := connectTS(t, "")
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		tool    string
		args    any
		wantErr string // "" = a result whose text starts with wantText
		want    string
	}{
		{"no arguments at all", "listTags", nil, "", "- documentation (150)"},
		{"null arguments", "listTags", json.RawMessage("null"), "", "- documentation (150)"},
		{"unknown argument ignored", "getDocument", map[string]any{"filepath": "index.md", "extra": true}, "", "**/index.md**"},
		{"arguments not an object", "listTags", json.RawMessage(`["x"]`), "Invalid arguments for tool listTags", ""},
		{"tags not a list", "listDocuments", map[string]any{"tags": "jwt"}, "tags", ""},
		{"filepaths holding a number", "getDocuments", map[string]any{"filepaths": []any{"/index.md", 2}}, "filepaths", ""},
		{"includeFilepaths not a boolean", "listTags", map[string]any{"includeFilepaths": 1}, "includeFilepaths", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if tc.wantErr != "" {
				var rpcErr *jsonrpc.Error
				if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams || !strings.Contains(rpcErr.Message, tc.wantErr) {
					t.Fatalf("got result %q, err %v; want an invalid-params error naming %q", resultText(res), err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := resultText(res); res.IsError || !strings.HasPrefix(got, tc.want) {
				t.Errorf("got (isError %v)\n%s\nwant it to start with %q", res.IsError, got, tc.want)
			}
		})
	}
}

// TestTSReplayGoesThroughTheIndex: the replay's library has its docs
// indexed, so the replayed searches are the narrowed ones.
func TestTSReplayGoesThroughTheIndex(t *testing.T) {
	lib := tsLibrary(t)
	cat, err := lib.Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st, err := lib.Index().Status(context.Background())
	if err != nil || st.Docs != len(cat.Docs) {
		t.Errorf("index status %+v (%v), want all %d docs indexed", st, err, len(cat.Docs))
	}
}
