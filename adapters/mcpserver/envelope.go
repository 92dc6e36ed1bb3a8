package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The JSON-RPC envelope, checked at our edge (the stdio transport and the
// HTTP handler) before the go-sdk decodes a message: the go-sdk's own
// errors for a malformed message name Go types and struct fields
// ("…into Go struct field mcp.CallToolParamsRaw.name of type string",
// "invalid ID type map[string]interface {}"), which a client must never
// see. Each refusal here is a plain sentence with the right JSON-RPC code.

// JSON-RPC error codes (https://www.jsonrpc.org/specification#error_object).
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeInvalidParams  = -32602
)

// maxNesting is how deep a message may nest: the go-sdk's decoder refuses
// anything deeper than 1,000 levels, and no MCP message comes near that.
const maxNesting = 1000

// A wireProblem is why an inbound message is refused before the go-sdk
// sees it.
type wireProblem struct {
	code    int
	message string          // for the client: a plain sentence, no Go names
	id      json.RawMessage // the message's id when it is a valid one, else nil (answered as null)
	detail  string          // for the log only: the decoder's own words, if any
	// notification is set for a well-formed notification with invalid
	// params: JSON-RPC answers no notification, so stdio only logs it
	// (over HTTP the POST is refused with 400, as the spec allows).
	notification bool
}

// paramsOf are the params types the go-sdk v1.8.0 server decodes, by method
// (its serverMethodInfos): a message whose params do not decode into the
// method's type is refused here, in our words. A method missing here is
// left to the go-sdk; TestStdioErrorsNameNoGoInternals and its HTTP twin
// send wrong-typed params to every method and keep the list whole.
var paramsOf = map[string]reflect.Type{
	"initialize":                       reflect.TypeFor[mcp.InitializeParams](),
	"ping":                             reflect.TypeFor[mcp.PingParams](),
	"server/discover":                  reflect.TypeFor[mcp.DiscoverParams](),
	"tools/list":                       reflect.TypeFor[mcp.ListToolsParams](),
	"tools/call":                       reflect.TypeFor[mcp.CallToolParamsRaw](),
	"resources/list":                   reflect.TypeFor[mcp.ListResourcesParams](),
	"resources/templates/list":         reflect.TypeFor[mcp.ListResourceTemplatesParams](),
	"resources/read":                   reflect.TypeFor[mcp.ReadResourceParams](),
	"resources/subscribe":              reflect.TypeFor[mcp.SubscribeParams](),
	"resources/unsubscribe":            reflect.TypeFor[mcp.UnsubscribeParams](),
	"subscriptions/listen":             reflect.TypeFor[mcp.SubscriptionsListenParams](),
	"prompts/list":                     reflect.TypeFor[mcp.ListPromptsParams](),
	"prompts/get":                      reflect.TypeFor[mcp.GetPromptParams](),
	"completion/complete":              reflect.TypeFor[mcp.CompleteParams](),
	"logging/setLevel":                 reflect.TypeFor[mcp.SetLoggingLevelParams](),
	"notifications/initialized":        reflect.TypeFor[mcp.InitializedParams](),
	"notifications/cancelled":          reflect.TypeFor[mcp.CancelledParams](),
	"notifications/progress":           reflect.TypeFor[mcp.ProgressNotificationParams](),
	"notifications/roots/list_changed": reflect.TypeFor[mcp.RootsListChangedParams](),
}

// envelope is what checkMessage learned of a message it let through.
type envelope struct {
	method string          // "" for a response
	id     json.RawMessage // nil for a notification
}

// isCall reports whether the message is a request that wants an answer.
func (e envelope) isCall() bool { return e.method != "" && e.id != nil }

// checkMessage checks one JSON-RPC message (a stdio line or an HTTP POST
// body) as the go-sdk would decode it, and says in plain words what is
// wrong with it, or returns a nil problem.
func checkMessage(data []byte) (envelope, *wireProblem) {
	data = bytes.TrimSpace(data)
	if depth := nesting(data); depth > maxNesting {
		return envelope{}, &wireProblem{code: codeInvalidRequest, message: fmt.Sprintf("invalid request: the message nests deeper than %d levels", maxNesting)}
	}
	if !json.Valid(data) {
		var syntax *json.SyntaxError
		if err := json.Unmarshal(data, new(json.RawMessage)); errors.As(err, &syntax) {
			return envelope{}, &wireProblem{code: codeParseError, message: fmt.Sprintf("parse error: the message is not valid JSON: %v (at byte %d)", syntax, syntax.Offset)}
		}
		return envelope{}, &wireProblem{code: codeParseError, message: "parse error: the message is not valid JSON"}
	}
	switch data[0] {
	case '{':
	case '[':
		return envelope{}, &wireProblem{code: codeInvalidRequest, message: "invalid request: batches are not supported; send one JSON-RPC message at a time"}
	default:
		return envelope{}, &wireProblem{code: codeInvalidRequest, message: "invalid request: a JSON-RPC message is a JSON object"}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return envelope{}, &wireProblem{code: codeInvalidRequest, message: "invalid request: a JSON-RPC message is a JSON object", detail: err.Error()}
	}
	id, idProblem := checkID(fields)
	refuse := func(code int, message string) (envelope, *wireProblem) {
		return envelope{}, &wireProblem{code: code, message: message, id: id}
	}
	var version string
	if json.Unmarshal(fields["jsonrpc"], &version) != nil || version != "2.0" {
		return refuse(codeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	if idProblem != "" {
		return refuse(codeInvalidRequest, "invalid request: "+idProblem)
	}
	rawMethod, hasMethod := fields["method"]
	if !hasMethod {
		return checkResponse(fields, id)
	}
	var method string
	if json.Unmarshal(rawMethod, &method) != nil {
		return refuse(codeInvalidRequest, "invalid request: the method must be a string")
	}
	if isNull(fields["id"]) {
		return refuse(codeInvalidRequest, "invalid request: 'id' is null: a request's id is a string or a number (leave it out for a notification)")
	}
	env := envelope{method: method, id: id}
	params, hasParams := fields["params"]
	typ, known := paramsOf[method]
	if !hasParams || isNull(params) || !known {
		return env, nil // missing params, or a method the go-sdk answers "not found": its words name no Go type
	}
	invalid := func(message, detail string) (envelope, *wireProblem) {
		return envelope{}, &wireProblem{code: codeInvalidParams, message: "invalid params: " + message, id: id, detail: detail, notification: id == nil}
	}
	if p := bytes.TrimSpace(params); p[0] != '{' {
		return invalid(fmt.Sprintf("the params of %s must be an object, not %s", method, jsonKindOf(p)), "")
	}
	if err := json.Unmarshal(params, reflect.New(typ).Interface()); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			msg := fmt.Sprintf("params.%s must be %s", te.Field, wantKind(te.Type))
			if got := gotKind(te.Value); got != "" {
				msg += ", not " + got
			}
			return invalid(msg, err.Error())
		}
		return invalid(fmt.Sprintf("the params of %s do not fit the method's schema", method), err.Error())
	}
	return env, nil
}

