package retrievaltest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/retrieval"
)

// Harness is what an adapter under test is built from: the engine's URL and
// the failure rules' timings, shrunk so the suite runs in about a second.
type Harness struct {
	URL string
	// Waits before each retry of a refused or dropped connection.
	Waits []time.Duration
	// Deadlines per call (attempts and waits included), as read timeouts.
	GetTimeout, PostTimeout, GuideTimeout time.Duration
	// MaxReplyBytes bounds one reply.
	MaxReplyBytes int64
}

// NewEngine builds the adapter under test against h. It fails t when it
// cannot.
type NewEngine func(t *testing.T, h Harness) retrieval.Engine

// The suite's timings: short, but long enough that an ordinary request on
// a loaded two-core machine (race detector on) never hits them, and far
// enough apart that the GET, POST and guidance timeouts cannot be confused.
const (
	getTimeout    = 700 * time.Millisecond
	postTimeout   = 3 * time.Second
	guideTimeout  = 500 * time.Millisecond
	maxReplyBytes = 64 << 10
	stall         = 10 * time.Second // longer than every timeout: the client must give up first
)

var waits = []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond}

// harness returns the suite's Harness for url.
func harness(url string) Harness {
	return Harness{URL: url, Waits: waits, GetTimeout: getTimeout, PostTimeout: postTimeout,
		GuideTimeout: guideTimeout, MaxReplyBytes: maxReplyBytes}
}

// Tags used by the suite: every tag set, and the session alone.
var (
	fullTags    = knowledge.EngineTags{Session: "sess-42", Project: "shop", Caller: "worker-2"}
	sessionOnly = knowledge.EngineTags{Session: "sess-42"}
)

// Run checks that the engines newEngine builds follow seed 004's contract:
// each endpoint's request (method, path, query, body, tags), the reading of
// each reply, the engine's error and busy answers, and the failure rules
// (retry a refused or dropped connection only; a timeout is slow; a status is
// "engine answered N"; guidance is never retried and keeps a rejection's body).
func Run(t *testing.T, newEngine NewEngine) {
	t.Run("Requests", func(t *testing.T) { testRequests(t, newEngine) })
	t.Run("Replies", func(t *testing.T) { testReplies(t, newEngine) })
	t.Run("MalformedReplies", func(t *testing.T) { testMalformed(t, newEngine) })
	t.Run("Faults", func(t *testing.T) { testFaults(t, newEngine) })
	t.Run("Guidance", func(t *testing.T) { testGuidance(t, newEngine) })
	t.Run("Concurrent", func(t *testing.T) { testConcurrent(t, newEngine) })
}

// want is an expected request; Body nil means no body at all.
type want struct {
	Method string
	Path   string
	Query  url.Values
	Body   map[string]any
}

