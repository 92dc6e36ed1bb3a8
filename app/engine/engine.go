package engine

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/retrieval"
)

// EngineConfig is what the engine tools need besides the engine itself
// (seed 004's environment; the lead reads it from Settings).
type Config struct {
	// URL is the engine's base URL (LIBRARIAN_URL); the adapter uses it, and
	// "" means DefaultEngineURL.
	URL string
	// Project is sent as `project` with brief, ask, discuss, tell and gap
	// when set (LIBRARIAN_PROJECT).
	Project string
	// Session tags every call (CLAUDE_CODE_SESSION_ID); "" means a random id,
	// chosen once per Engine, that is per launch.
	Session string
	// HistoryMessages bounds the discussion history kept per caller (user
	// and assistant messages; oldest dropped first). 0 means 40.
	HistoryMessages int
	// Now is the clock for the index age; nil means time.Now.
	Now func() time.Time
}

// Engine runs seed 004's librarian_* tools over a retrieval engine: it tags
// calls with the session, project and caller, keeps one discussion per
// caller, and renders every answer as text for an agent. Safe for
// concurrent use.
//
// A caller is named by the optional `caller` argument of the tools that send
// one (brief, locate, ask, discuss, tell, gap, guide): a lead session gives
// each worker its own name, so the engine can tell them apart in the
// session log and each gets its own discussion thread. Calls without a
// caller send no caller tag and share one anonymous thread.
type Engine struct {
	port    retrieval.Engine
	tags    knowledge.EngineTags
	history int
	now     func() time.Time

	mu      sync.Mutex
	clock   uint64
	threads map[string]*engineThread
}

// engineThread is one caller's discussion. Its lock is held for a whole
// turn, so a caller's turns reach the engine in order.
type engineThread struct {
	mu    sync.Mutex
	turns []knowledge.Turn
	used  uint64 // Engine.clock at its last turn, for dropping the oldest thread
}

// EngineLocateLimit is how many hits librarian_locate asks for (seed 004's 10).
const LocateLimit = 10

// EngineSessionLogLimit is librarian_session_log's default limit.
const SessionLogLimit = 20

// NewEngine returns the engine tools over port.
func New(port retrieval.Engine, cfg Config) *Engine {
	session := strings.TrimSpace(cfg.Session)
	if session == "" {
		session = NewSessionID()
	}
	history := cfg.HistoryMessages
	if history <= 0 {
		history = 40
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return &Engine{
		port:    port,
		tags:    knowledge.EngineTags{Session: session, Project: strings.TrimSpace(cfg.Project)},
		history: history,
		now:     now,
		threads: map[string]*engineThread{},
	}
}

// NewEngineSessionID returns a random session id (a version 4 UUID), used
// when CLAUDE_CODE_SESSION_ID is not set.
func NewSessionID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand, Go 1.24+)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Session is the session id this engine tags its calls with.
func (e *Engine) Session() string { return e.tags.Session }

func (e *Engine) tagsFor(caller string) knowledge.EngineTags {
	t := e.tags
	t.Caller = strings.TrimSpace(caller)
	return t
}

// engineRequired checks a required text argument.
func engineRequired(name, value, hint string) error {
	if strings.TrimSpace(value) == "" {
		return fmt.Errorf("%w: '%s' is empty: %s", domain.ErrInvalidArgument, name, hint)
	}
	return nil
}

// Brief is librarian_brief: a start-of-task briefing.
func (e *Engine) Brief(ctx context.Context, caller, task string) (string, error) {
	if err := engineRequired("task", task, "say what you are about to do"); err != nil {
		return "", err
	}
	a, err := e.port.Brief(ctx, knowledge.BriefQuery{Task: task, Tags: e.tagsFor(caller)})
	if err != nil {
		return "", err
	}
	return renderEngineAnswer(a), nil
}

