package engine_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/librarian/librarian/app/engine"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/retrieval"
)

// The -update flag may be declared by another test file of the package
// (package-level variables are set before any init runs); the engine tests
// look it up, declaring it only if nobody did.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files")
	}
}

func engineUpdateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// fakeEnginePort is an in-memory retrieval.Engine: it records what it was asked
// and answers what the test set.
type fakeEnginePort struct {
	mu    sync.Mutex
	calls []any // the domain requests, in order

	answer       knowledge.EngineAnswer
	locations    knowledge.Locations
	dependencies knowledge.Dependencies
	status       knowledge.EngineStatus
	receipt      knowledge.Receipt
	guide        knowledge.GuidanceReceipt
	cleared      bool
	rows         []knowledge.Interaction
	err          error
	// onAsk, when set, answers Ask instead of answer.
	onAsk func(knowledge.AskQuery) (knowledge.EngineAnswer, error)
}

var _ retrieval.Engine = (*fakeEnginePort)(nil)

func (f *fakeEnginePort) record(call any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, call)
}

func (f *fakeEnginePort) recorded() []any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]any(nil), f.calls...)
}

type portClearCall struct{ Session string }
type portInteractionsCall struct {
	Session string
	Limit   int
}
type portDependsCall struct{ EntryID string }
type portStatusCall struct{}

func (f *fakeEnginePort) Brief(_ context.Context, q knowledge.BriefQuery) (knowledge.EngineAnswer, error) {
	f.record(q)
	return f.answer, f.err
}

func (f *fakeEnginePort) Ask(_ context.Context, q knowledge.AskQuery) (knowledge.EngineAnswer, error) {
	f.record(q)
	if f.onAsk != nil {
		return f.onAsk(q)
	}
	return f.answer, f.err
}

func (f *fakeEnginePort) Locate(_ context.Context, q knowledge.LocateQuery) (knowledge.Locations, error) {
	f.record(q)
	return f.locations, f.err
}

func (f *fakeEnginePort) Depends(_ context.Context, id string) (knowledge.Dependencies, error) {
	f.record(portDependsCall{id})
	return f.dependencies, f.err
}

func (f *fakeEnginePort) Status(context.Context) (knowledge.EngineStatus, error) {
	f.record(portStatusCall{})
	return f.status, f.err
}

func (f *fakeEnginePort) Tell(_ context.Context, t knowledge.Tell) (knowledge.Receipt, error) {
	f.record(t)
	return f.receipt, f.err
}

func (f *fakeEnginePort) Gap(_ context.Context, g knowledge.Gap) (knowledge.Receipt, error) {
	f.record(g)
	return f.receipt, f.err
}

func (f *fakeEnginePort) Guide(_ context.Context, g knowledge.Guidance) (knowledge.GuidanceReceipt, error) {
	f.record(g)
	return f.guide, f.err
}

func (f *fakeEnginePort) ClearGuide(_ context.Context, session string) (bool, error) {
	f.record(portClearCall{session})
	return f.cleared, f.err
}

func (f *fakeEnginePort) Interactions(_ context.Context, session string, limit int) ([]knowledge.Interaction, error) {
	f.record(portInteractionsCall{session, limit})
	return f.rows, f.err
}

var engineTestConfig = Config{Session: "sess-42", Project: "shop"}

func TestNewEngineSession(t *testing.T) {
	if got := New(&fakeEnginePort{}, Config{Session: " sess-1 "}).Session(); got != "sess-1" {
		t.Errorf("Session() = %q, want %q", got, "sess-1")
	}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	a := New(&fakeEnginePort{}, Config{}).Session()
	b := New(&fakeEnginePort{}, Config{}).Session()
	if !uuid.MatchString(a) || !uuid.MatchString(b) || a == b {
		t.Errorf("random sessions %q and %q: want two different version 4 UUIDs", a, b)
	}
}

