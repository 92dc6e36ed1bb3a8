package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/mcpserver"
)

type closeBuffer struct {
	bytes.Buffer
}

func (*closeBuffer) Close() error { return nil }

// TestStdioTransportSurvivesBadLinesAndDrains: malformed lines get JSON-RPC
// error replies and the session goes on; requests written before the input
// ends are all answered.
func TestStdioTransportSurvivesBadLinesAndDrains(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`this is not json`,
		`[]`,
		`{"foo":1}`,
		`{"jsonrpc":"1.0","id":9,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		``,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
	}, "\n") + "\n"
	srv := mcpserver.NewServer(mcpserver.Options{Name: "t", Version: "1"})
	var out closeBuffer
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(context.Background(), &mcpserver.StdioTransport{In: io.NopCloser(strings.NewReader(in)), Out: &out, DrainTimeout: 5 * time.Second})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not end after its input ended")
	}
	type reply struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	byID := map[string]reply{}
	var errorCodes []int
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r reply
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("stdout line is not JSON-RPC: %q", line)
		}
		if r.Error != nil {
			errorCodes = append(errorCodes, r.Error.Code)
		}
		byID[string(r.ID)] = r
	}
	for _, id := range []string{"1", "2", "3"} {
		if r, ok := byID[id]; !ok || r.Result == nil {
			t.Errorf("request %s was not answered with a result: %s", id, out.String())
		}
	}
	if r := byID["9"]; r.Error == nil || r.Error.Code != -32600 {
		t.Errorf("a bad version tag should be answered -32600 with its id, got %+v", r)
	}
	want := []int{-32700, -32600, -32600, -32600, -32600}
	if len(errorCodes) != len(want) {
		t.Errorf("error codes %v, want %v", errorCodes, want)
	}
}
