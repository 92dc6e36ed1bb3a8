package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// emptyArguments turns a tools/call without arguments, or with
// `"arguments": null` (the go-sdk client sends that over HTTP when given
// none), into `{}`: go-sdk v1.8.0 panics applying schema defaults to a null
// object, so such a call would otherwise fail with an internal error.
func emptyArguments(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil {
			if a := bytes.TrimSpace(call.Params.Arguments); len(a) == 0 || bytes.Equal(a, []byte("null")) {
				call.Params.Arguments = json.RawMessage("{}")
			}
		}
		return next(ctx, method, req)
	}
}
