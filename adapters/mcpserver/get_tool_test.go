package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/fileimages"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/search"
)

// getLibRoot is app's get_documents test library (seed 000's json layout
// with images); the tool is tested over the same files as the use case.
const getLibRoot = "../../app/testdata/get/lib"

// connectGet serves the library tool set over the test library with cfg
// and returns a go-sdk client session speaking protocolVersion ("" = the
// client's default).
func connectGet(t *testing.T, cfg library.Config, protocolVersion string) *mcp.ClientSession {
	t.Helper()
	return connectGetWithin(t, cfg, protocolVersion, mcpserver.Ceilings{})
}

// connectGetWithin is connectGet with the answers bounded by ceil.
func connectGetWithin(t *testing.T, cfg library.Config, protocolVersion string, ceil mcpserver.Ceilings) *mcp.ClientSession {
	t.Helper()
	src, err := jsonindex.New(getLibRoot, "index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	images, err := fileimages.New(getLibRoot, "images/index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { images.Close() })
	lib := library.New(src, goldmarkmarkdown.New(), images, cfg)
	srv := mcpserver.NewServer(mcpserver.Options{Name: "librarian", Version: "test"})
	mcpserver.AddLibraryTools(srv, browse.New(lib), search.New(lib), nil, ceil)

	return connectClient(t, srv, "get-test", protocolVersion)
}

// callGet calls get_documents with arguments written as JSON.
func callGet(t *testing.T, cs *mcp.ClientSession, args string) *mcp.CallToolResult {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(args), &m); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_documents", Arguments: m})
	if err != nil {
		t.Fatalf("get_documents(%s): protocol error %v", args, err)
	}
	return res
}

func allText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func testConfig() library.Config {
	cfg := library.DefaultConfig()
	cfg.MaxImageBytes = 2048 // big.png is over it
	return cfg
}

func TestGetDocumentsToolSchema(t *testing.T) {
	cs := connectGet(t, testConfig(), "")
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var tool *mcp.Tool
	for _, x := range tools.Tools {
		if x.Name == "get_documents" {
			tool = x
		}
	}
	if tool == nil {
		t.Fatal("get_documents is not listed")
	}
	if a := tool.Annotations; a == nil || !a.ReadOnlyHint {
		t.Errorf("annotations %+v: want read-only", tool.Annotations)
	}
	for _, want := range []string{"ONE call", "verbatim"} {
		if !strings.Contains(tool.Description, want) {
			t.Errorf("description lacks %q", want)
		}
	}
	b, err := json.Marshal(tool.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Required             []string
		AdditionalProperties any `json:"additionalProperties"`
		Properties           map[string]struct {
			Type     string
			Default  any
			Minimum  *float64
			MinItems *int `json:"minItems"`
			Items    struct {
				AnyOf []struct {
					Type                 string
					Properties           map[string]any
					AdditionalProperties any `json:"additionalProperties"`
				} `json:"anyOf"`
			}
		}
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	sel := schema.Properties["select"]
	if sel.Type != "array" || len(sel.Items.AnyOf) != 2 {
		t.Fatalf("select schema: %s", b)
	}
	if sel.Items.AnyOf[0].Type != "string" || sel.Items.AnyOf[1].Type != "object" {
		t.Errorf("select items: want a string or an object: %s", b)
	}
	var fields []string
	for name := range sel.Items.AnyOf[1].Properties {
		fields = append(fields, name)
	}
	// Unknown fields and bounds are refused by readGetDocumentsArgs, which
	// says what is wrong; the published schema leaves them out.
	if len(fields) != 6 {
		t.Errorf("selector object: got fields %v; want 6", fields)
	}
	if d := schema.Properties["include_images"].Default; d != nil {
		t.Errorf("include_images default %v, want none published (false goes without saying)", d)
	}
	if d := schema.Properties["include_code"].Default; d != true {
		t.Errorf("include_code default %v, want true", d)
	}
	mt := schema.Properties["max_tokens"]
	if mt.Type != "integer" || mt.Default != float64(20000) {
		t.Errorf("max_tokens: %+v, want an integer defaulting to 20000", mt)
	}
	if len(schema.Required) != 1 || schema.Required[0] != "select" {
		t.Errorf("required %v, want [select]", schema.Required)
	}
}

func TestGetDocumentsToolImages(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("protocol "+version, func(t *testing.T) {
			cs := connectGet(t, testConfig(), version)
			res := callGet(t, cs, `{"select": ["gallery", {"doc": "caching", "sections": ["invalidation"]}], "include_images": true}`)
			if res.IsError {
				t.Fatalf("isError: %s", allText(res))
			}
			type image struct{ file, mime, before string }
			want := []image{
				{"login.png", "image/png", "![[image:img-login]]\n"},
				{"arch.svg", "image/svg+xml", "A vector drawing: ![[image:img-vector]]\n"},
				{"spinner.gif", "image/gif", "![[image:img-spinner]]\n"},
				{"fanout.png", "image/png", "![[image:img-fanout]]\n"},
			}
			var kinds []string
			k := 0
			for i, c := range res.Content {
				switch c := c.(type) {
				case *mcp.TextContent:
					kinds = append(kinds, "text")
				case *mcp.ImageContent:
					kinds = append(kinds, "image")
					if k >= len(want) {
						t.Fatalf("more images than %d", len(want))
					}
					w := want[k]
					k++
					file, err := os.ReadFile(filepath.Join(getLibRoot, "images", w.file))
					if err != nil {
						t.Fatal(err)
					}
					if c.MIMEType != w.mime || !bytes.Equal(c.Data, file) {
						t.Errorf("image %d: got %s, %d bytes; want %s, the %d bytes of %s", k, c.MIMEType, len(c.Data), w.mime, len(file), w.file)
					}
					prev, ok := res.Content[i-1].(*mcp.TextContent)
					if !ok || !strings.HasSuffix(prev.Text, w.before) {
						t.Errorf("image %d (%s) does not follow its stub's line %q", k, w.file, w.before)
					}
				default:
					t.Errorf("content %d: unexpected %T", i, c)
				}
			}
			wantKinds := "text image text image text image text image text"
			if got := strings.Join(kinds, " "); got != wantKinds {
				t.Errorf("content: got %s, want %s", got, wantKinds)
			}
			text := allText(res)
			for _, s := range []string{
				"=== gallery (guides/gallery.md) · L1–21 ===\n",
				"[image img-spinner: shown above, at L7]\n",
				"[image omitted: img-big — Every service and queue, at full size (larger than the 2 KB limit, LIBRARY_MAX_IMAGE_BYTES)]\n",
				"=== caching (backend/storage/caching.md) · section invalidation · L9–22 ===\n",
				"Notes:\n- select[0]: image 'img-text'",
			} {
				if !strings.Contains(text, s) {
					t.Errorf("the text lacks %q", s)
				}
			}
		})
	}
}

