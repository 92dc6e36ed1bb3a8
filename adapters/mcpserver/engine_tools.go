package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/librarian/librarian/app/engine"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The `engine` tool set: seed 004's ten librarian_* tools. Each handler
// only translates its arguments and calls engine.Engine; the text it returns
// is the answer. Errors (the engine unreachable, slow, answering an HTTP
// error, rejecting guidance; an argument the caller got wrong) come back
// as tool errors (isError) whose text is written for the agent to act on.

const engineCallerDescription = "your name in this session, e.g. worker-2, when several agents share it: " +
	"tags the call so the lead's session log shows who asked (and, for librarian_discuss, picks your thread); " +
	"leave it out when you work alone"

type engineBriefArgs struct {
	Task   string `json:"task" jsonschema:"what you are about to do, in a sentence or two"`
	Caller string `json:"caller,omitempty" jsonschema:"your name in this session (see the tool description)"`
}

type engineLocateArgs struct {
	Query  string `json:"query" jsonschema:"a name or a few words: a function, route, config key, catalog entry or file"`
	Caller string `json:"caller,omitempty" jsonschema:"your name in this session (see the tool description)"`
}

type engineAskArgs struct {
	Query  string `json:"query" jsonschema:"one question about the code base"`
	Caller string `json:"caller,omitempty" jsonschema:"your name in this session (see the tool description)"`
}

type engineDiscussArgs struct {
	Message string `json:"message" jsonschema:"your next message in the discussion (may be empty with reset)"`
	Reset   bool   `json:"reset,omitempty" jsonschema:"start a new discussion: forget the earlier turns first"`
	Caller  string `json:"caller,omitempty" jsonschema:"your name in this session: each caller has its own thread"`
}

type engineDependsArgs struct {
	EntryID string `json:"entry_id" jsonschema:"a catalog entry id, as librarian_locate shows for [entry] hits, e.g. auth-middleware"`
}

type engineStatusArgs struct{}

type engineTellArgs struct {
	Subject string `json:"subject" jsonschema:"what the knowledge is about, e.g. a module, entry or config key"`
	Info    string `json:"info" jsonschema:"the facts the engine lacked or got wrong"`
	Caller  string `json:"caller,omitempty" jsonschema:"your name in this session (see the tool description)"`
}

type engineGapArgs struct {
	Subject string `json:"subject" jsonschema:"what you were looking for"`
	Missing string `json:"missing" jsonschema:"what the engine could not answer, or got wrong"`
	Caller  string `json:"caller,omitempty" jsonschema:"your name in this session (see the tool description)"`
}

type engineGuideArgs struct {
	Text    string   `json:"text,omitempty" jsonschema:"the guidance for this session's workers; required unless reset is true"`
	Exclude []string `json:"exclude,omitempty" jsonschema:"paths or names to hide from the workers' hits"`
	Expect  string   `json:"expect,omitempty" jsonschema:"what the workers should end up finding"`
	Reset   bool     `json:"reset,omitempty" jsonschema:"clear the session's guidance (before storing text, when given)"`
	Caller  string   `json:"caller,omitempty" jsonschema:"your name in this session (see the tool description)"`
}

type engineSessionLogArgs struct {
	Limit int `json:"limit,omitempty" jsonschema:"how many rows, 1 to 1000"`
}

