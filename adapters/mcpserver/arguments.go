package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/domain"
)

// The library and engine tools read their arguments here rather than with
// the SDK's schema validator, whose messages name the schema ("validating
// root: validating /properties/depth: ...", read as the `root` argument)
// and the Go struct ("cannot unmarshal number ... into Go struct field
// mcpserver.listDocumentsArgs.depth"). readArguments checks each argument
// against its property in the tool's input schema and words a mistake as
// "'depth' must be a whole number ..., got 1.5". The schemas use one plain
// `type` per property (no ["null", T] arrays, which some clients reject),
// with defaults; an argument sent as null is taken as not given, so its
// default applies.

// addTool registers a tool whose arguments are read by readArguments
// against schema and decoded into In; a mistake, or an error from handle,
// is a tool error (isError) naming the argument.
func addTool[In any](srv *mcp.Server, tool *mcp.Tool, schema *jsonschema.Schema,
	handle func(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, error)) {
	tool.InputSchema = publishedSchema(schema)
	srv.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		in, err := readArguments[In](tool.Name, schema, req.Params.Arguments)
		if err != nil {
			return errorResult(err), nil
		}
		res, err := handle(ctx, req, in)
		if err != nil {
			return errorResult(err), nil
		}
		return res, nil
	})
}

// errorResult is err as a tool error (isError), as the SDK's typed tools
// answer an error; a raw handler's error would be a JSON-RPC error.
func errorResult(err error) *mcp.CallToolResult {
	res := &mcp.CallToolResult{}
	res.SetError(err)
	return res
}

// readArguments checks raw against schema (an object of plain-typed
// properties): an unknown argument is refused, a null one is not given,
// defaults are filled in; the result is decoded into In.
func readArguments[In any](tool string, schema *jsonschema.Schema, raw json.RawMessage) (In, error) {
	var in In
	fields, err := argumentFields(raw)
	if err != nil {
		return in, fmt.Errorf("%w: the arguments of %s %w", domain.ErrInvalidArgument, tool, err)
	}
	var unknown []string
	for name := range fields {
		if schema.Properties[name] == nil {
			unknown = append(unknown, fmt.Sprintf("'%s'", abbreviate(json.RawMessage(name))))
		}
	}
	if len(unknown) > 0 {
		names := make([]string, 0, len(schema.Properties))
		for name := range schema.Properties {
			names = append(names, name)
		}
		slices.Sort(names)
		slices.Sort(unknown)
		if len(unknown) > maxQuotedUnknown {
			unknown = append(unknown[:maxQuotedUnknown], fmt.Sprintf("and %d more", len(unknown)-maxQuotedUnknown))
		}
		return in, fmt.Errorf("%w: unknown argument %s: %s takes %s", domain.ErrInvalidArgument,
			strings.Join(unknown, ", "), tool, strings.Join(names, ", "))
	}
	args, err := checkArguments(schema, fields, true)
	if err != nil {
		return in, fmt.Errorf("%w: %w", domain.ErrInvalidArgument, err)
	}
	if err := decodeArguments(args, &in); err != nil { // the schema and In disagree: a programming error
		return in, fmt.Errorf("%s: decoding the checked arguments: %v", tool, err)
	}
	return in, nil
}

// argumentFields splits raw arguments into fields: no arguments (or null)
// is an empty object; anything but an object is an error ("must be a JSON
// object, got ...") to follow the arguments' name.
func argumentFields(raw json.RawMessage) (map[string]json.RawMessage, error) {
	fields := map[string]json.RawMessage{}
	if trimmed := bytes.TrimSpace(raw); len(trimmed) > 0 && !bytes.Equal(trimmed, []byte("null")) {
		if trimmed[0] != '{' || json.Unmarshal(trimmed, &fields) != nil {
			return nil, fmt.Errorf("must be a JSON object, got %s", abbreviate(trimmed))
		}
	}
	return fields, nil
}

// checkArguments checks each of schema's properties in fields (in name
// order, so the first mistake reported is always the same), refuses a
// missing required one and fills in defaults. Fields the schema does not
// name are left out. With nullIsAbsent a null argument counts as not
// given; without, it must fit the property's type like any value.
func checkArguments(schema *jsonschema.Schema, fields map[string]json.RawMessage, nullIsAbsent bool) (map[string]any, error) {
	names := make([]string, 0, len(schema.Properties))
	for name := range schema.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	args := make(map[string]any, len(names))
	for _, name := range names {
		prop := schema.Properties[name]
		value, given := fields[name]
		if given && nullIsAbsent && bytes.Equal(bytes.TrimSpace(value), []byte("null")) {
			given = false
		}
		switch {
		case given:
			v, err := checkValue(name, prop, value)
			if err != nil {
				return nil, err
			}
			args[name] = v
		case slices.Contains(schema.Required, name) && prop.Description != "":
			return nil, fmt.Errorf("'%s' is missing: %s", name, prop.Description)
		case slices.Contains(schema.Required, name):
			return nil, fmt.Errorf("'%s' is missing", name)
		case prop.Default != nil:
			args[name] = prop.Default
		}
	}
	return args, nil
}

// decodeArguments decodes checked arguments into in.
func decodeArguments(args map[string]any, in any) error {
	data, err := json.Marshal(args)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, in)
}

