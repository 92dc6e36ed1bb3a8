package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/mcpserver"
)

// Every line that asks for an answer gets one, with the right JSON-RPC
// code and a message saying what is wrong: a second initialize (the SDK
// answered code 0), a message without a method and a ping with a null id
// (no answer at all), a valid but 100,000-deep array (called "not valid
// JSON").
func TestProtocolMistakesGetProperReplies(t *testing.T) {
	initialize := `{"jsonrpc":"2.0","id":%s,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	in := strings.Join([]string{
		strings.Replace(initialize, "%s", "1", 1),
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		strings.Replace(initialize, "%s", "2", 1),
		`{"jsonrpc":"2.0","id":3}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000),
		`{"jsonrpc":"2.0","id":5,"method":"ping"}`,
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
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	var replies []reply
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r reply
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("stdout line is not JSON-RPC: %q", line)
		}
		replies = append(replies, r)
	}
	find := func(id, inMessage string) *reply {
		for i, r := range replies {
			if string(r.ID) == id && (inMessage == "" || r.Error != nil && strings.Contains(r.Error.Message, inMessage)) {
				return &replies[i]
			}
		}
		return nil
	}
	for _, tc := range []struct{ what, id, inMessage string }{
		{"a second initialize", "2", "already initialized"},
		{"a message without a method", "3", "no 'method'"},
		{"a ping with a null id", "null", "'id' is null"},
		{"a 100,000-deep array", "null", "nests deeper than 1000 levels"},
	} {
		r := find(tc.id, tc.inMessage)
		if r == nil || r.Error.Code != -32600 {
			t.Errorf("%s: no -32600 reply with id %s saying %q in\n%s", tc.what, tc.id, tc.inMessage, out.String())
		}
	}
	if strings.Contains(out.String(), "not valid JSON") {
		t.Errorf("valid JSON was called invalid:\n%s", out.String())
	}
	for _, id := range []string{"1", "5"} {
		if r := find(id, ""); r == nil || r.Result == nil {
			t.Errorf("request %s was not answered with a result:\n%s", id, out.String())
		}
	}
}