func testRequests(t *testing.T, newEngine NewEngine) {
	history := []knowledge.Turn{{Role: "user", Content: "where are sessions kept?"}, {Role: "assistant", Content: "in redis"}}
	cases := []struct {
		name string
		call func(context.Context, retrieval.Engine) error
		want want
	}{
		{"locate/all tags", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Locate(ctx, knowledge.LocateQuery{Query: "auth middleware", Limit: 10, Tags: fullTags})
			return err
		}, want{"GET", "/api/library/locate", url.Values{"q": {"auth middleware"}, "limit": {"10"}, "surface": {"mcp"}, "session": {"sess-42"}, "caller": {"worker-2"}}, nil}},
		{"locate/session only", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Locate(ctx, knowledge.LocateQuery{Query: "config key SESSION_TTL", Limit: 10, Tags: sessionOnly})
			return err
		}, want{"GET", "/api/library/locate", url.Values{"q": {"config key SESSION_TTL"}, "limit": {"10"}, "surface": {"mcp"}, "session": {"sess-42"}}, nil}},
		{"brief/all tags", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Brief(ctx, knowledge.BriefQuery{Task: "add rate limiting to login", Tags: fullTags})
			return err
		}, want{"POST", "/api/library/brief", url.Values{}, map[string]any{"task": "add rate limiting to login", "surface": "mcp", "session": "sess-42", "project": "shop", "caller": "worker-2"}}},
		{"brief/session only", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Brief(ctx, knowledge.BriefQuery{Task: "t", Tags: sessionOnly})
			return err
		}, want{"POST", "/api/library/brief", url.Values{}, map[string]any{"task": "t", "surface": "mcp", "session": "sess-42"}}},
		{"ask/no history", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Ask(ctx, knowledge.AskQuery{Query: "how are sessions stored?", Tags: fullTags})
			return err
		}, want{"POST", "/api/library/ask", url.Values{}, map[string]any{"query": "how are sessions stored?", "surface": "mcp", "session": "sess-42", "project": "shop", "caller": "worker-2"}}},
		{"ask/history", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Ask(ctx, knowledge.AskQuery{Query: "and their TTL?", History: history, Tags: sessionOnly})
			return err
		}, want{"POST", "/api/library/ask", url.Values{}, map[string]any{"query": "and their TTL?", "surface": "mcp", "session": "sess-42",
			"history": []any{map[string]any{"role": "user", "content": "where are sessions kept?"}, map[string]any{"role": "assistant", "content": "in redis"}}}}},
		{"depends", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Depends(ctx, "auth-middleware")
			return err
		}, want{"GET", "/api/library/depends", url.Values{"eid": {"auth-middleware"}}, nil}},
		{"status", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Status(ctx)
			return err
		}, want{"GET", "/api/library/status", url.Values{}, nil}},
		{"tell/all tags", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Tell(ctx, knowledge.Tell{Subject: "session store", Info: "moved to redis in v2", Tags: fullTags})
			return err
		}, want{"POST", "/api/library/tell", url.Values{}, map[string]any{"subject": "session store", "info": "moved to redis in v2", "source": "mcp", "session": "sess-42", "project": "shop", "caller": "worker-2"}}},
		{"tell/session only", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Tell(ctx, knowledge.Tell{Subject: "s", Info: "i", Tags: sessionOnly})
			return err
		}, want{"POST", "/api/library/tell", url.Values{}, map[string]any{"subject": "s", "info": "i", "source": "mcp", "session": "sess-42"}}},
		{"gap/all tags", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Gap(ctx, knowledge.Gap{Subject: "billing", Missing: "where invoices are rendered", Tags: fullTags})
			return err
		}, want{"POST", "/api/library/gap", url.Values{}, map[string]any{"subject": "billing", "missing": "where invoices are rendered", "source": "mcp", "session": "sess-42", "project": "shop", "caller": "worker-2"}}},
		{"gap/session only", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Gap(ctx, knowledge.Gap{Subject: "s", Missing: "m", Tags: sessionOnly})
			return err
		}, want{"POST", "/api/library/gap", url.Values{}, map[string]any{"subject": "s", "missing": "m", "source": "mcp", "session": "sess-42"}}},
		{"guide/all tags, no project", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Guide(ctx, knowledge.Guidance{Text: "use the v2 session store", Exclude: []string{"legacy/"}, Expect: "src/web/session_store.py", Tags: fullTags})
			return err
		}, want{"POST", "/api/library/guide", url.Values{}, map[string]any{"session": "sess-42", "text": "use the v2 session store", "exclude": []any{"legacy/"}, "expect": "src/web/session_store.py", "caller": "worker-2"}}},
		{"guide/nothing excluded", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Guide(ctx, knowledge.Guidance{Text: "t", Tags: sessionOnly})
			return err
		}, want{"POST", "/api/library/guide", url.Values{}, map[string]any{"session": "sess-42", "text": "t", "exclude": []any{}, "expect": ""}}},
		{"guide/clear", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.ClearGuide(ctx, "sess-42")
			return err
		}, want{"DELETE", "/api/library/guide", url.Values{"session": {"sess-42"}}, nil}},
		{"interactions", func(ctx context.Context, e retrieval.Engine) error {
			_, err := e.Interactions(ctx, "sess-42", 5)
			return err
		}, want{"GET", "/api/library/interactions", url.Values{"session": {"sess-42"}, "limit": {"5"}}, nil}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake := NewFakeEngine(t)
			eng := newEngine(t, harness(fake.URL()))
			if err := tc.call(context.Background(), eng); err != nil {
				t.Fatalf("call: %v", err)
			}
			reqs := fake.Requests()
			if len(reqs) != 1 {
				t.Fatalf("engine got %d requests, want 1: %v", len(reqs), endpoints(reqs))
			}
			checkRequest(t, reqs[0], tc.want)
			if problems := Check(reqs[0]); len(problems) > 0 {
				t.Errorf("request breaks the contract: %v", problems)
			}
		})
	}
}

func checkRequest(t *testing.T, got Request, w want) {
	t.Helper()
	if got.Method != w.Method || got.Path != w.Path {
		t.Errorf("request is %s %s, want %s %s", got.Method, got.Path, w.Method, w.Path)
	}
	if !reflect.DeepEqual(got.Query, w.Query) {
		t.Errorf("query is %v, want %v", got.Query, w.Query)
	}
	if w.Body == nil {
		if len(got.Body) > 0 {
			t.Errorf("body is %q, want none", got.Body)
		}
		return
	}
	if ct := got.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type is %q, want application/json", ct)
	}
	if !reflect.DeepEqual(got.JSON, w.Body) {
		t.Errorf("body is %s, want %s", got.Body, mustJSON(w.Body))
	}
}

func endpoints(reqs []Request) []string {
	var out []string
	for _, r := range reqs {
		out = append(out, r.Endpoint())
	}
	return out
}

func mustJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