func TestGetDocumentsToolArguments(t *testing.T) {
	cfg := testConfig()
	cfg.MaxAnswerTokens = 450 // auth (420) fits, caching after it does not
	cs := connectGet(t, cfg, "")
	tests := []struct {
		name    string
		args    string
		isError bool
		want    []string // parts of the text
		not     []string
	}{
		{"defaults: code, no images, the configured budget", `{"select": ["auth", "caching"]}`, false,
			[]string{"```sql\nBEGIN;", "[image omitted: img-login", "Left out (over max_tokens=450;", `- "caching" (~260 tokens)`},
			[]string{"=== caching"}},
		{"max_tokens 0 lifts the budget", `{"select": ["auth", "caching"], "max_tokens": 0}`, false,
			[]string{"=== caching (backend/storage/caching.md) · L1–26 ==="}, []string{"Left out"}},
		{"include_code false", `{"select": [{"doc": "auth", "sections": ["refresh-tokens/rotation"]}], "include_code": false}`, false,
			[]string{"[code block omitted: sql, 7 lines, L24–32]"}, []string{"BEGIN;"}},
		{"lines and overlap", `{"select": [{"doc": "auth", "lines": [27, 30]}, {"doc": "auth", "sections": ["refresh-tokens/rotation"]}]}`, false,
			[]string{"[fence re-opened: L27 is inside the sql code block of L24–32]\n```sql\n", "[L27–30 already returned above (select[0])]",
				"Overlaps:\n- select[1] (auth § refresh-tokens/rotation, L19–35) overlaps select[0] (auth, lines L27–30): L27–30 already returned in select[0]'s chunk."}, nil},
		{"unknown doc is a note", `{"select": ["nope"]}`, false, []string{"(nothing returned)", "Notes:\n- select[0]: unknown doc 'nope'"}, nil},
		{"empty select", `{"select": []}`, true, []string{"'select' is empty"}, nil},
		{"no select", `{}`, true, []string{"'select' is missing"}, nil},
		{"select not a list", `{"select": "auth"}`, true, []string{"'select' must be a list"}, nil},
		{"doc and root", `{"select": [{"doc": "auth", "root": "backend"}]}`, true, []string{"select[0]", "both 'doc' and 'root'"}, nil},
		{"unknown field", `{"select": [{"doc": "auth", "section": ["login-flow"]}]}`, true, []string{"select[0]: unknown field 'section' (did you mean 'sections'?)"}, nil},
		{"empty sections", `{"select": ["auth", {"doc": "auth", "sections": []}]}`, true, []string{"select[1]: 'sections' is empty"}, nil},
		{"bad lines", `{"select": [{"doc": "auth", "lines": [9, 3]}]}`, true, []string{"select[0]", "'lines'"}, nil},
		{"wrong item type", `{"select": [42]}`, true, []string{"select[0]: must be a doc id string or a selector object"}, nil},
		{"wrong field type", `{"select": [{"doc": 3}]}`, true, []string{"select[0]: 'doc' must be a string"}, nil},
		{"wrong flag type", `{"select": ["auth"], "include_code": "yes"}`, true, []string{"'include_code' must be true or false"}, nil},
		{"negative budget", `{"select": ["auth"], "max_tokens": -1}`, true, []string{"'max_tokens' must be an integer, 0 (no limit) or more"}, nil},
		{"fractional budget", `{"select": ["auth"], "max_tokens": 1.5}`, true, []string{"'max_tokens' must be an integer"}, nil},
		{"unknown argument", `{"select": ["auth"], "images": true}`, true, []string{"unknown argument 'images'"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := callGet(t, cs, tc.args)
			text := allText(res)
			if res.IsError != tc.isError {
				t.Fatalf("isError %v, want %v: %s", res.IsError, tc.isError, text)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("got\n%s\nwant it to contain %q", text, w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(text, n) {
					t.Errorf("got\n%s\nwant it not to contain %q", text, n)
				}
			}
		})
	}
}