// Locate is librarian_locate: where a function, route, config key, entry
// or file is.
func (e *Engine) Locate(ctx context.Context, caller, query string) (string, error) {
	if err := engineRequired("query", query, "name a function, route, config key, entry or file"); err != nil {
		return "", err
	}
	loc, err := e.port.Locate(ctx, knowledge.LocateQuery{Query: query, Limit: LocateLimit, Tags: e.tagsFor(caller)})
	if err != nil {
		return "", err
	}
	return renderLocations(query, loc), nil
}

// Ask is librarian_ask: one grounded question, no history.
func (e *Engine) Ask(ctx context.Context, caller, query string) (string, error) {
	if err := engineRequired("query", query, "ask a question"); err != nil {
		return "", err
	}
	a, err := e.port.Ask(ctx, knowledge.AskQuery{Query: query, Tags: e.tagsFor(caller)})
	if err != nil {
		return "", err
	}
	return renderEngineAnswer(a), nil
}

// Discuss is librarian_discuss: one turn of the caller's discussion, sent
// with the earlier turns as history. reset starts a new discussion first; a
// reset with no message only clears it. A busy or failed turn is not kept.
func (e *Engine) Discuss(ctx context.Context, caller, message string, reset bool) (string, error) {
	caller = strings.TrimSpace(caller)
	th := e.thread(caller)
	th.mu.Lock()
	defer th.mu.Unlock()
	if reset {
		th.turns = nil
	}
	if strings.TrimSpace(message) == "" {
		if reset {
			return "Discussion reset: the next message starts a new thread.", nil
		}
		return "", engineRequired("message", message, "write your message, or pass reset=true to start over")
	}
	history := append([]knowledge.Turn(nil), th.turns...)
	a, err := e.port.Ask(ctx, knowledge.AskQuery{Query: message, History: history, Tags: e.tagsFor(caller)})
	if err != nil {
		return "", err
	}
	if a.Busy == nil {
		th.turns = append(th.turns, knowledge.Turn{Role: "user", Content: message}, knowledge.Turn{Role: "assistant", Content: a.Text})
		if over := len(th.turns) - e.history; over > 0 {
			th.turns = append([]knowledge.Turn(nil), th.turns[over:]...)
		}
	}
	return renderEngineAnswer(a), nil
}

// engineMaxThreads bounds the discussions kept: callers are free-form
// names, so the least recently used thread goes when a new one would pass it.
const engineMaxThreads = 256

func (e *Engine) thread(caller string) *engineThread {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.clock++
	th := e.threads[caller]
	if th == nil {
		if len(e.threads) >= engineMaxThreads {
			oldest, at := "", uint64(0)
			for name, t := range e.threads {
				if oldest == "" && at == 0 || t.used < at {
					oldest, at = name, t.used
				}
			}
			delete(e.threads, oldest)
		}
		th = &engineThread{}
		e.threads[caller] = th
	}
	th.used = e.clock
	return th
}

// Depends is librarian_depends: the dependents and dependencies of a
// catalog entry.
func (e *Engine) Depends(ctx context.Context, entryID string) (string, error) {
	if err := engineRequired("entry_id", entryID, "give a catalog entry id, as librarian_locate shows for [entry] hits"); err != nil {
		return "", err
	}
	d, err := e.port.Depends(ctx, entryID)
	if err != nil {
		return "", err
	}
	return renderDependencies(entryID, d), nil
}

// Status is librarian_status: the engine's health and its index's age.
func (e *Engine) Status(ctx context.Context) (string, error) {
	s, err := e.port.Status(ctx)
	if err != nil {
		return "", err
	}
	return renderEngineStatus(s, e.now()), nil
}

// Tell is librarian_tell: give the engine knowledge.
func (e *Engine) Tell(ctx context.Context, caller, subject, info string) (string, error) {
	if err := errors.Join(engineRequired("subject", subject, "say what the knowledge is about"),
		engineRequired("info", info, "write what the engine should know")); err != nil {
		return "", err
	}
	r, err := e.port.Tell(ctx, knowledge.Tell{Subject: subject, Info: info, Tags: e.tagsFor(caller)})
	if err != nil {
		return "", err
	}
	return "Knowledge stored: " + r.Stored, nil
}