// start returns a fake engine answering endpoint with replies, and the
// adapter under test pointed at it.
func start(t *testing.T, newEngine NewEngine, method, path string, replies ...Reply) (*FakeEngine, retrieval.Engine) {
	t.Helper()
	fake := NewFakeEngine(t)
	if len(replies) > 0 {
		fake.Script(method, path, replies...)
	}
	return fake, newEngine(t, harness(fake.URL()))
}

func check[T any](t *testing.T, got T, err error, want T) {
	t.Helper()
	if err != nil {
		t.Fatalf("error: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}

func testReplies(t *testing.T, newEngine NewEngine) {
	ctx := context.Background()
	locate := func(t *testing.T, reply Reply) (knowledge.Locations, error) {
		_, eng := start(t, newEngine, "GET", "/api/library/locate", reply)
		return eng.Locate(ctx, knowledge.LocateQuery{Query: "auth middleware", Limit: 10, Tags: fullTags})
	}
	t.Run("locate/seed example", func(t *testing.T) {
		_, eng := start(t, newEngine, "", "") // the fake's default is the seed's example
		got, err := eng.Locate(ctx, knowledge.LocateQuery{Query: "auth middleware", Limit: 10, Tags: fullTags})
		check(t, got, err, knowledge.Locations{Source: "index", Hits: []knowledge.Hit{
			{Kind: "function", Name: "require_session", File: "src/web/auth_middleware.py", Line: 24, Signature: "(request)"},
			{Kind: "entry", Name: "auth-middleware", DependsOn: []string{"session-store"}},
		}})
	})
	t.Run("locate/every field", func(t *testing.T) {
		got, err := locate(t, JSON(200, map[string]any{
			"source": "fts", "excluded_hits": 2, "footer": "2 hits hidden by guidance v3",
			"hits": []any{
				map[string]any{"kind": "route", "name": "POST /login", "file": "src/web/routes.py", "line": 88.0, "signature": nil, "stale": true},
				map[string]any{"kind": "entry", "name": "billing", "file": "docs/billing.md", "depends_on": []any{"invoices", "tax-rules"}},
				map[string]any{"kind": "file", "name": "settings.py", "file": "src/settings.py", "depends_on": "ignored: not an entry"},
			},
		}))
		check(t, got, err, knowledge.Locations{Source: "fts", ExcludedHits: 2, Footer: "2 hits hidden by guidance v3", Hits: []knowledge.Hit{
			{Kind: "route", Name: "POST /login", File: "src/web/routes.py", Line: 88, Stale: true},
			{Kind: "entry", Name: "billing", File: "docs/billing.md", DependsOn: []string{"invoices", "tax-rules"}},
			{Kind: "file", Name: "settings.py", File: "src/settings.py"},
		}})
	})
	t.Run("locate/no hits", func(t *testing.T) {
		got, err := locate(t, JSON(200, map[string]any{"source": "index", "hits": []any{}}))
		check(t, got, err, knowledge.Locations{Source: "index"})
	})
	t.Run("brief/text", func(t *testing.T) {
		_, eng := start(t, newEngine, "POST", "/api/library/brief", JSON(200, map[string]any{"brief": "Reuse require_session."}))
		got, err := eng.Brief(ctx, knowledge.BriefQuery{Task: "t", Tags: sessionOnly})
		check(t, got, err, knowledge.EngineAnswer{Text: "Reuse require_session."})
	})
	t.Run("brief/busy", func(t *testing.T) {
		_, eng := start(t, newEngine, "POST", "/api/library/brief", JSON(200, map[string]any{"busy": true, "position": 3, "eta_s": 42.5}))
		got, err := eng.Brief(ctx, knowledge.BriefQuery{Task: "t", Tags: sessionOnly})
		check(t, got, err, knowledge.EngineAnswer{Busy: &knowledge.Busy{Position: 3, HasPosition: true, ETA: 42500 * time.Millisecond, HasETA: true}})
	})
	t.Run("ask/answer and provider", func(t *testing.T) {
		_, eng := start(t, newEngine, "POST", "/api/library/ask", JSON(200, map[string]any{"answer": "Sessions live in redis.", "provider": "qwen-32b"}))
		got, err := eng.Ask(ctx, knowledge.AskQuery{Query: "q", Tags: sessionOnly})
		check(t, got, err, knowledge.EngineAnswer{Text: "Sessions live in redis.", Provider: "qwen-32b"})
	})
	t.Run("ask/busy without position or eta", func(t *testing.T) {
		_, eng := start(t, newEngine, "POST", "/api/library/ask", JSON(200, map[string]any{"busy": true}))
		got, err := eng.Ask(ctx, knowledge.AskQuery{Query: "q", Tags: sessionOnly})
		check(t, got, err, knowledge.EngineAnswer{Busy: &knowledge.Busy{}})
	})
	t.Run("depends", func(t *testing.T) {
		_, eng := start(t, newEngine, "GET", "/api/library/depends", JSON(200, map[string]any{"dependents": []any{"login-route", "logout-route"}, "depends_on": []any{}}))
		got, err := eng.Depends(ctx, "auth-middleware")
		check(t, got, err, knowledge.Dependencies{Dependents: []string{"login-route", "logout-route"}, DependsOn: []string{}})
	})
	t.Run("status/built_at", func(t *testing.T) {
		body := `{"ok": true, "index": {"built_at": 1767225600.5, "files": 12}, "queue": 0}`
		_, eng := start(t, newEngine, "GET", "/api/library/status", Raw(200, body))
		got, err := eng.Status(ctx)
		check(t, got, err, knowledge.EngineStatus{JSON: []byte(body), IndexBuiltAt: time.Unix(1767225600, 5e8).UTC()})
	})
	t.Run("status/any JSON", func(t *testing.T) {
		_, eng := start(t, newEngine, "GET", "/api/library/status", Raw(200, `["up", 3]`))
		got, err := eng.Status(ctx)
		check(t, got, err, knowledge.EngineStatus{JSON: []byte(`["up", 3]`)})
	})
	t.Run("tell/stored", func(t *testing.T) {
		_, eng := start(t, newEngine, "POST", "/api/library/tell", JSON(200, map[string]any{"stored": "note 17"}))
		got, err := eng.Tell(ctx, knowledge.Tell{Subject: "s", Info: "i", Tags: sessionOnly})
		check(t, got, err, knowledge.Receipt{Stored: "note 17"})
	})
	t.Run("gap/stored", func(t *testing.T) {
		_, eng := start(t, newEngine, "POST", "/api/library/gap", JSON(200, map[string]any{"stored": "gap 4"}))
		got, err := eng.Gap(ctx, knowledge.Gap{Subject: "s", Missing: "m", Tags: sessionOnly})
		check(t, got, err, knowledge.Receipt{Stored: "gap 4"})
	})
	t.Run("interactions/every shape", func(t *testing.T) {
		row := map[string]any{"t": 1767225600, "caller": "worker-2", "kind": "locate", "guidance_version": 3, "excluded_hits": 1,
			"query": "auth middleware", "served": []any{"src/web/auth_middleware.py:24", map[string]any{"name": "auth-middleware"}},
			"provider": "index", "session": "sess-42"}
		wantRow := knowledge.Interaction{At: knowledge.Moment{At: time.Unix(1767225600, 0).UTC()}, Caller: "worker-2", Kind: "locate",
			GuidanceVersion: "3", ExcludedHits: 1, Query: "auth middleware",
			Served: []string{"src/web/auth_middleware.py:24", `{"name":"auth-middleware"}`}, Provider: "index", Session: "sess-42"}
		textTime := map[string]any{"t": "2026-01-01T10:00:00+01:00", "kind": "ask"}
		otherTime := map[string]any{"t": "yesterday", "guidance_version": "v2"}
		wantRest := []knowledge.Interaction{
			{At: knowledge.Moment{At: time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)}, Kind: "ask"},
			{At: knowledge.Moment{Text: "yesterday"}, GuidanceVersion: "v2"},
		}
		all := append([]knowledge.Interaction{wantRow}, wantRest...)
		for _, shape := range []struct {
			name string
			body any
		}{
			{"list", []any{row, textTime, otherTime}},
			{"rows", map[string]any{"rows": []any{row, textTime, otherTime}}},
			{"interactions", map[string]any{"interactions": []any{row, textTime, otherTime}}},
			{"items", map[string]any{"items": []any{row, textTime, otherTime}, "total": 3}},
		} {
			t.Run(shape.name, func(t *testing.T) {
				_, eng := start(t, newEngine, "GET", "/api/library/interactions", JSON(200, shape.body))
				got, err := eng.Interactions(ctx, "sess-42", 20)
				check(t, got, err, all)
			})
		}
		t.Run("empty", func(t *testing.T) {
			_, eng := start(t, newEngine, "GET", "/api/library/interactions", JSON(200, map[string]any{"rows": []any{}}))
			got, err := eng.Interactions(ctx, "sess-42", 20)
			if err != nil || len(got) != 0 {
				t.Errorf("got %v, %v; want no rows, no error", got, err)
			}
		})
	})
	t.Run("error field passed through", func(t *testing.T) {
		for _, ep := range []struct {
			method, path string
			call         func(retrieval.Engine) error
		}{
			{"POST", "/api/library/brief", func(e retrieval.Engine) error {
				_, err := e.Brief(ctx, knowledge.BriefQuery{Task: "t", Tags: sessionOnly})
				return err
			}},
			{"POST", "/api/library/ask", func(e retrieval.Engine) error {
				_, err := e.Ask(ctx, knowledge.AskQuery{Query: "q", Tags: sessionOnly})
				return err
			}},
			{"POST", "/api/library/tell", func(e retrieval.Engine) error {
				_, err := e.Tell(ctx, knowledge.Tell{Subject: "s", Info: "i", Tags: sessionOnly})
				return err
			}},
			{"POST", "/api/library/gap", func(e retrieval.Engine) error {
				_, err := e.Gap(ctx, knowledge.Gap{Subject: "s", Missing: "m", Tags: sessionOnly})
				return err
			}},
			{"GET", "/api/library/locate", func(e retrieval.Engine) error {
				_, err := e.Locate(ctx, knowledge.LocateQuery{Query: "q", Tags: sessionOnly})
				return err
			}},
			{"GET", "/api/library/depends", func(e retrieval.Engine) error { _, err := e.Depends(ctx, "x"); return err }},
		} {
			t.Run(ep.path, func(t *testing.T) {
				_, eng := start(t, newEngine, ep.method, ep.path, JSON(200, map[string]any{"error": "index is rebuilding"}))
				err := ep.call(eng)
				var ee *knowledge.EngineError
				if !errors.As(err, &ee) {
					t.Fatalf("error is %v, want a *knowledge.EngineError", err)
				}
				if ee.Message != "index is rebuilding" || ee.Endpoint != ep.method+" "+ep.path {
					t.Errorf("EngineError is %+v, want message %q at %s %s", ee, "index is rebuilding", ep.method, ep.path)
				}
			})
		}
	})
}

// testMalformed: replies that do not fit the contract are ErrEngineReply
// errors naming the endpoint (and the field, where there is one).
func testMalformed(t *testing.T, newEngine NewEngine) {
	ctx := context.Background()
	locate := func(e retrieval.Engine) error {
		_, err := e.Locate(ctx, knowledge.LocateQuery{Query: "q", Tags: sessionOnly})
		return err
	}
	brief := func(e retrieval.Engine) error {
		_, err := e.Brief(ctx, knowledge.BriefQuery{Task: "t", Tags: sessionOnly})
		return err
	}
	cases := []struct {
		name         string
		method, path string
		reply        Reply
		call         func(retrieval.Engine) error
		mentions     []string
	}{
		{"empty body", "GET", "/api/library/locate", Raw(200, ""), locate, []string{"GET /api/library/locate", "empty"}},
		{"not JSON", "GET", "/api/library/locate", Raw(200, "<html>oops</html>"), locate, []string{"GET /api/library/locate", "not valid JSON"}},
		{"truncated JSON", "POST", "/api/library/brief", Raw(200, `{"brief": "abc`), brief, []string{"POST /api/library/brief", "not valid JSON"}},
		{"not an object", "POST", "/api/library/brief", Raw(200, `"just text"`), brief, []string{"POST /api/library/brief", "not a JSON object"}},
		{"missing brief", "POST", "/api/library/brief", JSON(200, map[string]any{"summary": "x"}), brief, []string{"POST /api/library/brief", "'brief'"}},
		{"brief of wrong type", "POST", "/api/library/brief", JSON(200, map[string]any{"brief": 42}), brief, []string{"POST /api/library/brief", "'brief'"}},
		{"hits missing", "GET", "/api/library/locate", JSON(200, map[string]any{"source": "index"}), locate, []string{"GET /api/library/locate", "'hits'"}},
		{"depends without lists", "GET", "/api/library/depends", JSON(200, map[string]any{"entry": "x"}), func(e retrieval.Engine) error {
			_, err := e.Depends(ctx, "x")
			return err
		}, []string{"GET /api/library/depends", "'dependents'"}},
		{"cleared missing", "DELETE", "/api/library/guide", JSON(200, map[string]any{"ok": true}), func(e retrieval.Engine) error {
			_, err := e.ClearGuide(ctx, "s")
			return err
		}, []string{"DELETE /api/library/guide", "'cleared'"}},
		{"hits not a list", "GET", "/api/library/locate", JSON(200, map[string]any{"hits": "none"}), locate, []string{"GET /api/library/locate", "'hits'"}},
		{"hit not an object", "GET", "/api/library/locate", JSON(200, map[string]any{"hits": []any{map[string]any{"name": "a"}, "b"}}), locate, []string{"GET /api/library/locate", "hits[1]"}},
		{"line not a number", "GET", "/api/library/locate", JSON(200, map[string]any{"hits": []any{map[string]any{"name": "a", "line": "24"}}}), locate, []string{"GET /api/library/locate", "hits[0].line"}},
		{"line not whole", "GET", "/api/library/locate", JSON(200, map[string]any{"hits": []any{map[string]any{"name": "a", "line": 2.5}}}), locate, []string{"hits[0].line"}},
		{"huge body", "POST", "/api/library/brief", Huge(4 * maxReplyBytes), brief, []string{"POST /api/library/brief", "larger than"}},
		{"interactions without rows", "GET", "/api/library/interactions", JSON(200, map[string]any{"total": 0}), func(e retrieval.Engine) error {
			_, err := e.Interactions(ctx, "s", 5)
			return err
		}, []string{"GET /api/library/interactions", "rows"}},
		{"interaction row not an object", "GET", "/api/library/interactions", JSON(200, []any{"locate q"}), func(e retrieval.Engine) error {
			_, err := e.Interactions(ctx, "s", 5)
			return err
		}, []string{"GET /api/library/interactions", "[0]"}},
		{"stored missing", "POST", "/api/library/tell", JSON(200, map[string]any{"ok": true}), func(e retrieval.Engine) error {
			_, err := e.Tell(ctx, knowledge.Tell{Subject: "s", Info: "i", Tags: sessionOnly})
			return err
		}, []string{"POST /api/library/tell", "'stored'"}},
		{"status not JSON", "GET", "/api/library/status", Raw(200, "OK"), func(e retrieval.Engine) error {
			_, err := e.Status(ctx)
			return err
		}, []string{"GET /api/library/status", "not valid JSON"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake, eng := start(t, newEngine, tc.method, tc.path, tc.reply)
			err := tc.call(eng)
			if !errors.Is(err, knowledge.ErrEngineReply) {
				t.Fatalf("error is %v, want knowledge.ErrEngineReply", err)
			}
			for _, m := range tc.mentions {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
			if n := len(fake.Requests()); n != 1 {
				t.Errorf("engine got %d requests, want 1 (a bad reply is not retried)", n)
			}
		})
	}
}

func testFaults(t *testing.T, newEngine NewEngine) {
	ctx := context.Background()
	var sumWaits time.Duration
	for _, w := range waits {
		sumWaits += w
	}
	status := func(e retrieval.Engine) error { _, err := e.Status(ctx); return err }
	brief := func(e retrieval.Engine) error {
		_, err := e.Brief(ctx, knowledge.BriefQuery{Task: "t", Tags: sessionOnly})
		return err
	}

	t.Run("refused is retried then unreachable", func(t *testing.T) {
		t.Parallel()
		u := RefusedURL(t)
		eng := newEngine(t, harness(u))
		begin := time.Now()
		err := status(eng)
		elapsed := time.Since(begin)
		if !errors.Is(err, knowledge.ErrEngineUnreachable) {
			t.Fatalf("error is %v, want knowledge.ErrEngineUnreachable", err)
		}
		if !strings.Contains(err.Error(), u) {
			t.Errorf("error %q does not name the engine's URL %s", err, u)
		}
		if elapsed < sumWaits {
			t.Errorf("gave up after %s, want at least the %s of the three waits", elapsed, sumWaits)
		}
	})
	for _, tc := range []struct {
		name string
		call func(retrieval.Engine) error
		path string
	}{
		{"GET", status, "/api/library/status"},
		{"POST", brief, "/api/library/brief"},
	} {
		t.Run("dropped is retried then unreachable/"+tc.name, func(t *testing.T) {
			t.Parallel()
			fake, eng := start(t, newEngine, tc.name, tc.path, Drop())
			err := tc.call(eng)
			if !errors.Is(err, knowledge.ErrEngineUnreachable) {
				t.Fatalf("error is %v, want knowledge.ErrEngineUnreachable", err)
			}
			if !strings.Contains(err.Error(), fake.URL()) {
				t.Errorf("error %q does not name the engine's URL %s", err, fake.URL())
			}
			if n := len(fake.Requests()); n != 1+len(waits) {
				t.Errorf("engine got %d attempts, want %d (one, then a retry after each wait)", n, 1+len(waits))
			}
		})
	}
	t.Run("dropped then answered", func(t *testing.T) {
		t.Parallel()
		fake, eng := start(t, newEngine, "POST", "/api/library/brief", Drop(), Truncate(), JSON(200, map[string]any{"brief": "third time lucky"}))
		got, err := eng.Brief(ctx, knowledge.BriefQuery{Task: "t", Tags: fullTags})
		check(t, got, err, knowledge.EngineAnswer{Text: "third time lucky"})
		reqs := fake.Requests()
		if len(reqs) != 3 {
			t.Fatalf("engine got %d attempts, want 3", len(reqs))
		}
		for i, r := range reqs[1:] {
			if string(r.Body) != string(reqs[0].Body) {
				t.Errorf("attempt %d sent body %s, want the first attempt's %s", i+2, r.Body, reqs[0].Body)
			}
		}
	})
	for _, tc := range []struct {
		name    string
		method  string
		path    string
		reply   Reply
		call    func(retrieval.Engine) error
		timeout time.Duration
	}{
		{"slow headers GET", "GET", "/api/library/status", Stall(stall), status, getTimeout},
		{"slow headers POST", "POST", "/api/library/brief", Stall(stall), brief, postTimeout},
		{"slow body GET", "GET", "/api/library/status", StallBody(stall), status, getTimeout},
	} {
		t.Run(tc.name+" is slow, not retried", func(t *testing.T) {
			t.Parallel()
			fake, eng := start(t, newEngine, tc.method, tc.path, tc.reply)
			begin := time.Now()
			err := tc.call(eng)
			elapsed := time.Since(begin)
			if !errors.Is(err, knowledge.ErrEngineSlow) {
				t.Fatalf("error is %v, want knowledge.ErrEngineSlow", err)
			}
			if !strings.Contains(err.Error(), tc.method+" "+tc.path) {
				t.Errorf("error %q does not name the endpoint", err)
			}
			if n := len(fake.Requests()); n != 1 {
				t.Errorf("engine got %d attempts, want 1", n)
			}
			if elapsed < tc.timeout || elapsed > tc.timeout+stall/4 {
				t.Errorf("gave up after %s, want the %s timeout", elapsed, tc.timeout)
			}
		})
	}
	t.Run("a GET is not held to the POST timeout", func(t *testing.T) {
		t.Parallel()
		_, eng := start(t, newEngine, "GET", "/api/library/status", Stall(stall))
		begin := time.Now()
		status(eng)
		if elapsed := time.Since(begin); elapsed >= postTimeout {
			t.Errorf("GET gave up after %s, want about %s", elapsed, getTimeout)
		}
	})
	for _, code := range []int{500, 502, 503, 404, 429, 400} {
		for _, tc := range []struct {
			method, path string
			call         func(retrieval.Engine) error
		}{
			{"GET", "/api/library/status", status},
			{"POST", "/api/library/brief", brief},
		} {
			t.Run(fmt.Sprintf("status %d %s is engine answered, not retried", code, tc.method), func(t *testing.T) {
				fake, eng := start(t, newEngine, tc.method, tc.path, JSON(code, map[string]any{"detail": "nope"}))
				err := tc.call(eng)
				var se *knowledge.EngineStatusError
				if !errors.As(err, &se) || se.Status != code {
					t.Fatalf("error is %v, want a *knowledge.EngineStatusError with status %d", err, code)
				}
				if want := fmt.Sprintf("engine answered %d", code); !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
				if n := len(fake.Requests()); n != 1 {
					t.Errorf("engine got %d attempts, want 1", n)
				}
			})
		}
	}
	t.Run("cancelled while waiting", func(t *testing.T) {
		t.Parallel()
		_, eng := start(t, newEngine, "POST", "/api/library/brief", Stall(stall))
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(20*time.Millisecond, cancel)
		begin := time.Now()
		_, err := eng.Brief(ctx, knowledge.BriefQuery{Task: "t", Tags: sessionOnly})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error is %v, want context.Canceled", err)
		}
		if elapsed := time.Since(begin); elapsed > postTimeout {
			t.Errorf("returned after %s, want soon after the cancel", elapsed)
		}
	})
}

func testGuidance(t *testing.T, newEngine NewEngine) {
	ctx := context.Background()
	guide := func(e retrieval.Engine) (knowledge.GuidanceReceipt, error) {
		return e.Guide(ctx, knowledge.Guidance{Text: "prefer v2", Exclude: []string{"legacy/"}, Tags: sessionOnly})
	}
	t.Run("stored", func(t *testing.T) {
		_, eng := start(t, newEngine, "POST", "/api/library/guide", JSON(200, map[string]any{"stored": true, "version": 3, "expires_at": 1767229200}))
		got, err := guide(eng)
		check(t, got, err, knowledge.GuidanceReceipt{Stored: true, Version: "3", ExpiresAt: knowledge.Moment{At: time.Unix(1767229200, 0).UTC()}})
	})
	t.Run("stored, expiry as text", func(t *testing.T) {
		_, eng := start(t, newEngine, "POST", "/api/library/guide", JSON(200, map[string]any{"stored": true, "version": "v7", "expires_at": "2026-01-01T01:00:00Z"}))
		got, err := guide(eng)
		check(t, got, err, knowledge.GuidanceReceipt{Stored: true, Version: "v7", ExpiresAt: knowledge.Moment{At: time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)}})
	})
	for _, tc := range []struct {
		name   string
		status int
		body   string
		reason string
	}{
		{"rejected with reason", 422, `{"reason": "exclude pattern matches every hit"}`, "exclude pattern matches every hit"},
		{"rejected with detail", 400, `{"detail": "text too long"}`, "text too long"},
		{"rejected with a list of details", 422, `{"detail": [{"loc": ["body", "text"], "msg": "field required"}]}`, `[{"loc":["body","text"],"msg":"field required"}]`},
		{"rejected, not JSON", 409, `conflict: another lead owns this session`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake, eng := start(t, newEngine, "POST", "/api/library/guide", Raw(tc.status, tc.body))
			got, err := guide(eng)
			check(t, got, err, knowledge.GuidanceReceipt{Status: tc.status, Reason: tc.reason, Body: []byte(tc.body)})
			if n := len(fake.Requests()); n != 1 {
				t.Errorf("engine got %d attempts, want 1", n)
			}
		})
	}
	t.Run("not stored in a 200", func(t *testing.T) {
		_, eng := start(t, newEngine, "POST", "/api/library/guide", Raw(200, `{"stored": false, "reason": "guidance is locked"}`))
		got, err := guide(eng)
		check(t, got, err, knowledge.GuidanceReceipt{Reason: "guidance is locked", Body: []byte(`{"stored": false, "reason": "guidance is locked"}`)})
	})
	t.Run("5xx is engine answered", func(t *testing.T) {
		_, eng := start(t, newEngine, "POST", "/api/library/guide", JSON(500, map[string]any{"detail": "boom"}))
		_, err := guide(eng)
		var se *knowledge.EngineStatusError
		if !errors.As(err, &se) || se.Status != 500 {
			t.Fatalf("error is %v, want a *knowledge.EngineStatusError 500", err)
		}
	})
	t.Run("dropped is not retried", func(t *testing.T) {
		fake, eng := start(t, newEngine, "POST", "/api/library/guide", Drop())
		_, err := guide(eng)
		if !errors.Is(err, knowledge.ErrEngineUnreachable) {
			t.Fatalf("error is %v, want knowledge.ErrEngineUnreachable", err)
		}
		if n := len(fake.Requests()); n != 1 {
			t.Errorf("engine got %d attempts, want 1", n)
		}
	})
	t.Run("clear dropped is not retried", func(t *testing.T) {
		fake, eng := start(t, newEngine, "DELETE", "/api/library/guide", Drop())
		_, err := eng.ClearGuide(ctx, "sess-42")
		if !errors.Is(err, knowledge.ErrEngineUnreachable) {
			t.Fatalf("error is %v, want knowledge.ErrEngineUnreachable", err)
		}
		if n := len(fake.Requests()); n != 1 {
			t.Errorf("engine got %d attempts, want 1", n)
		}
	})
	t.Run("refused is not retried", func(t *testing.T) {
		eng := newEngine(t, Harness{URL: RefusedURL(t), Waits: []time.Duration{time.Second}, GetTimeout: getTimeout,
			PostTimeout: postTimeout, GuideTimeout: guideTimeout, MaxReplyBytes: maxReplyBytes})
		begin := time.Now()
		_, err := guide(eng)
		if !errors.Is(err, knowledge.ErrEngineUnreachable) {
			t.Fatalf("error is %v, want knowledge.ErrEngineUnreachable", err)
		}
		if elapsed := time.Since(begin); elapsed >= time.Second {
			t.Errorf("gave up after %s: it waited to retry", elapsed)
		}
	})
	t.Run("has its own timeout", func(t *testing.T) {
		t.Parallel()
		fake, eng := start(t, newEngine, "POST", "/api/library/guide", Stall(stall))
		begin := time.Now()
		_, err := guide(eng)
		elapsed := time.Since(begin)
		if !errors.Is(err, knowledge.ErrEngineSlow) {
			t.Fatalf("error is %v, want knowledge.ErrEngineSlow", err)
		}
		if elapsed < guideTimeout || elapsed >= postTimeout {
			t.Errorf("gave up after %s, want the guidance timeout %s (not the POST one, %s)", elapsed, guideTimeout, postTimeout)
		}
		if n := len(fake.Requests()); n != 1 {
			t.Errorf("engine got %d attempts, want 1", n)
		}
	})
	t.Run("clear", func(t *testing.T) {
		for _, cleared := range []bool{true, false} {
			_, eng := start(t, newEngine, "DELETE", "/api/library/guide", JSON(200, map[string]any{"cleared": cleared}))
			got, err := eng.ClearGuide(ctx, "sess-42")
			check(t, got, err, cleared)
		}
	})
	t.Run("clear 4xx keeps the body", func(t *testing.T) {
		_, eng := start(t, newEngine, "DELETE", "/api/library/guide", Raw(403, `{"reason": "only the lead may clear"}`))
		_, err := eng.ClearGuide(ctx, "sess-42")
		var se *knowledge.EngineStatusError
		if !errors.As(err, &se) || se.Status != 403 || !strings.Contains(err.Error(), "only the lead may clear") {
			t.Fatalf("error is %v, want a 403 *knowledge.EngineStatusError quoting the reason", err)
		}
	})
}

// testConcurrent: one engine serves many calls at once (run with -race).
func testConcurrent(t *testing.T, newEngine NewEngine) {
	fake, eng := start(t, newEngine, "", "")
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 30)
	for i := range 10 {
		wg.Add(3)
		go func() {
			defer wg.Done()
			_, err := eng.Locate(ctx, knowledge.LocateQuery{Query: fmt.Sprint("q", i), Limit: 10, Tags: sessionOnly})
			errs <- err
		}()
		go func() {
			defer wg.Done()
			_, err := eng.Ask(ctx, knowledge.AskQuery{Query: fmt.Sprint("q", i), Tags: sessionOnly})
			errs <- err
		}()
		go func() {
			defer wg.Done()
			_, err := eng.Status(ctx)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent call: %v", err)
		}
	}
	if n := len(fake.Requests()); n != 30 {
		t.Errorf("engine got %d requests, want 30", n)
	}
}
