package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// binary is the librarian binary built once for the end-to-end tests, so
// they drive exactly what users run.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "librarian-e2e")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "librarian")
	// Index files (LIBRARY_INDEX=on, the default) go to the user cache
	// folder: a throwaway one here, for this process and the servers it spawns.
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("building librarian: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// repoRoot is the module root, where library/ lives.
func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// connect starts the binary as an MCP server over stdio, as an agent's
// client does, with the given environment added.
func connect(t *testing.T, protocol string, env ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(binary)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = &testLogWriter{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	var opts *mcp.ClientSessionOptions
	if protocol != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: protocol}
	}
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, opts)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type testLogWriter struct{ t *testing.T }

func (w *testLogWriter) Write(p []byte) (int, error) {
	w.t.Logf("server stderr: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func callText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func TestStdioListDocuments(t *testing.T) {
	for _, protocol := range []string{"", "2025-11-25"} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			cs := connect(t, protocol, "LIBRARY_ROOT="+filepath.Join(repoRoot(t), "library"))
			tools, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range tools.Tools {
				names = append(names, tool.Name)
				if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
					t.Errorf("tool %s is not annotated read-only", tool.Name)
				}
			}
			if !contains(names, "list_documents") {
				t.Fatalf("tools = %v, want list_documents among them", names)
			}
			got, isErr := callText(t, cs, "list_documents", map[string]any{"root": "backend/storage", "line_bounds": true})
			if isErr {
				t.Fatalf("list_documents failed: %s", got)
			}
			for _, want := range []string{
				"backend/storage/ (2 docs, ~351 tokens)",
				"- caching [caching.md] ~226 tokens — Redis key conventions",
				"sections, 38 lines:",
				`§ _intro "Caching" L1–5`,
				`§ key-conventions "Key conventions" L6–16`,
				`§ invalidation "Invalidation" L17–34`,
				`§ invalidation/fan-out-deletes "Fan-out deletes" L21–34`,
				`§ ttl-rules "TTL rules" L35–38`,
			} {
				if !strings.Contains(got, want) {
					t.Errorf("list_documents output lacks %q:\n%s", want, got)
				}
			}
		})
	}
}

func TestStdioRejectsBadArguments(t *testing.T) {
	cs := connect(t, "", "LIBRARY_ROOT="+filepath.Join(repoRoot(t), "library"))
	for _, tc := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"rooot": "x"}, "rooot"},
		{map[string]any{"line_bounds": "yes"}, "line_bounds"},
	} {
		got, isErr := callText(t, cs, "list_documents", tc.args)
		if !isErr || !strings.Contains(got, tc.field) {
			t.Errorf("list_documents(%v) = %q (isError %v), want a tool error naming %q", tc.args, got, isErr, tc.field)
		}
	}
	got, isErr := callText(t, cs, "list_documents", map[string]any{"root": "nowhere"})
	if !isErr || !strings.Contains(got, "nowhere") {
		t.Errorf("unknown root: got %q (isError %v), want an error naming it", got, isErr)
	}
}

// TestInspectorCLI drives the binary with the MCP Inspector's CLI mode, a
// real client from npm (installed by .ci/run; LIBRARIAN_INSPECTOR names it).
func TestInspectorCLI(t *testing.T) {
	inspector := os.Getenv("LIBRARIAN_INSPECTOR")
	if inspector == "" {
		if p, err := exec.LookPath("mcp-inspector"); err == nil {
			inspector = p
		}
	}
	if _, err := os.Stat(inspector); inspector == "" || err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must provide the MCP Inspector (LIBRARIAN_INSPECTOR=%q)", inspector)
		}
		t.Skip("MCP Inspector not installed; .ci/run installs it (npm @modelcontextprotocol/inspector@2.12.0)")
	}
	lib := filepath.Join(repoRoot(t), "library")
	cmd := exec.Command(inspector, "--cli", "-e", "LIBRARY_ROOT="+lib, binary,
		"--method", "tools/call", "--tool-name", "list_documents", "--tool-arg", "root=backend/storage", "--tool-arg", "line_bounds=true")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("inspector: %v\n%s", err, out)
	}
	var res struct {
		Content []struct{ Type, Text string }
		IsError bool
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("inspector output is not a tool result: %v\n%s", err, out)
	}
	if res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, `§ invalidation/fan-out-deletes "Fan-out deletes" L21–34`) {
		t.Fatalf("inspector got %+v", res)
	}
}