// Gap is librarian_gap: report knowledge the engine lacked.
func (e *Engine) Gap(ctx context.Context, caller, subject, missing string) (string, error) {
	if err := errors.Join(engineRequired("subject", subject, "say what you were looking for"),
		engineRequired("missing", missing, "say what the engine could not answer")); err != nil {
		return "", err
	}
	r, err := e.port.Gap(ctx, knowledge.Gap{Subject: subject, Missing: missing, Tags: e.tagsFor(caller)})
	if err != nil {
		return "", err
	}
	return "Gap recorded: " + r.Stored, nil
}

// EngineGuide is what librarian_guide registers: guidance text, hits to
// exclude, what the workers should find; Reset clears the session's
// guidance first (alone when Text is empty).
type Guide struct {
	Text    string
	Exclude []string
	Expect  string
	Reset   bool
}

// Guide is librarian_guide: a lead session registers guidance and
// exclusions for its workers, or clears them. A rejection is an error that
// carries the engine's reason and reply verbatim.
func (e *Engine) Guide(ctx context.Context, caller string, g Guide) (string, error) {
	if !g.Reset {
		if err := engineRequired("text", g.Text, "write the guidance, or pass reset=true to clear it"); err != nil {
			return "", err
		}
	}
	var out []string
	if g.Reset {
		cleared, err := e.port.ClearGuide(ctx, e.tags.Session)
		if err != nil {
			return "", err
		}
		if cleared {
			out = append(out, "Guidance cleared.")
		} else {
			out = append(out, "There was no guidance to clear.")
		}
		if strings.TrimSpace(g.Text) == "" {
			return strings.Join(out, "\n"), nil
		}
	}
	r, err := e.port.Guide(ctx, knowledge.Guidance{Text: g.Text, Exclude: g.Exclude, Expect: g.Expect, Tags: e.tagsFor(caller)})
	if err != nil {
		return "", err
	}
	if !r.Stored {
		return "", guideRejection(r)
	}
	return strings.Join(append(out, renderGuideStored(r)), "\n"), nil
}

// EngineGuideRejected is the engine's refusal of guidance. Its message
// holds the engine's reason and reply, so the agent can fix and retry.
type GuideRejected struct {
	Receipt knowledge.GuidanceReceipt
}

func (e *GuideRejected) Error() string {
	r := e.Receipt
	var b strings.Builder
	if r.Status != 0 {
		fmt.Fprintf(&b, "the engine rejected the guidance (HTTP %d)", r.Status)
	} else {
		b.WriteString("the engine did not store the guidance")
	}
	if r.Reason != "" {
		b.WriteString(": " + r.Reason)
	}
	if len(r.Body) > 0 {
		b.WriteString("\nengine reply: " + string(r.Body))
	}
	return b.String()
}

func guideRejection(r knowledge.GuidanceReceipt) error { return &GuideRejected{Receipt: r} }

// SessionLog is librarian_session_log: what this session's callers asked and
// were served, up to limit rows (0: EngineSessionLogLimit).
func (e *Engine) SessionLog(ctx context.Context, limit int) (string, error) {
	if limit == 0 {
		limit = SessionLogLimit
	}
	if limit < 0 || limit > 1000 {
		return "", fmt.Errorf("%w: 'limit' is %d: give 1 to 1000 (default %d)", domain.ErrInvalidArgument, limit, SessionLogLimit)
	}
	rows, err := e.port.Interactions(ctx, e.tags.Session, limit)
	if err != nil {
		return "", err
	}
	return renderInteractions(e.tags.Session, rows), nil
}

// ThreadCount is how many discussions are kept (for tests and logs).
func (e *Engine) ThreadCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.threads)
}
