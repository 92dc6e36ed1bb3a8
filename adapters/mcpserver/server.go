// Package mcpserver is the MCP driving adapter: it builds the go-sdk server,
// registers each tool set's typed handlers, and maps app errors to tool
// errors once, here at the edge. Handlers only translate arguments and call
// the use cases under app/ (browse, search, tscompat, engine); they hold no
// library logic.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/domain"
)

// Instructions tell agents how to use the library tools: the cheapest path
// to the lines that answer (measured in issue 9: searching first was
// several times cheaper than browsing for a question with a name in it),
// then seed 000's one get_documents call.
const Instructions = "Project knowledge lives in this library. Cheapest path: `search_documents` for a name " +
	"or phrase (`whole_word` for short ones), mode \"ranked\" for a question in words. Hits name each section " +
	"(full id, line range, size): fetch exactly those sections or lines in ONE `get_documents` call; it returns " +
	"lines verbatim, with placeholders for code and images left out and for lines already sent. Browse with " +
	"`list_documents` (a doc id as `root` gives its outline) when you do not know what to look for. Request " +
	"images only where the visual detail matters."

// TSInstructions describe the librarian-ts tool set (seed 001's workflow).
const TSInstructions = "Markdown documents organised by folder and tagged in frontmatter (tags are " +
	"inherited from the index.md files of parent folders). Discover tags with `listTags` and documents " +
	"with `listDocuments`, search with `searchDocuments`, then read with `getDocument` or `getDocuments`."

// EngineInstructions describe the engine tool set (seed 004's habits).
const EngineInstructions = "Code retrieval for this machine's projects: call `librarian_brief` before " +
	"starting work (what exists, what to reuse, what is missing) and `librarian_locate` before grep " +
	"(current file:line from a code index); ask grounded questions with `librarian_ask` or " +
	"`librarian_discuss`. Give knowledge back: `librarian_tell` when the engine lacked or got something " +
	"wrong, `librarian_gap` when it could not answer."

// LocalEngineInstructions describe the engine tool set when the local
// engine serves it: its index is the library, not the code on the machine,
// so an agent must not skip grep on the strength of a locate.
const LocalEngineInstructions = "The librarian_* tools answer from this library (its docs and the code " +
	"blocks in them), not from your working tree: call `librarian_brief` before starting work (what the " +
	"docs already cover, what to read first, what is missing) and `librarian_locate` to find where the " +
	"docs define a function, route, config key or file (doc file:line; grep the code itself for its " +
	"current location); ask grounded questions with `librarian_ask` or `librarian_discuss`. Give " +
	"knowledge back: `librarian_tell` when the library lacked or got something wrong, `librarian_gap` " +
	"when it could not answer."

// InstructionsFor joins the instructions of the tool sets served, so an
// agent is never told about tools the server does not have. localEngine
// says the engine tools are answered by the local engine, over the library.
func InstructionsFor(library, ts, engine, localEngine bool) string {
	var parts []string
	if library {
		parts = append(parts, Instructions)
	}
	if ts {
		parts = append(parts, TSInstructions)
	}
	if engine && localEngine {
		parts = append(parts, LocalEngineInstructions)
	} else if engine {
		parts = append(parts, EngineInstructions)
	}
	return strings.Join(parts, "\n\n")
}

// Options name the server and say what it tells agents about its tools.
type Options struct {
	Name    string
	Version string
	Logger  *slog.Logger
	// Instructions for agents; "" means Instructions (the library tools').
	Instructions string
	// Complete answers completion/complete (LibraryCompletion); nil: the
	// server offers no completion.
	Complete func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error)
	// Subscribe and Unsubscribe (Subscriptions) accept resources/subscribe;
	// nil: the server offers no subscription.
	Subscribe   func(context.Context, *mcp.SubscribeRequest) error
	Unsubscribe func(context.Context, *mcp.UnsubscribeRequest) error
	// Serving, when not nil, is told of each tool call and resource read
	// until it is answered (done): the library's index build yields to them.
	Serving func() (done func())
}