// AddEngineTools registers the `engine` tool set on srv, served by engine.
func AddEngineTools(srv *mcp.Server, eng *engine.Engine) {
	addEngineTool(srv, "librarian_brief", "Brief me", false, false,
		"Call at the start of a task, before reading or changing code: describe the task and the engine answers "+
			"with what already exists, what to reuse and what is missing, from its index of the code on this machine. "+
			"`caller`: "+engineCallerDescription+".",
		nil, func(ctx context.Context, in engineBriefArgs) (string, error) {
			return eng.Brief(ctx, in.Caller, in.Task)
		})
	addEngineTool(srv, "librarian_locate", "Locate", false, false,
		"Call before grep or a file search to find where a function, route, config key, catalog entry or file is. "+
			"Answers up to 10 hits as `- [kind] name -> file:line  signature`; an [entry] hit shows what it depends_on, "+
			"and a hit marked stale is in a file changed since indexing, so check the line. "+
			"`caller`: "+engineCallerDescription+".",
		nil, func(ctx context.Context, in engineLocateArgs) (string, error) {
			return eng.Locate(ctx, in.Caller, in.Query)
		})
	addEngineTool(srv, "librarian_ask", "Ask", false, false,
		"Ask one question about the code base (how or why something works) and get an answer grounded in the "+
			"engine's indexes, with the model that answered. For where-is questions use librarian_locate; for "+
			"follow-up questions use librarian_discuss. `caller`: "+engineCallerDescription+".",
		nil, func(ctx context.Context, in engineAskArgs) (string, error) {
			return eng.Ask(ctx, in.Caller, in.Query)
		})
	addEngineTool(srv, "librarian_discuss", "Discuss", false, false,
		"A conversation with the engine over several calls: each message is sent with the earlier turns of your "+
			"thread, so you can refine a question. One thread per `caller`; `reset` true starts a new one (with an "+
			"empty message it only clears). `caller`: "+engineCallerDescription+".",
		map[string]any{"reset": false}, func(ctx context.Context, in engineDiscussArgs) (string, error) {
			return eng.Discuss(ctx, in.Caller, in.Message, in.Reset)
		})
	addEngineTool(srv, "librarian_depends", "Dependencies", false, false,
		"Before changing a catalog entry, list what it depends on and what depends on it. `entry_id` is an entry "+
			"name as librarian_locate shows for [entry] hits.",
		nil, func(ctx context.Context, in engineDependsArgs) (string, error) {
			return eng.Depends(ctx, in.EntryID)
		})
	addEngineTool(srv, "librarian_status", "Engine status", false, false,
		"Check that the engine is up and how old its index is, with the engine's own status report. Call when "+
			"answers look out of date or another librarian_* call failed.",
		nil, func(ctx context.Context, _ engineStatusArgs) (string, error) {
			return eng.Status(ctx)
		})
	addEngineTool(srv, "librarian_tell", "Tell the engine", true, false,
		"Give the engine knowledge it lacked or got wrong (you found the real answer elsewhere), so later "+
			"answers improve. Stores a note in the engine. `caller`: "+engineCallerDescription+".",
		nil, func(ctx context.Context, in engineTellArgs) (string, error) {
			return eng.Tell(ctx, in.Caller, in.Subject, in.Info)
		})
	addEngineTool(srv, "librarian_gap", "Report a gap", true, false,
		"Report something the engine could not answer or located wrongly, so its maintainers can fill the gap. "+
			"Stores a report in the engine; it answers nothing. `caller`: "+engineCallerDescription+".",
		nil, func(ctx context.Context, in engineGapArgs) (string, error) {
			return eng.Gap(ctx, in.Caller, in.Subject, in.Missing)
		})
	addEngineTool(srv, "librarian_guide", "Guide workers", true, true,
		"For a lead session: register guidance that the engine applies to every call of this session's workers: "+
			"`text` (instructions), `exclude` (paths or names to hide from their hits), `expect` (what they should "+
			"find). New guidance replaces the old. `reset` true clears it (alone, or before storing `text`). "+
			"If the engine rejects the guidance, the error quotes its reason and reply; fix and call again.",
		map[string]any{"exclude": []string{}, "reset": false}, func(ctx context.Context, in engineGuideArgs) (string, error) {
			return eng.Guide(ctx, in.Caller, engine.Guide{Text: in.Text, Exclude: in.Exclude, Expect: in.Expect, Reset: in.Reset})
		})
	addEngineTool(srv, "librarian_session_log", "Session log", false, false,
		"What this session's callers asked the engine and were served (time, tool, caller, query, served hits, "+
			"guidance version, exclusions). A lead uses it to review its workers' lookups.",
		map[string]any{"limit": engine.SessionLogLimit}, func(ctx context.Context, in engineSessionLogArgs) (string, error) {
			return eng.SessionLog(ctx, in.Limit)
		})
}

// addEngineTool registers one typed tool. writes marks the tools that
// store something in the engine (tell, gap, guide); replaces marks the one
// that overwrites or deletes what was stored (guide). Every engine tool
// reaches outside this machine's library: OpenWorldHint is true.
func addEngineTool[In any](srv *mcp.Server, name, title string, writes, replaces bool, description string,
	defaults map[string]any, run func(context.Context, In) (string, error)) {
	ann := &mcp.ToolAnnotations{Title: title, ReadOnlyHint: !writes, OpenWorldHint: jsonschema.Ptr(true)}
	if writes {
		ann.DestructiveHint = jsonschema.Ptr(replaces)
	}
	addTool(srv, &mcp.Tool{Name: name, Description: description, Annotations: ann}, engineSchema[In](name, defaults),
		func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, error) {
			out, err := run(knowledge.WithOwner(ctx, tokenName(req)), in)
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out}}}, nil
		})
}

// tokenName is the name of the bearer token the call's session was opened
// with, as the HTTP listener's authentication recorded it; "" over stdio
// and on a server without tokens. The engine records it as the owner of
// what the call stores and scopes sessions to it, whatever `caller` the
// arguments claim.
func tokenName(req *mcp.CallToolRequest) string {
	if req == nil || req.Extra == nil || req.Extra.TokenInfo == nil {
		return ""
	}
	return req.Extra.TokenInfo.UserID
}

// engineSchema infers In's input schema with one plain type per property
// (plainTypes) and records defaults, which readArguments fills in for
// arguments the client leaves out. A mistake here is a
// programming error found by the first test run, hence the panic.
func engineSchema[In any](tool string, defaults map[string]any) *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("%s: input schema: %v", tool, err))
	}
	plainTypes(s)
	for prop, v := range defaults {
		p, ok := s.Properties[prop]
		if !ok {
			panic(fmt.Sprintf("%s: default for unknown argument %q", tool, prop))
		}
		raw, err := json.Marshal(v)
		if err != nil {
			panic(errors.Join(fmt.Errorf("%s: default for %q", tool, prop), err))
		}
		p.Default = raw
	}
	return s
}
