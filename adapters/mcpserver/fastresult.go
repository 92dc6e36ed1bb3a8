package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tool answer of a whole library is megabytes of text (a listing of
// 11,111 docs is 2 MB), and the SDK's CallToolResult.MarshalJSON nests
// three json.Marshaler levels, each of which encoding/json validates and
// copies again: 41 ms and 17 MB of garbage for 2 MB, more than the
// answer's own work. plainResults hands the SDK a plain struct of the same
// JSON instead, which encoding/json writes in one pass (4 ms).

// plainResults replaces a tools/call result that is text only by a
// plainToolResult of the same JSON. Anything else (structured content,
// input requests, content with metadata or annotations, images) is passed
// on as it is.
func plainResults(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "tools/call" {
			return res, err
		}
		if r, ok := res.(*mcp.CallToolResult); ok {
			if plain, ok := newPlainToolResult(r); ok {
				return plain, nil
			}
		}
		return res, err
	}
}

// plainToolResult is a text-only CallToolResult as the SDK writes it, in
// fields encoding/json writes without a Marshaler. The embedded result
// keeps it an mcp.Result; it is not written.
type plainToolResult struct {
	mcp.Result `json:"-"`
	Meta       map[string]any `json:"_meta,omitempty"`
	Content    []plainText    `json:"content"`
	IsError    bool           `json:"isError,omitempty"`
	ResultType string         `json:"resultType,omitempty"`
}

type plainText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// plainMinBytes: below it the SDK's own encoding costs nothing worth
// saving, and the answer goes out exactly as the SDK writes it.
const plainMinBytes = 64 << 10

func newPlainToolResult(r *mcp.CallToolResult) (*plainToolResult, bool) {
	if r == nil || r.StructuredContent != nil || r.InputRequests != nil || r.RequestState != "" || r.NeedsInput() {
		return nil, false
	}
	size := 0
	content := make([]plainText, len(r.Content))
	for i, c := range r.Content {
		t, ok := c.(*mcp.TextContent)
		if !ok || t.Meta != nil || t.Annotations != nil {
			return nil, false
		}
		content[i] = plainText{Type: "text", Text: t.Text}
		size += len(t.Text)
	}
	if size < plainMinBytes {
		return nil, false
	}
	// Everything else as the SDK writes it (the result type it sets for
	// newer protocol versions included): its encoding without the content,
	// which is small.
	skeleton := *r
	skeleton.Content = []mcp.Content{}
	raw, err := skeleton.MarshalJSON()
	if err != nil {
		return nil, false
	}
	var rest struct {
		Meta       map[string]any `json:"_meta"`
		IsError    bool           `json:"isError"`
		ResultType string         `json:"resultType"`
	}
	if err := json.Unmarshal(raw, &rest); err != nil {
		return nil, false
	}
	return &plainToolResult{Result: r, Meta: rest.Meta, Content: content, IsError: rest.IsError, ResultType: rest.ResultType}, true
}