// Every tool sends the session, the project and the caller it was given;
// the adapter decides where each goes.
func TestEngineTagsAndRequests(t *testing.T) {
	ctx := context.Background()
	full := knowledge.EngineTags{Session: "sess-42", Project: "shop", Caller: "worker-2"}
	noCaller := knowledge.EngineTags{Session: "sess-42", Project: "shop"}
	cases := []struct {
		name string
		call func(*Engine) (string, error)
		want []any
	}{
		{"brief", func(e *Engine) (string, error) { return e.Brief(ctx, " worker-2 ", "add rate limiting") },
			[]any{knowledge.BriefQuery{Task: "add rate limiting", Tags: full}}},
		{"brief without caller", func(e *Engine) (string, error) { return e.Brief(ctx, "", "t") },
			[]any{knowledge.BriefQuery{Task: "t", Tags: noCaller}}},
		{"locate asks for 10", func(e *Engine) (string, error) { return e.Locate(ctx, "worker-2", "auth middleware") },
			[]any{knowledge.LocateQuery{Query: "auth middleware", Limit: 10, Tags: full}}},
		{"ask", func(e *Engine) (string, error) { return e.Ask(ctx, "worker-2", "where are sessions?") },
			[]any{knowledge.AskQuery{Query: "where are sessions?", Tags: full}}},
		{"depends", func(e *Engine) (string, error) { return e.Depends(ctx, "auth-middleware") },
			[]any{portDependsCall{"auth-middleware"}}},
		{"status", func(e *Engine) (string, error) { return e.Status(ctx) }, []any{portStatusCall{}}},
		{"tell", func(e *Engine) (string, error) { return e.Tell(ctx, "worker-2", "sessions", "moved to redis") },
			[]any{knowledge.Tell{Subject: "sessions", Info: "moved to redis", Tags: full}}},
		{"gap", func(e *Engine) (string, error) { return e.Gap(ctx, "", "billing", "invoice rendering") },
			[]any{knowledge.Gap{Subject: "billing", Missing: "invoice rendering", Tags: noCaller}}},
		{"guide", func(e *Engine) (string, error) {
			return e.Guide(ctx, "lead", Guide{Text: "prefer v2", Exclude: []string{"legacy/"}, Expect: "session_store.py"})
		}, []any{knowledge.Guidance{Text: "prefer v2", Exclude: []string{"legacy/"}, Expect: "session_store.py",
			Tags: knowledge.EngineTags{Session: "sess-42", Project: "shop", Caller: "lead"}}}},
		{"guide reset only", func(e *Engine) (string, error) { return e.Guide(ctx, "lead", Guide{Reset: true}) },
			[]any{portClearCall{"sess-42"}}},
		{"guide reset and replace", func(e *Engine) (string, error) { return e.Guide(ctx, "", Guide{Text: "new", Reset: true}) },
			[]any{portClearCall{"sess-42"}, knowledge.Guidance{Text: "new", Tags: noCaller}}},
		{"session log default limit", func(e *Engine) (string, error) { return e.SessionLog(ctx, 0) },
			[]any{portInteractionsCall{"sess-42", 20}}},
		{"session log limit", func(e *Engine) (string, error) { return e.SessionLog(ctx, 5) },
			[]any{portInteractionsCall{"sess-42", 5}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			port := &fakeEnginePort{guide: knowledge.GuidanceReceipt{Stored: true}, status: knowledge.EngineStatus{JSON: []byte("{}")}}
			if _, err := tc.call(New(port, engineTestConfig)); err != nil {
				t.Fatalf("call: %v", err)
			}
			if got := port.recorded(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("port got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func TestEngineInvalidArguments(t *testing.T) {
	ctx := context.Background()
	e := New(&fakeEnginePort{}, engineTestConfig)
	for _, tc := range []struct {
		name  string
		call  func() (string, error)
		field string
	}{
		{"brief", func() (string, error) { return e.Brief(ctx, "", "  ") }, "'task'"},
		{"locate", func() (string, error) { return e.Locate(ctx, "", "") }, "'query'"},
		{"ask", func() (string, error) { return e.Ask(ctx, "", "\n") }, "'query'"},
		{"discuss", func() (string, error) { return e.Discuss(ctx, "", "", false) }, "'message'"},
		{"depends", func() (string, error) { return e.Depends(ctx, "") }, "'entry_id'"},
		{"tell subject", func() (string, error) { return e.Tell(ctx, "", "", "info") }, "'subject'"},
		{"tell info", func() (string, error) { return e.Tell(ctx, "", "s", "") }, "'info'"},
		{"gap missing", func() (string, error) { return e.Gap(ctx, "", "s", " ") }, "'missing'"},
		{"guide text", func() (string, error) { return e.Guide(ctx, "", Guide{Exclude: []string{"x"}}) }, "'text'"},
		{"session log negative", func() (string, error) { return e.SessionLog(ctx, -1) }, "'limit'"},
		{"session log huge", func() (string, error) { return e.SessionLog(ctx, 5000) }, "'limit'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.call()
			if !errors.Is(err, domain.ErrInvalidArgument) || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("error = %v, want ErrInvalidArgument naming %s", err, tc.field)
			}
		})
	}
}

// Engine errors reach the caller unchanged, so the MCP edge can show them.
func TestEngineErrorsPassThrough(t *testing.T) {
	want := fmt.Errorf("%w at http://127.0.0.1:8000: ...", knowledge.ErrEngineUnreachable)
	e := New(&fakeEnginePort{err: want}, engineTestConfig)
	ctx := context.Background()
	for name, call := range map[string]func() (string, error){
		"brief":   func() (string, error) { return e.Brief(ctx, "", "t") },
		"locate":  func() (string, error) { return e.Locate(ctx, "", "q") },
		"discuss": func() (string, error) { return e.Discuss(ctx, "", "m", false) },
		"status":  func() (string, error) { return e.Status(ctx) },
		"guide":   func() (string, error) { return e.Guide(ctx, "", Guide{Text: "x"}) },
		"log":     func() (string, error) { return e.SessionLog(ctx, 0) },
	} {
		if _, err := call(); err != want {
			t.Errorf("%s: error = %v, want the port's error unchanged", name, err)
		}
	}
}

func TestDiscussKeepsOneHistoryPerCaller(t *testing.T) {
	ctx := context.Background()
	port := &fakeEnginePort{}
	port.onAsk = func(q knowledge.AskQuery) (knowledge.EngineAnswer, error) {
		if q.Query == "busy?" {
			return knowledge.EngineAnswer{Busy: &knowledge.Busy{}}, nil
		}
		if q.Query == "fail" {
			return knowledge.EngineAnswer{}, knowledge.ErrEngineSlow
		}
		return knowledge.EngineAnswer{Text: "re: " + q.Query}, nil
	}
	e := New(port, Config{Session: "s", HistoryMessages: 4})
	say := func(caller, msg string, reset bool) {
		t.Helper()
		e.Discuss(ctx, caller, msg, reset)
	}
	say("a", "one", false)
	say("b", "hello", false)
	say("a", "two", false)
	say("a", "busy?", false) // not kept
	say("a", "fail", false)  // not kept
	say("a", "three", false) // history capped at 4 messages
	say("b", "", true)       // reset only: no engine call
	say("b", "again", false)
	say("a", "fresh", true) // reset, then a new first turn

	turn := func(role, content string) knowledge.Turn { return knowledge.Turn{Role: role, Content: content} }
	var got []string
	for _, c := range port.recorded() {
		q := c.(knowledge.AskQuery)
		got = append(got, fmt.Sprintf("%s %s %v", q.Tags.Caller, q.Query, q.History))
	}
	want := []string{
		fmt.Sprintf("a one %v", []knowledge.Turn(nil)),
		fmt.Sprintf("b hello %v", []knowledge.Turn(nil)),
		fmt.Sprintf("a two %v", []knowledge.Turn{turn("user", "one"), turn("assistant", "re: one")}),
		fmt.Sprintf("a busy? %v", []knowledge.Turn{turn("user", "one"), turn("assistant", "re: one"), turn("user", "two"), turn("assistant", "re: two")}),
		fmt.Sprintf("a fail %v", []knowledge.Turn{turn("user", "one"), turn("assistant", "re: one"), turn("user", "two"), turn("assistant", "re: two")}),
		fmt.Sprintf("a three %v", []knowledge.Turn{turn("user", "one"), turn("assistant", "re: one"), turn("user", "two"), turn("assistant", "re: two")}),
		fmt.Sprintf("b again %v", []knowledge.Turn(nil)),
		fmt.Sprintf("a fresh %v", []knowledge.Turn(nil)),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("asks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// After "three", a's history held the last four messages: two, re: two, three, re: three.
	port.calls = nil
	e2 := New(port, Config{Session: "s", HistoryMessages: 4})
	for _, m := range []string{"one", "two", "three", "four"} {
		e2.Discuss(ctx, "", m, false)
	}
	last := port.recorded()[3].(knowledge.AskQuery)
	wantLast := []knowledge.Turn{turn("user", "two"), turn("assistant", "re: two"), turn("user", "three"), turn("assistant", "re: three")}
	if !reflect.DeepEqual(last.History, wantLast) {
		t.Errorf("capped history = %v, want %v", last.History, wantLast)
	}
}

func TestDiscussResetAnswer(t *testing.T) {
	got, err := New(&fakeEnginePort{}, engineTestConfig).Discuss(context.Background(), "w", " ", true)
	if err != nil || got != "Discussion reset: the next message starts a new thread." {
		t.Errorf("Discuss(reset) = %q, %v", got, err)
	}
}

// Callers discuss at once without mixing threads (run with -race).
func TestDiscussConcurrentCallers(t *testing.T) {
	port := &fakeEnginePort{}
	port.onAsk = func(q knowledge.AskQuery) (knowledge.EngineAnswer, error) {
		for _, turn := range q.History {
			if turn.Role == "user" && !strings.HasPrefix(turn.Content, q.Tags.Caller+":") {
				return knowledge.EngineAnswer{}, fmt.Errorf("caller %s got %q in its history", q.Tags.Caller, turn.Content)
			}
		}
		return knowledge.EngineAnswer{Text: "ok"}, nil
	}
	e := New(port, engineTestConfig)
	var wg sync.WaitGroup
	for c := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			caller := fmt.Sprint("w", c)
			for i := range 10 {
				if _, err := e.Discuss(context.Background(), caller, fmt.Sprintf("%s: %d", caller, i), false); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
}

func TestGuideRejection(t *testing.T) {
	port := &fakeEnginePort{guide: knowledge.GuidanceReceipt{Status: 422, Reason: "exclude matches every hit",
		Body: []byte(`{"reason": "exclude matches every hit"}`)}}
	_, err := New(port, engineTestConfig).Guide(context.Background(), "", Guide{Text: "x", Exclude: []string{"*"}})
	var rej *GuideRejected
	if !errors.As(err, &rej) {
		t.Fatalf("error = %v, want *EngineGuideRejected", err)
	}
	want := "the engine rejected the guidance (HTTP 422): exclude matches every hit\nengine reply: {\"reason\": \"exclude matches every hit\"}"
	if err.Error() != want {
		t.Errorf("error text:\n%s\nwant:\n%s", err, want)
	}
	port.guide = knowledge.GuidanceReceipt{Reason: "locked", Body: []byte(`{"stored": false, "reason": "locked"}`)}
	_, err = New(port, engineTestConfig).Guide(context.Background(), "", Guide{Text: "x"})
	want = "the engine did not store the guidance: locked\nengine reply: {\"stored\": false, \"reason\": \"locked\"}"
	if err == nil || err.Error() != want {
		t.Errorf("error text:\n%v\nwant:\n%s", err, want)
	}
}

// engineSeedLocate is seed 004's example reply, and engineSeedRendering its text.
var (
	engineSeedLocate = knowledge.Locations{Source: "index", Hits: []knowledge.Hit{
		{Kind: "function", Name: "require_session", File: "src/web/auth_middleware.py", Line: 24, Signature: "(request)"},
		{Kind: "entry", Name: "auth-middleware", DependsOn: []string{"session-store"}},
	}}
	engineSeedRendering = "Locations for 'auth middleware' (source: index):\n" +
		"- [function] require_session -> src/web/auth_middleware.py:24  (request)\n" +
		"- [entry] auth-middleware ->\n" +
		"    depends_on: session-store"
)

func TestLocateRendersTheSeedExample(t *testing.T) {
	got, err := New(&fakeEnginePort{locations: engineSeedLocate}, engineTestConfig).Locate(context.Background(), "", "auth middleware")
	if err != nil || got != engineSeedRendering {
		t.Errorf("rendering (%v):\n%s\nwant (seed 004):\n%s", err, got, engineSeedRendering)
	}
}

var engineBuilt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// TestEngineRenderingGolden pins every answer's text; -update rewrites
// testdata/engine/*.golden.
func TestEngineRenderingGolden(t *testing.T) {
	ctx := context.Background()
	now := engineBuilt.Add(2*time.Hour + 5*time.Minute + 3*time.Second)
	locate := func(query string, loc knowledge.Locations) func() (string, error) {
		return func() (string, error) {
			return New(&fakeEnginePort{locations: loc}, engineTestConfig).Locate(ctx, "", query)
		}
	}
	ask := func(a knowledge.EngineAnswer) func() (string, error) {
		return func() (string, error) {
			return New(&fakeEnginePort{answer: a}, engineTestConfig).Ask(ctx, "", "q")
		}
	}
	depends := func(id string, d knowledge.Dependencies) func() (string, error) {
		return func() (string, error) {
			return New(&fakeEnginePort{dependencies: d}, engineTestConfig).Depends(ctx, id)
		}
	}
	status := func(s knowledge.EngineStatus, now time.Time) func() (string, error) {
		return func() (string, error) {
			return New(&fakeEnginePort{status: s}, Config{Session: "s", Now: func() time.Time { return now }}).Status(ctx)
		}
	}
	guide := func(r knowledge.GuidanceReceipt) func() (string, error) {
		return func() (string, error) {
			return New(&fakeEnginePort{guide: r}, engineTestConfig).Guide(ctx, "", Guide{Text: "t"})
		}
	}
	log := func(rows []knowledge.Interaction) func() (string, error) {
		return func() (string, error) {
			return New(&fakeEnginePort{rows: rows}, engineTestConfig).SessionLog(ctx, 0)
		}
	}
	cases := map[string]func() (string, error){
		"locate_seed": locate("auth middleware", engineSeedLocate),
		"locate_every_field": locate("login", knowledge.Locations{Source: "fts", ExcludedHits: 2, Footer: "Tip: narrow with a file name.",
			Hits: []knowledge.Hit{
				{Kind: "route", Name: "POST /login", File: "src/web/routes.py", Line: 88, Stale: true},
				{Kind: "file", Name: "login.html", File: "templates/login.html"},
				{Kind: "entry", Name: "billing", DependsOn: []string{"invoices", "tax-rules"}},
				{Kind: "entry", Name: "orphan"},
			}}),
		"locate_no_hits":       locate("quantum flux", knowledge.Locations{Source: "index", ExcludedHits: 1}),
		"locate_no_source":     locate("x", knowledge.Locations{Hits: []knowledge.Hit{{Kind: "config", Name: "SESSION_TTL", File: "settings.toml", Line: 3}}}),
		"brief":                ask(knowledge.EngineAnswer{Text: "Reuse require_session.\nMissing: rate limiter.\n"}),
		"ask_provider":         ask(knowledge.EngineAnswer{Text: "Sessions live in redis.", Provider: "qwen-32b"}),
		"busy_full":            ask(knowledge.EngineAnswer{Busy: &knowledge.Busy{Position: 3, HasPosition: true, ETA: 42500 * time.Millisecond, HasETA: true}}),
		"busy_minutes":         ask(knowledge.EngineAnswer{Busy: &knowledge.Busy{ETA: 5 * time.Minute, HasETA: true}}),
		"busy_bare":            ask(knowledge.EngineAnswer{Busy: &knowledge.Busy{}}),
		"depends":              depends("auth-middleware", knowledge.Dependencies{Dependents: []string{"login-route", "logout-route"}, DependsOn: []string{"session-store"}}),
		"depends_none":         depends("leaf", knowledge.Dependencies{}),
		"status":               status(knowledge.EngineStatus{JSON: []byte(`{"ok":true,"index":{"built_at":1767225600,"files":128}}`), IndexBuiltAt: engineBuilt}, now),
		"status_days":          status(knowledge.EngineStatus{JSON: []byte(`{"index":{"built_at":1767225600}}`), IndexBuiltAt: engineBuilt}, engineBuilt.Add(76*time.Hour)),
		"status_no_built_at":   status(knowledge.EngineStatus{JSON: []byte(`["up", 3]`)}, now),
		"status_future":        status(knowledge.EngineStatus{JSON: []byte(`{}`), IndexBuiltAt: now.Add(90 * time.Second)}, now),
		"guide_stored":         guide(knowledge.GuidanceReceipt{Stored: true, Version: "3", ExpiresAt: knowledge.Moment{At: engineBuilt.Add(time.Hour)}}),
		"guide_stored_bare":    guide(knowledge.GuidanceReceipt{Stored: true}),
		"guide_stored_textual": guide(knowledge.GuidanceReceipt{Stored: true, Version: "v7", ExpiresAt: knowledge.Moment{Text: "end of session"}}),
		"session_log": log([]knowledge.Interaction{
			{At: knowledge.Moment{At: engineBuilt}, Caller: "worker-2", Kind: "locate", GuidanceVersion: "3", ExcludedHits: 1, Query: "auth middleware",
				Served: []string{"src/web/auth_middleware.py:24", `{"name":"auth-middleware"}`}, Provider: "index", Session: "sess-42"},
			{At: knowledge.Moment{Text: "yesterday"}, Kind: "ask", Query: "where do \"sessions\" live?", Provider: "qwen-32b"},
			{Caller: "worker-3", Session: "other-session"},
			{},
		}),
		"session_log_one":   log([]knowledge.Interaction{{Kind: "brief", Query: "add rate limiting"}}),
		"session_log_empty": log(nil),
	}
	for name, call := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := call()
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			path := filepath.Join("..", "testdata", "engine", name+".golden")
			if engineUpdateGolden() {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got+"\n" != string(want) {
				t.Errorf("%s:\ngot:\n%s\nwant:\n%s", path, got, want)
			}
		})
	}
}

// The tools' answers are the renderings of what the port returned.
func TestEngineAnswersAreRendered(t *testing.T) {
	ctx := context.Background()
	port := &fakeEnginePort{
		locations:    engineSeedLocate,
		answer:       knowledge.EngineAnswer{Text: "Sessions live in redis.", Provider: "qwen-32b"},
		dependencies: knowledge.Dependencies{DependsOn: []string{"session-store"}},
		status:       knowledge.EngineStatus{JSON: []byte(`{}`), IndexBuiltAt: engineBuilt},
		receipt:      knowledge.Receipt{Stored: "note 17"},
		guide:        knowledge.GuidanceReceipt{Stored: true, Version: "2"},
		cleared:      true,
		rows:         []knowledge.Interaction{{Kind: "ask", Query: "q"}},
	}
	e := New(port, Config{Session: "s", Now: func() time.Time { return engineBuilt.Add(90 * time.Minute) }})
	for _, tc := range []struct {
		name string
		call func() (string, error)
		want string
	}{
		{"locate", func() (string, error) { return e.Locate(ctx, "", "auth middleware") }, engineSeedRendering},
		{"ask", func() (string, error) { return e.Ask(ctx, "", "q") }, "Sessions live in redis.\n\n(provider: qwen-32b)"},
		{"discuss", func() (string, error) { return e.Discuss(ctx, "", "q", false) }, "Sessions live in redis.\n\n(provider: qwen-32b)"},
		{"depends", func() (string, error) { return e.Depends(ctx, "x") }, "Dependencies of 'x':\ndepends_on (1):\n- session-store\ndependents: none"},
		{"status", func() (string, error) { return e.Status(ctx) }, "Index age: 1 h 30 min (built 2026-01-01 00:00:00 UTC)\nEngine status:\n{}"},
		{"tell", func() (string, error) { return e.Tell(ctx, "", "s", "i") }, "Knowledge stored: note 17"},
		{"gap", func() (string, error) { return e.Gap(ctx, "", "s", "m") }, "Gap recorded: note 17"},
		{"guide", func() (string, error) { return e.Guide(ctx, "", Guide{Text: "t"}) }, "Guidance stored: version 2."},
		{"guide reset", func() (string, error) { return e.Guide(ctx, "", Guide{Reset: true}) }, "Guidance cleared."},
		{"guide reset and replace", func() (string, error) { return e.Guide(ctx, "", Guide{Reset: true, Text: "t"}) }, "Guidance cleared.\nGuidance stored: version 2."},
		{"session log", func() (string, error) { return e.SessionLog(ctx, 0) }, "Session log for s (1 interaction):\n- [ask] \"q\""},
	} {
		got, err := tc.call()
		if err != nil || got != tc.want {
			t.Errorf("%s = %q, %v\nwant %q", tc.name, got, err, tc.want)
		}
	}
	port.cleared = false
	if got, _ := e.Guide(ctx, "", Guide{Reset: true}); got != "There was no guidance to clear." {
		t.Errorf("guide reset with nothing to clear = %q", got)
	}
}

func TestEngineDiscussionThreadsAreBounded(t *testing.T) {
	port := &fakeEnginePort{}
	e := New(port, Config{Session: "s"})
	ctx := context.Background()
	for i := 0; i < 300; i++ {
		if _, err := e.Discuss(ctx, fmt.Sprintf("caller-%d", i), "hello", false); err != nil {
			t.Fatal(err)
		}
	}
	if n := e.ThreadCount(); n != 256 {
		t.Errorf("threads kept = %d, want the cap of 256", n)
	}
}

// gapLister is an engine port that keeps gaps, as the local engine does.
type gapLister struct {
	retrieval.Engine
	gaps []knowledge.Knowledge
}

func (g gapLister) Gaps(context.Context, int) ([]knowledge.Knowledge, error) { return g.gaps, nil }

// TestGapsNameTheirToken: `librarian gaps` says which token reported each
// gap; a claimed caller is shown beside it, as a label.
func TestGapsNameTheirToken(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	e := New(gapLister{gaps: []knowledge.Knowledge{
		{ID: 2, Kind: knowledge.KnowledgeGap, Subject: "billing", Text: "invoices", Owner: "bob", Tags: knowledge.EngineTags{Session: "s", Caller: "alice"}, At: at},
		{ID: 1, Kind: knowledge.KnowledgeGap, Subject: "auth", Text: "rotation", Tags: knowledge.EngineTags{Session: "t", Caller: "worker-2"}, At: at},
	}}, Config{Session: "x"})
	got, err := e.Gaps(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := "2 gaps recorded, newest first:\n" +
		"- gap #2 · 2026-03-01 09:00:00 UTC · token bob, caller label alice (session s)\n  billing: invoices\n" +
		"- gap #1 · 2026-03-01 09:00:00 UTC · worker-2 (session t)\n  auth: rotation"
	if got != want {
		t.Errorf("gaps:\n%s\nwant\n%s", got, want)
	}
}