// TestInspectorResources: a real client lists the library's docs as
// resources and reads one, as a person attaching a doc would.
func TestInspectorResources(t *testing.T) {
	inspector := os.Getenv("LIBRARIAN_INSPECTOR")
	if inspector == "" {
		if p, err := exec.LookPath("mcp-inspector"); err == nil {
			inspector = p
		}
	}
	if _, err := os.Stat(inspector); inspector == "" || err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must provide the MCP Inspector (LIBRARIAN_INSPECTOR=%q)", inspector)
		}
		t.Skip("MCP Inspector not installed; .ci/run installs it (npm @modelcontextprotocol/inspector@2.12.0)")
	}
	lib := filepath.Join(repoRoot(t), "library")
	out, err := exec.Command(inspector, "--cli", "-e", "LIBRARY_ROOT="+lib, binary, "--method", "resources/list").Output()
	if err != nil {
		t.Fatalf("inspector resources/list: %v\n%s", err, out)
	}
	var list struct {
		Resources []struct{ URI, Name, MimeType string }
	}
	if err := json.Unmarshal(out, &list); err != nil || len(list.Resources) == 0 {
		t.Fatalf("resources/list: %v\n%s", err, out)
	}
	uri := ""
	for _, r := range list.Resources {
		if r.Name == "auth" {
			uri = r.URI
		}
	}
	if uri != "librarian://doc/auth" {
		t.Fatalf("no auth doc resource: %s", out)
	}
	out, err = exec.Command(inspector, "--cli", "-e", "LIBRARY_ROOT="+lib, binary, "--method", "resources/read", "--uri", uri).Output()
	if err != nil {
		t.Fatalf("inspector resources/read: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "# Authentication") {
		t.Fatalf("resources/read %s: %s", uri, out)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestStdioGetDocumentsImages fetches docs with images over stdio and checks
// the image content items: MIME type, bytes equal to the file's, and their
// place right after the text that holds their stub.
func TestStdioGetDocumentsImages(t *testing.T) {
	lib := filepath.Join(repoRoot(t), "library")
	for _, protocol := range []string{"", "2025-11-25"} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			cs := connect(t, protocol, "LIBRARY_ROOT="+lib)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_documents", Arguments: map[string]any{
				"select":         []any{map[string]any{"doc": "auth", "sections": []string{"login-flow"}}, "caching", "backend/auth.md"},
				"include_images": true,
			}})
			if err != nil || res.IsError {
				t.Fatalf("get_documents: %v %+v", err, res)
			}
			wantImages := []struct{ file, stub string }{
				{"images/login-sequence.png", "![[image:img-login-sequence]]"},
				{"images/fanout.png", "![[image:img-fanout]]"},
			}
			var images int
			for i, c := range res.Content {
				img, ok := c.(*mcp.ImageContent)
				if !ok {
					continue
				}
				if images >= len(wantImages) {
					t.Fatalf("more images than expected: content %d", i)
				}
				w := wantImages[images]
				images++
				file, err := os.ReadFile(filepath.Join(lib, w.file))
				if err != nil {
					t.Fatal(err)
				}
				if img.MIMEType != "image/png" || !bytes.Equal(img.Data, file) {
					t.Errorf("image %d: MIME %q, %d bytes; want image/png and the %d bytes of %s", images, img.MIMEType, len(img.Data), len(file), w.file)
				}
				prev, ok := res.Content[i-1].(*mcp.TextContent)
				if i == 0 || !ok || !strings.HasSuffix(prev.Text, w.stub+"\n") {
					t.Errorf("image %d is not right after its stub's line", images)
				}
			}
			if images != len(wantImages) {
				t.Errorf("got %d images, want %d (the third selector overlaps the first and sends nothing new)", images, len(wantImages))
			}
			last, _ := res.Content[len(res.Content)-1].(*mcp.TextContent)
			if last == nil || !strings.Contains(last.Text, "overlaps select[0]") {
				t.Errorf("the answer should end with an overlap notice, got %+v", res.Content[len(res.Content)-1])
			}
		})
	}
}

// TestStdioSeed001Settings: a server configured the way seed 001's users
// configure theirs (LIBRARIAN_DOCS_ROOT) serves seed 001's tools beside the
// library tools, so swapping servers changes neither prompts nor config.
func TestStdioSeed001Settings(t *testing.T) {
	corpus := filepath.Join(repoRoot(t), "testdata", "librarian-examples", "docs")
	cs := connect(t, "2025-11-25", "LIBRARIAN_DOCS_ROOT="+corpus, "LIBRARY_ROOT=")
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"listDocuments", "getDocument", "searchDocuments", "listTags", "getDocuments", "list_documents"} {
		if !contains(names, want) {
			t.Errorf("tools %v lack %s", names, want)
		}
	}
	got, isErr := callText(t, cs, "listTags", map[string]any{"directory": "/hono"})
	if isErr || !strings.HasPrefix(got, "- ") || !strings.Contains(got, "hono (") {
		t.Errorf("listTags = %q (isError %v)", got, isErr)
	}
}