// NewServer builds an MCP server with no tools yet; the Add*Tools functions
// register each tool set. Every request passes a middleware that turns a
// handler panic into a JSON-RPC internal error instead of killing the
// process, and one that gives protocol errors their JSON-RPC code.
func NewServer(opts Options) *mcp.Server {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: opts.Name, Title: "Librarian", Version: opts.Version},
		&mcp.ServerOptions{Instructions: firstNonEmpty(opts.Instructions, Instructions), Logger: logger,
			CompletionHandler: opts.Complete,
			SubscribeHandler:  opts.Subscribe, UnsubscribeHandler: opts.Unsubscribe})
	srv.AddReceivingMiddleware(recoverPanics(logger), protocolErrors, plainResults)
	if opts.Serving != nil {
		srv.AddReceivingMiddleware(serving(opts.Serving))
	}
	return srv
}

// serving tells mark of every tool call and resource read while it is
// being answered.
func serving(mark func() (done func())) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" || method == "resources/read" {
				defer mark()()
			}
			return next(ctx, method, req)
		}
	}
}

// protocolErrors gives the SDK's protocol errors a JSON-RPC code: it
// answers a second initialize with a plain error, which goes out as code 0.
func protocolErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		var rpcErr *jsonrpc.Error
		if err != nil && method == "initialize" && !errors.As(err, &rpcErr) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
				Message: "invalid request: this session is already initialized (initialize is sent once per connection): " + err.Error()}
		}
		return res, err
	}
}

func recoverPanics(logger *slog.Logger) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				if r := recover(); r != nil {
					logger.Error("handler panic", "method", method, "panic", r, "stack", string(debug.Stack()))
					res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("internal error in %s: %v", method, r)}
				}
			}()
			return next(ctx, method, req)
		}
	}
}

// readOnly is the annotation of every library tool: nothing is ever
// written, which lets a client run it without asking. The other hints
// (idempotent, closed world) and a title that restates the name change
// nothing a client does, and tools/list is paid for in every agent turn.
func readOnly(string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{ReadOnlyHint: true}
}

// readOnlyTitled is the annotation of the librarian-ts tools, whose
// tools/list is kept as it was (a drop-in changes nothing a client sees).
func readOnlyTitled(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: jsonschema.Ptr(false)}
}

// schemaFor infers In's input schema with one plain type per property
// (plainTypes) and sets the given defaults, which readArguments fills in
// for arguments the client leaves out.
func schemaFor[In any](defaults map[string]any) *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("schema for %T: %v", *new(In), err))
	}
	plainTypes(s)
	for name, v := range defaults {
		p, ok := s.Properties[name]
		if !ok {
			panic(fmt.Sprintf("schema for %T: no property %q", *new(In), name))
		}
		raw, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		p.Default = raw
	}
	return s
}

// toolError maps an app error to the text an agent gets with isError: the
// caller's mistakes verbatim, anything unexpected logged and summarised.
func toolError(logger *slog.Logger, tool string, err error) error {
	var ie *domain.IndexError
	switch {
	case errors.As(err, &ie),
		errors.Is(err, domain.ErrNotFound),
		errors.Is(err, domain.ErrRefused),
		errors.Is(err, domain.ErrInvalidSelector),
		errors.Is(err, domain.ErrInvalidArgument),
		errors.Is(err, context.Canceled),
		errors.Is(err, context.DeadlineExceeded):
		return err
	}
	if logger != nil {
		logger.Error("tool failed", "tool", tool, "err", err)
	}
	return fmt.Errorf("%s failed: %s", tool, publicReason(err))
}

// publicReason is what an answer says of an unexpected error. Its text
// may name what only the server should know: an index file's absolute
// path, a database's user, name, host and port, a driver's wording. The
// log (stderr) has it whole; the caller, who may be any token holder of a
// shared server, learns what failed and what to do.
func publicReason(err error) string {
	var netErr net.Error
	if errors.As(err, &netErr) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) {
		return "the index database did not answer; try again in a moment (the server's log has the detail)"
	}
	return "an unexpected error on the server (its log has the detail); the call changed nothing: send it again, and if it fails again tell the server's operator"
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// text wraps a text answer as a tool result.
func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
