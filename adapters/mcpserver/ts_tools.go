package mcpserver

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/app/tscompat"
	"github.com/librarian/librarian/domain"
)

// The `librarian-ts` tool set: seed 001's original TypeScript server, as a
// drop-in. Names, input schemas, argument checks and answers are the
// original's (testdata/librarian-examples/recorded), so a team's prompts
// keep working when it swaps servers.
//
// The tools are registered with the untyped Server.AddTool so that each can
// advertise the original's schema verbatim and check arguments as the
// original did: zod rejected a wrong type, a missing required argument or an
// unknown mode with a JSON-RPC error (-32602, so do we), but silently ignored
// arguments it did not know, although its advertised schema says
// "additionalProperties": false. go-sdk's typed AddTool would reject those.

// tsToolsJSON is the original's tools/list answer, copied from
// recorded/tools_list.json (the replay test checks they stay equal).
//
//go:embed ts_tools.json
var tsToolsJSON []byte

// tsTool is one tool of tsToolsJSON: its advertised schema, verbatim, and
// the schema its arguments are checked against.
type tsTool struct {
	name      string
	advertise json.RawMessage
	check     *jsonschema.Resolved
}

// loadTSTools reads tsToolsJSON. The file is compiled in and checked by the
// tests, so an error here is a build mistake, not bad input.
func loadTSTools() (map[string]tsTool, error) {
	var list struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(tsToolsJSON, &list); err != nil {
		return nil, fmt.Errorf("ts_tools.json: %w", err)
	}
	tools := map[string]tsTool{}
	for _, t := range list.Tools {
		var s jsonschema.Schema
		if err := json.Unmarshal(t.InputSchema, &s); err != nil {
			return nil, fmt.Errorf("ts_tools.json: %s: %w", t.Name, err)
		}
		// The original ignored arguments it did not know: so do we.
		s.AdditionalProperties = nil
		resolved, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
		if err != nil {
			return nil, fmt.Errorf("ts_tools.json: %s: %w", t.Name, err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, t.InputSchema); err != nil {
			return nil, fmt.Errorf("ts_tools.json: %s: %w", t.Name, err)
		}
		tools[t.Name] = tsTool{name: t.Name, advertise: compact.Bytes(), check: resolved}
	}
	return tools, nil
}

type tsListArgs struct {
	Directory       string   `json:"directory"`
	Tags            []string `json:"tags"`
	IncludeContents bool     `json:"includeContents"`
	Depth           float64  `json:"depth"`
}

type tsSearchArgs struct {
	Query           string   `json:"query"`
	Mode            string   `json:"mode"`
	CaseSensitive   bool     `json:"caseSensitive"`
	Directory       string   `json:"directory"`
	Tags            []string `json:"tags"`
	IncludeContents bool     `json:"includeContents"`
	Depth           float64  `json:"depth"`
}

type tsGetArgs struct {
	Filepath string `json:"filepath"`
}

type tsGetManyArgs struct {
	Filepaths []string `json:"filepaths"`
}

type tsTagsArgs struct {
	Directory        string  `json:"directory"`
	IncludeFilepaths bool    `json:"includeFilepaths"`
	Depth            float64 `json:"depth"`
}

// AddTSTools registers the `librarian-ts` tool set, in the original's order.
func AddTSTools(srv *mcp.Server, lib *tscompat.Tools, logger *slog.Logger) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	tools, err := loadTSTools()
	if err != nil {
		panic(err)
	}
	addTSTool(srv, tools, logger, "listDocuments", "List documents", "Failed to list documents: ",
		func(ctx context.Context, in tsListArgs) (string, error) {
			return lib.ListDocuments(ctx, tscompat.ListRequest{
				Directory: in.Directory, Tags: in.Tags, IncludeContents: in.IncludeContents, Depth: in.Depth,
			})
		})
	addTSTool(srv, tools, logger, "searchDocuments", "Search documents", "Failed to search documents: ",
		func(ctx context.Context, in tsSearchArgs) (string, error) {
			return lib.SearchDocuments(ctx, tscompat.SearchRequest{
				Query: in.Query, Mode: in.Mode, CaseSensitive: in.CaseSensitive,
				Directory: in.Directory, Tags: in.Tags, IncludeContents: in.IncludeContents, Depth: in.Depth,
			})
		})
	addTSTool(srv, tools, logger, "getDocument", "Get document", "Failed to get document: ",
		func(ctx context.Context, in tsGetArgs) (string, error) {
			return lib.GetDocument(ctx, in.Filepath)
		})
	addTSTool(srv, tools, logger, "getDocuments", "Get documents", "Failed to get documents: ",
		func(ctx context.Context, in tsGetManyArgs) (string, error) {
			return lib.GetDocuments(ctx, in.Filepaths)
		})
	addTSTool(srv, tools, logger, "listTags", "List tags", "Failed to list tags: ",
		func(ctx context.Context, in tsTagsArgs) (string, error) {
			return lib.ListTags(ctx, tscompat.TagsRequest{
				Directory: in.Directory, IncludeFilepaths: in.IncludeFilepaths, Depth: in.Depth,
			})
		})
}

// addTSTool registers one tool: arguments checked and defaulted by the
// original's schema, then decoded into In; the answer as one text item; a
// failure as the original worded it (failPrefix + the error) with isError.
// The original's tools had no description, and these have none either.
func addTSTool[In any](srv *mcp.Server, tools map[string]tsTool, logger *slog.Logger, name, title, failPrefix string,
	call func(context.Context, In) (string, error)) {
	t, ok := tools[name]
	if !ok {
		panic(fmt.Sprintf("ts_tools.json has no tool %q", name))
	}
	srv.AddTool(&mcp.Tool{Name: name, InputSchema: t.advertise, Annotations: readOnlyTitled(title)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			in, err := tsArguments[In](t, req.Params.Arguments)
			if err != nil {
				return nil, err
			}
			out, err := call(ctx, in)
			if err != nil {
				if !expectedTSError(err) {
					logger.Error("tool failed", "tool", name, "err", err)
				}
				res := text(failPrefix + err.Error())
				res.IsError = true
				return res, nil
			}
			return text(out), nil
		})
}

// tsArguments checks raw arguments against the tool's schema (see
// checkArguments), fills in its defaults and decodes them. Arguments that do not fit are a JSON-RPC
// invalid-params error naming the tool and what is wrong, as the original's.
func tsArguments[In any](t tsTool, raw json.RawMessage) (In, error) {
	var in In
	invalid := func(err error) error {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("Invalid arguments for tool %s: %v", t.name, err)}
	}
	fields, err := argumentFields(raw)
	if err != nil {
		return in, invalid(fmt.Errorf("the arguments %w", err))
	}
	// As zod did: unknown arguments ignored, null refused where a value
	// is expected (zod's optional means absent, not null).
	args, err := checkArguments(t.check.Schema(), fields, false)
	if err != nil {
		return in, invalid(err)
	}
	if err := decodeArguments(args, &in); err != nil {
		return in, invalid(err)
	}
	return in, nil
}

// expectedTSError reports whether err is an answer for the agent (a missing
// doc, an invalid library index, a bad argument) rather than a fault to log.
func expectedTSError(err error) bool {
	var ie *domain.IndexError
	return errors.As(err, &ie) ||
		errors.Is(err, domain.ErrNotFound) ||
		errors.Is(err, domain.ErrInvalidArgument) ||
		errors.Is(err, context.Canceled) ||
		errors.Is(err, context.DeadlineExceeded)
}
