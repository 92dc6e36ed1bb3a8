package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/mcpserver"
)

// goInternals are the marks of Go's decoders and the go-sdk's wrappers in
// an error text: type names, struct field paths, Go kinds.
var goInternals = regexp.MustCompile(`Go (struct field|value of type)|interface \{\}|\b(mcp|jsonrpc2?|json|reflect)\.[A-Z]|\*mcp|invalid ID type|unmarshaling|wireCompleteReference`)

// malformedMessages are messages the go-sdk answers in Go's words, and the
// JSON-RPC code and plain sentence they get instead.
var malformedMessages = []struct {
	line, code, want string
}{
	{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}`, "-32602", "params.name must be a string, not a number"},
	{`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, "-32600", "the request id must be a string or a number"},
	{`{"jsonrpc":"2.0","id":true,"method":"tools/list"}`, "-32600", "the request id must be a string or a number"},
	{`{"jsonrpc":"2.0","id":11,"method":7}`, "-32600", "the method must be a string"},
	{`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":5}`, "-32602", "the params of tools/call must be an object, not a number"},
	{`{"jsonrpc":"2.0","id":13,"method":"tools/list","params":[1]}`, "-32602", "the params of tools/list must be an object, not an array"},
	{`{"jsonrpc":"2.0","id":14,"method":"resources/read","params":{"uri":7}}`, "-32602", "params.uri must be a string"},
	{`{"jsonrpc":"2.0","id":15,"method":"initialize","params":{"protocolVersion":5}}`, "-32602", "params.protocolVersion must be a string"},
	{`{"jsonrpc":"2.0","id":16,"method":"initialize","params":{"capabilities":{"roots":{"listChanged":"yes"}}}}`, "-32602", "params.capabilities.roots.listChanged must be true or false, not a string"},
	{`{"jsonrpc":"2.0","id":17,"method":"completion/complete","params":{"ref":5}}`, "-32602", "params.ref must be an object"},
	{`{"jsonrpc":"2.0","id":18,"error":{"code":"x","message":1}}`, "-32600", "'error' must be an object with an integer 'code' and a string 'message'"},
	{`{"jsonrpc":"1.0","id":19,"method":"ping"}`, "-32600", `"jsonrpc" must be "2.0"`},
	{`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, "-32600", "the request id is a number too large"},
}

// serverMethods are the methods an MCP client may send a server, with the
// go-sdk's params type of each.
var serverMethods = map[string]any{
	"initialize": mcp.InitializeParams{}, "ping": mcp.PingParams{}, "server/discover": mcp.DiscoverParams{},
	"tools/list": mcp.ListToolsParams{}, "tools/call": mcp.CallToolParamsRaw{},
	"resources/list": mcp.ListResourcesParams{}, "resources/templates/list": mcp.ListResourceTemplatesParams{},
	"resources/read": mcp.ReadResourceParams{}, "resources/subscribe": mcp.SubscribeParams{}, "resources/unsubscribe": mcp.UnsubscribeParams{},
	"subscriptions/listen": mcp.SubscriptionsListenParams{}, "prompts/list": mcp.ListPromptsParams{}, "prompts/get": mcp.GetPromptParams{},
	"completion/complete": mcp.CompleteParams{}, "logging/setLevel": mcp.SetLoggingLevelParams{},
	"notifications/initialized": mcp.InitializedParams{}, "notifications/cancelled": mcp.CancelledParams{},
	"notifications/progress": mcp.ProgressNotificationParams{}, "notifications/roots/list_changed": mcp.RootsListChangedParams{},
}

// wrongTypedParams are, for every method and every field of its params, a
// request whose field holds the wrong kind of JSON value: each answer the
// go-sdk would word with a Go type.
func wrongTypedParams() []string {
	var lines []string
	id := 1000
	for method, params := range serverMethods {
		typ := reflect.TypeOf(params)
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" || f.Type.Kind() == reflect.Interface {
				continue
			}
			wrong := any(5)
			k := f.Type.Kind()
			if k == reflect.Pointer {
				k = f.Type.Elem().Kind()
			}
			switch k {
			case reflect.Int, reflect.Int64, reflect.Float64, reflect.Bool:
				wrong = "x"
			}
			p, _ := json.Marshal(map[string]any{name: wrong})
			id++
			lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, p))
		}
	}
	return lines
}

// replyTo finds the error reply with id among JSON-RPC lines: the one
// whose message holds want if there is one (several replies have a null
// id), else the first.
func replyTo(lines []string, id, want string) (code, message string, ok bool) {
	for _, line := range lines {
		var r struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal([]byte(line), &r) != nil || string(r.ID) != id || r.Error == nil {
			continue
		}
		if strings.Contains(r.Error.Message, want) {
			return fmt.Sprint(r.Error.Code), r.Error.Message, true
		}
		if !ok {
			code, message, ok = fmt.Sprint(r.Error.Code), r.Error.Message, true
		}
	}
	return code, message, ok
}

func idOf(line string) string {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	json.Unmarshal([]byte(line), &m)
	if m.ID == nil || m.ID[0] == '{' || string(m.ID) == "true" || string(m.ID) == "1e400" {
		return "null"
	}
	return string(m.ID)
}

// TestStdioErrorsNameNoGoInternals: over stdio, every malformed message
// gets its plain sentence and code, and no answer to any wrong-typed
// params names a Go type or a struct field.
func TestStdioErrorsNameNoGoInternals(t *testing.T) {
	f := newLibraryFactory(t)
	lines := []string{initialize, `{"jsonrpc":"2.0","method":"notifications/initialized"}`}
	for _, m := range malformedMessages {
		lines = append(lines, m.line)
	}
	lines = append(lines, wrongTypedParams()...)
	var out closeBuffer
	done := make(chan error, 1)
	go func() {
		done <- f.newServer().Run(context.Background(), &mcpserver.StdioTransport{In: io.NopCloser(strings.NewReader(strings.Join(lines, "\n") + "\n")), Out: &out, DrainTimeout: 5 * time.Second})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not end after its input ended")
	}
	replies := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, m := range malformedMessages {
		code, message, ok := replyTo(replies, idOf(m.line), m.want)
		if !ok || code != m.code || !strings.Contains(message, m.want) {
			t.Errorf("%s: answered %s %q, want %s %q", m.line, code, message, m.code, m.want)
		}
	}
	for _, reply := range replies {
		if goInternals.MatchString(reply) {
			t.Errorf("an answer names Go internals: %s", reply)
		}
	}
}

// TestHTTPErrorsNameNoGoInternals: over HTTP, in a session and on the
// stateless protocol, the same: each malformed message gets its plain
// sentence and code, and no answer names a Go type or a struct field.
func TestHTTPErrorsNameNoGoInternals(t *testing.T) {
	f := newLibraryFactory(t)
	endpoint, _ := startHTTP(t, f, mcpserver.HTTPOptions{})
	session := openRawSession(t, endpoint, "")
	for _, c := range []struct {
		name    string
		headers map[string]string
	}{
		{"session", map[string]string{"Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-11-25"}},
		{"stateless", map[string]string{"Mcp-Protocol-Version": "2026-07-28"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			answer := func(line string) []string {
				headers := c.headers
				if c.name == "stateless" {
					line, headers = withProtocolMeta(line), standardHeaders(line, c.headers)
				}
				resp, body := post(t, endpoint, line, headers)
				if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
					return []string{strings.TrimSpace(body)}
				}
				var out []string
				sc := bufio.NewScanner(strings.NewReader(body))
				sc.Buffer(nil, 1<<20)
				for sc.Scan() {
					if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
						out = append(out, data)
					}
				}
				return out
			}
			for _, m := range malformedMessages {
				replies := answer(m.line)
				code, message, ok := replyTo(replies, idOf(m.line), m.want)
				if !ok || code != m.code || !strings.Contains(message, m.want) {
					t.Errorf("%s: answered %s %q, want %s %q", m.line, code, message, m.code, m.want)
				}
				for _, reply := range replies {
					if goInternals.MatchString(reply) {
						t.Errorf("%s: the answer names Go internals: %s", m.line, reply)
					}
				}
			}
			for _, line := range wrongTypedParams() {
				for _, reply := range answer(line) {
					if goInternals.MatchString(reply) {
						t.Errorf("%s: the answer names Go internals: %s", line, reply)
					}
				}
			}
		})
	}
	if resp, body := post(t, endpoint, `[`+initialize+`]`, nil); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "batches are not supported") {
		t.Errorf("a batch: %d %q", resp.StatusCode, body)
	}
}

// withProtocolMeta adds the _meta protocol version the stateless protocol
// asks of a request's params (else the go-sdk refuses it for that first),
// unless the params are not an object or already hold _meta.
func withProtocolMeta(line string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(line), &m) != nil {
		return line
	}
	var params map[string]json.RawMessage
	if raw, ok := m["params"]; ok && json.Unmarshal(raw, &params) != nil {
		return line
	}
	if params == nil {
		params = map[string]json.RawMessage{}
	}
	if _, ok := params["_meta"]; ok {
		return line
	}
	params["_meta"] = json.RawMessage(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`)
	m["params"], _ = json.Marshal(params)
	out, _ := json.Marshal(m)
	return string(out)
}

// standardHeaders adds to headers the Mcp-Method and Mcp-Name headers the
// stateless protocol asks of a request (else the go-sdk refuses it for
// that first), where the message has them to copy.
func standardHeaders(line string, headers map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range headers {
		out[k] = v
	}
	var m struct {
		Method any `json:"method"`
		Params struct {
			Name any `json:"name"`
			URI  any `json:"uri"`
		} `json:"params"`
	}
	json.Unmarshal([]byte(line), &m)
	if method, ok := m.Method.(string); ok {
		out["Mcp-Method"] = method
	}
	for _, name := range []any{m.Params.Name, m.Params.URI} {
		if name, ok := name.(string); ok {
			out["Mcp-Name"] = name
		}
	}
	return out
}