// checkID returns the message's id when it is a valid JSON-RPC id (a string
// or a number), and what is wrong with it when it is present and is not.
// A null id is left to the caller: valid in a response to an unparsable
// request, not in a request.
func checkID(fields map[string]json.RawMessage) (json.RawMessage, string) {
	raw, ok := fields["id"]
	if !ok || isNull(raw) {
		return nil, ""
	}
	raw = bytes.TrimSpace(raw)
	switch raw[0] {
	case '"':
		return raw, ""
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var f float64
		if json.Unmarshal(raw, &f) != nil { // 1e400: the go-sdk's decoder refuses it in Go's words
			return nil, "the request id is a number too large; use a string or a smaller number"
		}
		return raw, ""
	}
	return nil, "the request id must be a string or a number"
}

// checkResponse checks a message without a method: the client's answer to
// a request of the server's, which has an id and a result or an error
// object (an integer code and a string message).
func checkResponse(fields map[string]json.RawMessage, id json.RawMessage) (envelope, *wireProblem) {
	refuse := func(message string) (envelope, *wireProblem) {
		return envelope{}, &wireProblem{code: codeInvalidRequest, message: "invalid request: " + message, id: id}
	}
	_, hasResult := fields["result"]
	rawErr, hasError := fields["error"]
	switch {
	case !hasResult && !hasError:
		return refuse("no 'method': a request or notification names the method to call")
	case id == nil:
		return refuse("a response needs the id of the request it answers")
	case hasError:
		var e struct {
			Code    *json.Number `json:"code"`
			Message *string      `json:"message"`
		}
		if json.Unmarshal(rawErr, &e) != nil || e.Code == nil || e.Message == nil {
			return refuse("'error' must be an object with an integer 'code' and a string 'message'")
		}
		if _, err := e.Code.Int64(); err != nil {
			return refuse("'error' must be an object with an integer 'code' and a string 'message'")
		}
	}
	return envelope{id: id}, nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// nesting is how deeply data nests objects and arrays, strings skipped.
func nesting(data []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case inString:
			inString = b != '"'
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > deepest {
				deepest = depth
			}
		case b == '}' || b == ']':
			depth--
		}
	}
	return deepest
}

// wantKind names the JSON kind a Go type decodes from, for a message.
func wantKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "another kind of value"
}

// gotKind words encoding/json's name for the value it found ("number",
// "string"…); "" when it is not one of them.
func gotKind(value string) string {
	word, _, _ := strings.Cut(value, " ")
	return map[string]string{"number": "a number", "string": "a string", "array": "an array", "object": "an object", "bool": "true or false"}[word]
}

// jsonKindOf names the kind of a JSON value.
func jsonKindOf(raw []byte) string {
	switch raw[0] {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case 't', 'f':
		return "true or false"
	case '{':
		return "an object"
	}
	return "a number"
}

// internalsMarks are the words of Go's JSON decoders and the go-sdk's
// wrappers that name Go types, struct fields or packages.
var internalsMarks = []string{"Go struct field", "Go value of type", "into a *", "interface {}", "invalid ID type"}

// goTypeName is a package-qualified Go type of the packages a decoding
// error names: mcp.CallToolParamsRaw, json.RawMessage.
var goTypeName = regexp.MustCompile(`\b(mcp|jsonrpc2?|json|reflect|http)\.[A-Z]`)

// showsInternals reports whether an error message names Go internals.
func showsInternals(message string) bool {
	for _, m := range internalsMarks {
		if strings.Contains(message, m) {
			return true
		}
	}
	return goTypeName.MatchString(message)
}

// plainErrorMessage is what a client reads instead of an error message that
// showed Go internals.
func plainErrorMessage(code int) string {
	switch code {
	case codeInvalidParams:
		return "invalid params: the params do not fit the method's schema"
	case codeInvalidRequest, codeParseError:
		return "invalid request: the message is not a JSON-RPC 2.0 request, notification or response"
	}
	return "the request failed (the server's log says why)"
}
