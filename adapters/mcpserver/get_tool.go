package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/answer"
)

// getDocumentsArgs are get_documents' arguments, with the defaults filled in.
type getDocumentsArgs struct {
	Select        []json.RawMessage
	IncludeImages bool
	IncludeCode   bool
	MaxTokens     int
}

// getDocumentsFields are get_documents' argument names.
var getDocumentsFields = []string{"select", "include_images", "include_code", "max_tokens"}

// readGetDocumentsArgs reads get_documents' raw arguments. The input
// schema tells clients the same rules, but the SDK's schema errors cannot
// say which select item is wrong or what was meant ("did you mean
// 'sections'?"), so the tool checks its arguments itself and each
// selector is read by domain.ParseSelectors.
func readGetDocumentsArgs(raw json.RawMessage, defaultMaxTokens int) (getDocumentsArgs, error) {
	in := getDocumentsArgs{IncludeCode: true, MaxTokens: defaultMaxTokens}
	var fields map[string]json.RawMessage
	if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &fields); err != nil {
			return in, fmt.Errorf("%w: the arguments must be an object with 'select': %v", domain.ErrInvalidArgument, err)
		}
	}
	var unknown []string
	for name := range fields {
		if !slices.Contains(getDocumentsFields, name) {
			unknown = append(unknown, fmt.Sprintf("'%s'", abbreviate(json.RawMessage(name))))
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		if len(unknown) > maxQuotedUnknown {
			unknown = append(unknown[:maxQuotedUnknown], fmt.Sprintf("and %d more", len(unknown)-maxQuotedUnknown))
		}
		return in, fmt.Errorf("%w: unknown argument %s: get_documents takes %s (a selector's own fields go inside a 'select' object)",
			domain.ErrInvalidArgument, strings.Join(unknown, ", "), strings.Join(getDocumentsFields, ", "))
	}
	sel, ok := fields["select"]
	if !ok || string(sel) == "null" {
		return in, fmt.Errorf("%w: 'select' is missing: a list of doc ids, paths and selector objects", domain.ErrInvalidArgument)
	}
	if err := json.Unmarshal(sel, &in.Select); err != nil {
		return in, fmt.Errorf("%w: 'select' must be a list of doc ids, paths and selector objects, got %s", domain.ErrInvalidArgument, abbreviate(sel))
	}
	for _, b := range []struct {
		name string
		dst  *bool
	}{{"include_images", &in.IncludeImages}, {"include_code", &in.IncludeCode}} {
		if v, ok := fields[b.name]; ok && string(v) != "null" {
			if err := json.Unmarshal(v, b.dst); err != nil {
				return in, fmt.Errorf("%w: '%s' must be true or false, got %s", domain.ErrInvalidArgument, b.name, abbreviate(v))
			}
		}
	}
	if v, ok := fields["max_tokens"]; ok && string(v) != "null" {
		var n json.Number
		d := json.NewDecoder(bytes.NewReader(v))
		d.UseNumber()
		i, err := int64(0), d.Decode(&n)
		if err == nil {
			i, err = n.Int64()
		}
		if err != nil || i < 0 || i > math.MaxInt32 {
			return in, fmt.Errorf("%w: 'max_tokens' must be an integer, 0 (no limit) or more, got %s", domain.ErrInvalidArgument, abbreviate(v))
		}
		in.MaxTokens = int(i)
	}
	return in, nil
}

func abbreviate(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

const getDocumentsDescription = "Fetch docs, folders, sections or line ranges, verbatim, in ONE call; past " +
	"max_tokens the rest comes back as selectors."

// getDocumentsSchema is get_documents' input schema, written out because
// `select` items are either a string or an object.
func getDocumentsSchema(maxAnswerTokens int) *jsonschema.Schema {
	str := func(desc string) *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Description: desc} }
	boolean := func(desc string, def bool) *jsonschema.Schema {
		s := &jsonschema.Schema{Type: "boolean", Description: desc}
		if def {
			s.Default = json.RawMessage("true")
		} else {
			s.Default = json.RawMessage("false")
		}
		return s
	}
	selector := &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"doc":  str(""),
			"root": str(""),
			"sections": {Type: "array", MinItems: jsonschema.Ptr(1), Items: str(""),
				Description: "full section ids"},
			"lines": {Type: "array", MinItems: jsonschema.Ptr(2), MaxItems: jsonschema.Ptr(2),
				Items:       &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(1.0)},
				Description: "[from, to]"},
			"include_images": {Type: "boolean"},
			"include_code":   {Type: "boolean"},
		},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"select": {
				Type:        "array",
				MinItems:    jsonschema.Ptr(1),
				Description: "doc ids or paths, or selectors",
				Items: &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
					str(""),
					selector,
				}},
			},
			"include_images": {Type: "boolean"},
			"include_code":   boolean("", true),
			"max_tokens": {Type: "integer", Minimum: jsonschema.Ptr(0.0),
				Default:     json.RawMessage(fmt.Sprint(maxAnswerTokens)),
				Description: "budget (0: none)"},
		},
		Required:             []string{"select"},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
}

// addGetDocuments registers get_documents. It is added untyped: its
// arguments are read by readGetDocumentsArgs, which words every mistake
// for the agent, while the input schema describes them to clients.
func addGetDocuments(srv *mcp.Server, lib *browse.Browser, logger *slog.Logger, ceil Ceilings) {
	defaultMax := lib.Config().MaxAnswerTokens
	srv.AddTool(&mcp.Tool{
		Name:        "get_documents",
		Description: getDocumentsDescription,
		Annotations: readOnly("Get documents"),
		InputSchema: publishedSchema(getDocumentsSchema(defaultMax)),
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fail := func(err error) (*mcp.CallToolResult, error) {
			res := &mcp.CallToolResult{}
			res.SetError(toolError(logger, "get_documents", err))
			return res, nil
		}
		in, err := readGetDocumentsArgs(req.Params.Arguments, defaultMax)
		if err != nil {
			return fail(err)
		}
		selectors, err := domain.ParseSelectors(in.Select)
		if err != nil {
			return fail(err)
		}
		var note string
		in.MaxTokens, note = under(in.MaxTokens, ceil.AnswerTokens, "max_tokens", "LIBRARIAN_HTTP_MAX_ANSWER_TOKENS")
		ans, err := lib.GetDocuments(ctx, browse.GetRequest{
			Select:        selectors,
			IncludeImages: in.IncludeImages,
			IncludeCode:   in.IncludeCode,
			MaxTokens:     &in.MaxTokens,
		})
		if err != nil {
			return fail(err)
		}
		return withNote(answerResult(ans), note), nil
	})
}

// answerResult maps an answer's parts to MCP content, in order: text as
// TextContent, images as ImageContent (raw bytes; the SDK encodes them).
func answerResult(ans answer.Answer) *mcp.CallToolResult {
	res := &mcp.CallToolResult{Content: make([]mcp.Content, 0, len(ans.Parts))}
	for _, p := range ans.Parts {
		if p.Image != nil {
			res.Content = append(res.Content, &mcp.ImageContent{Data: p.Image.Data, MIMEType: p.Image.MIME})
			continue
		}
		res.Content = append(res.Content, &mcp.TextContent{Text: p.Text})
	}
	return res
}
