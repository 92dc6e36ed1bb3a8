package mcpserver

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sameJSON fails unless a and b decode to the same value.
func sameJSON(t *testing.T, what string, a, b []byte) {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("%s: %v in %.200s", what, err, a)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("%s: %v in %.200s", what, err, b)
	}
	if !reflect.DeepEqual(va, vb) {
		t.Errorf("%s: the JSON differs:\n%.300s\n%.300s", what, a, b)
	}
}

func TestPlainToolResultIsTheSDKsJSON(t *testing.T) {
	big := strings.Repeat("- /a/<b>&c.md\n  - tags: \"q\", \\, \u2028, é, \x01\n", plainMinBytes/40)
	cases := map[string]*mcp.CallToolResult{
		"one text":     {Content: []mcp.Content{&mcp.TextContent{Text: big}}},
		"two texts":    {Content: []mcp.Content{&mcp.TextContent{Text: big}, &mcp.TextContent{Text: ""}}},
		"error":        {Content: []mcp.Content{&mcp.TextContent{Text: big}}, IsError: true},
		"meta":         {Meta: mcp.Meta{"k": "v"}, Content: []mcp.Content{&mcp.TextContent{Text: big}}},
		"invalid utf8": {Content: []mcp.Content{&mcp.TextContent{Text: big + "\xff\xfe"}}},
	}
	for name, r := range cases {
		plain, ok := newPlainToolResult(r)
		if !ok {
			t.Fatalf("%s: not made plain", name)
		}
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(plain)
		if err != nil {
			t.Fatal(err)
		}
		sameJSON(t, name, got, want)
	}
	// What the plain struct cannot say is left to the SDK.
	for name, r := range map[string]*mcp.CallToolResult{
		"small":       {Content: []mcp.Content{&mcp.TextContent{Text: "short"}}},
		"structured":  {Content: []mcp.Content{&mcp.TextContent{Text: big}}, StructuredContent: map[string]any{"a": 1}},
		"annotations": {Content: []mcp.Content{&mcp.TextContent{Text: big, Annotations: &mcp.Annotations{Priority: 1}}}},
		"image":       {Content: []mcp.Content{&mcp.TextContent{Text: big}, &mcp.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}},
		"nil":         nil,
	} {
		if _, ok := newPlainToolResult(r); ok {
			t.Errorf("%s: made plain", name)
		}
	}
}

func TestEncodeMessageFramesLargeResults(t *testing.T) {
	result, _ := json.Marshal(map[string]string{"text": strings.Repeat("x<&>", plainMinBytes)})
	for _, raw := range []any{float64(7), "req-1"} {
		id, err := jsonrpc.MakeID(raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, msg := range []jsonrpc.Message{
			&jsonrpc.Response{ID: id, Result: result},
			&jsonrpc.Response{ID: id, Result: json.RawMessage(`{"small":true}`)},
			&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: -32603, Message: "boom"}},
		} {
			got, err := encodeMessage(msg)
			if err != nil {
				t.Fatal(err)
			}
			want, err := jsonrpc.EncodeMessage(msg)
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, "response", got, want)
			back, err := jsonrpc.DecodeMessage(got)
			if err != nil {
				t.Fatalf("the SDK cannot read its own response back: %v", err)
			}
			if r := back.(*jsonrpc.Response); r.ID != id {
				t.Errorf("id %v, want %v", r.ID, id)
			}
		}
	}
}