// maxQuotedUnknown is how many unknown argument names an error quotes.
const maxQuotedUnknown = 3

// Integers are bounded so that every Go int field holds them, whatever
// the platform.
const (
	minArgument = math.MinInt32
	maxArgument = math.MaxInt32
)

// checkValue checks one argument (or list item) against its property
// (type string, boolean, number, integer, or array; enum and minimum) and
// returns it as it will be decoded. name is how a message calls it
// ("depth", "tags[1]").
func checkValue(name string, prop *jsonschema.Schema, raw json.RawMessage) (any, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("'%s' is not valid JSON: %v", name, err)
	}
	wrong := func(want string) error {
		return fmt.Errorf("'%s' must be %s, got %s", name, want, describeJSON(v, raw))
	}
	switch prop.Type {
	case "string":
		s, ok := v.(string)
		if !ok {
			return nil, wrong("a string")
		}
		if len(prop.Enum) > 0 && !slices.Contains(prop.Enum, any(s)) {
			quoted := make([]string, len(prop.Enum))
			for i, e := range prop.Enum {
				quoted[i] = fmt.Sprintf("%q", e)
			}
			return nil, wrong("one of " + strings.Join(quoted, ", "))
		}
		return s, nil
	case "boolean":
		if _, ok := v.(bool); !ok {
			return nil, wrong("true or false")
		}
		return v, nil
	case "number":
		n, ok := v.(json.Number)
		if !ok {
			return nil, wrong("a number")
		}
		if _, err := n.Float64(); err != nil {
			return nil, wrong("a finite number")
		}
		return n, nil
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return nil, wrong("a whole number")
		}
		f, err := n.Float64()
		if err != nil || f != math.Trunc(f) {
			return nil, wrong("a whole number")
		}
		i, err := n.Int64()
		if err != nil || i < minArgument || i > maxArgument { // "1e3" is whole but not an Int64 literal
			if f < minArgument || f > maxArgument {
				return nil, wrong(fmt.Sprintf("a whole number from %d to %d", minArgument, maxArgument))
			}
			i = int64(f)
		}
		if prop.Minimum != nil && float64(i) < *prop.Minimum {
			return nil, wrong(fmt.Sprintf("%v or more", *prop.Minimum))
		}
		return i, nil
	case "array":
		items, ok := v.([]any)
		if !ok {
			return nil, wrong("a list")
		}
		if prop.Items == nil {
			return items, nil
		}
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, wrong("a list")
		}
		out := make([]any, len(list))
		for i, item := range list {
			checked, err := checkValue(fmt.Sprintf("%s[%d]", name, i), prop.Items, item)
			if err != nil {
				return nil, err
			}
			out[i] = checked
		}
		return out, nil
	default:
		return v, nil
	}
}

// describeJSON names a JSON value for a message: its type and, for short
// values, the value itself.
func describeJSON(v any, raw json.RawMessage) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "a list: " + abbreviate(raw)
	case map[string]any:
		return "an object: " + abbreviate(raw)
	case string:
		return "a string: " + abbreviate(raw)
	default:
		return abbreviate(bytes.TrimSpace(raw))
	}
}

// plainTypes rewrites the ["null", T] types that jsonschema.For gives
// pointers and slices into a plain T, in s's properties and their items,
// so every property has one type.
func plainTypes(s *jsonschema.Schema) {
	for _, p := range s.Properties {
		for q := p; q != nil; q = q.Items {
			if len(q.Types) == 2 && slices.Contains(q.Types, "null") {
				q.Type = q.Types[0]
				if q.Type == "null" {
					q.Type = q.Types[1]
				}
				q.Types = nil
			}
		}
	}
}

// publishedDefaults are the defaults a client is shown: the server's own
// answer budget, which an agent cannot guess, and include_code's true (a
// flag that is on unless turned off). The others (false, '.', -1, the
// empty list) are what leaving an argument out means anyway, and
// tools/list is paid for in every agent turn; readArguments still fills
// them all in.
var publishedDefaults = map[string]bool{"max_tokens": true, "include_code": true}

// publishedSchema is schema as tools/list shows it: a copy without the
// defaults that go without saying, and without the bounds and the refusal
// of unknown fields that readArguments checks itself, saying what is wrong
// better than a schema validator.
func publishedSchema(schema *jsonschema.Schema) *jsonschema.Schema {
	return slimSchema(schema, true)
}

func slimSchema(s *jsonschema.Schema, top bool) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	out := *s
	out.AdditionalProperties = nil
	out.MinItems, out.MaxItems, out.Minimum = nil, nil, nil
	if out.Properties != nil {
		out.Properties = make(map[string]*jsonschema.Schema, len(s.Properties))
		for name, p := range s.Properties {
			cp := slimSchema(p, false)
			if cp.Default != nil && !(top && publishedDefaults[name]) {
				cp.Default = nil
			}
			out.Properties[name] = cp
		}
	}
	out.Items = slimSchema(s.Items, false)
	if s.AnyOf != nil {
		out.AnyOf = make([]*jsonschema.Schema, len(s.AnyOf))
		for i, a := range s.AnyOf {
			out.AnyOf[i] = slimSchema(a, false)
		}
	}
	return &out
}
