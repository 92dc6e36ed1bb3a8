package httpretrieval_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/httpretrieval"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/retrieval"
	"github.com/librarian/librarian/ports/retrieval/retrievaltest"
)

func newEngine(t *testing.T, h retrievaltest.Harness) retrieval.Engine {
	t.Helper()
	e, err := httpretrieval.New(httpretrieval.Options{
		URL: h.URL, Waits: h.Waits,
		GetTimeout: h.GetTimeout, PostTimeout: h.PostTimeout, GuideTimeout: h.GuideTimeout,
		MaxReplyBytes: h.MaxReplyBytes,
	})
	if err != nil {
		t.Fatalf("httpretrieval.New: %v", err)
	}
	return e
}

func TestContract(t *testing.T) {
	retrievaltest.Run(t, newEngine)
}

func TestNewRejectsBadURLs(t *testing.T) {
	for _, u := range []string{"127.0.0.1:8000", "ftp://host/", "http://", "http://host/?x=1", "://bad", "/api"} {
		_, err := httpretrieval.New(httpretrieval.Options{URL: u})
		if !errors.Is(err, domain.ErrInvalidArgument) || !strings.Contains(err.Error(), "LIBRARIAN_URL") {
			t.Errorf("New(%q) error = %v, want ErrInvalidArgument naming LIBRARIAN_URL", u, err)
		}
	}
}

func TestNewDefaultsAndBase(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "http://127.0.0.1:8000"},
		{"  ", "http://127.0.0.1:8000"},
		{"http://engine.local:9000/", "http://engine.local:9000"},
		{"https://fleet.example/engine/", "https://fleet.example/engine"},
	} {
		e, err := httpretrieval.New(httpretrieval.Options{URL: tc.in})
		if err != nil {
			t.Fatalf("New(%q): %v", tc.in, err)
		}
		if got := e.URL(); got != tc.want {
			t.Errorf("New(%q).URL() = %q, want %q", tc.in, got, tc.want)
		}
	}
	want := []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second}
	if len(httpretrieval.DefaultWaits) != 3 || httpretrieval.DefaultWaits[0] != want[0] || httpretrieval.DefaultWaits[1] != want[1] || httpretrieval.DefaultWaits[2] != want[2] {
		t.Errorf("DefaultWaits = %v, want %v", httpretrieval.DefaultWaits, want)
	}
	if httpretrieval.DefaultGetTimeout != 30*time.Second || httpretrieval.DefaultPostTimeout != 180*time.Second || httpretrieval.DefaultGuideTimeout != 30*time.Second {
		t.Errorf("timeouts = %s/%s/%s, want 30s/180s/30s", httpretrieval.DefaultGetTimeout, httpretrieval.DefaultPostTimeout, httpretrieval.DefaultGuideTimeout)
	}
}

// A base URL with a path keeps it: paths go under LIBRARIAN_URL.
func TestPathPrefix(t *testing.T) {
	fake := retrievaltest.NewFakeEngine(t)
	var got string
	e, err := httpretrieval.New(httpretrieval.Options{URL: fake.URL() + "/engine/", Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = r.URL.Path
		r2 := r.Clone(r.Context())
		r2.URL.Path = strings.TrimPrefix(r.URL.Path, "/engine")
		return http.DefaultTransport.RoundTrip(r2)
	})})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Status(context.Background()); err != nil {
		t.Fatalf("Status: %v", err)
	}
	if got != "/engine/api/library/status" {
		t.Errorf("request path = %q, want /engine/api/library/status", got)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A refused connection is attempted four times (waits are counted by the
// transport, which the contract suite cannot see), logged on stderr's
// logger, and the message says how often and why.
func TestRefusedAttemptsAndMessage(t *testing.T) {
	u := retrievaltest.RefusedURL(t)
	var attempts atomic.Int32
	var logs bytes.Buffer
	e, err := httpretrieval.New(httpretrieval.Options{
		URL:    u,
		Waits:  []time.Duration{time.Millisecond, time.Millisecond, time.Millisecond},
		Logger: slog.New(slog.NewTextHandler(&logs, nil)),
		Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			attempts.Add(1)
			return http.DefaultTransport.RoundTrip(r)
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Ask(context.Background(), knowledge.AskQuery{Query: "q", Tags: knowledge.EngineTags{Session: "s"}})
	want := "engine unreachable at " + u + ": POST /api/library/ask failed 4 times (connection refused)"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error = %v, want it to start %q", err, want)
	}
	if n := attempts.Load(); n != 4 {
		t.Errorf("attempts = %d, want 4", n)
	}
	if n := strings.Count(logs.String(), "retrying"); n != 3 {
		t.Errorf("logged %d retries, want 3:\n%s", n, logs.String())
	}
}

// Waits of zero length disable retrying.
func TestNoWaitsNoRetry(t *testing.T) {
	fake := retrievaltest.NewFakeEngine(t)
	fake.Script("GET", "/api/library/status", retrievaltest.Drop())
	e, err := httpretrieval.New(httpretrieval.Options{URL: fake.URL(), Waits: []time.Duration{}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Status(context.Background())
	if !errors.Is(err, knowledge.ErrEngineUnreachable) || !strings.Contains(err.Error(), "failed once") {
		t.Errorf("error = %v, want unreachable after one attempt", err)
	}
	if n := len(fake.Requests()); n != 1 {
		t.Errorf("attempts = %d, want 1", n)
	}
}

func TestMessages(t *testing.T) {
	ctx := context.Background()
	fake := retrievaltest.NewFakeEngine(t)
	e, err := httpretrieval.New(httpretrieval.Options{URL: fake.URL(), GetTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		reply retrievaltest.Reply
		want  string
	}{
		{retrievaltest.JSON(503, map[string]any{"detail": "warming up"}), `engine answered 503 to GET /api/library/status: {"detail":"warming up"}`},
		{retrievaltest.Stall(5 * time.Second), "engine too slow: the engine at " + fake.URL() + " gave no answer to GET /api/library/status within 100ms (not retried; try again later)"},
		{retrievaltest.Raw(200, "nope"), "unexpected engine reply: the reply to GET /api/library/status is not valid JSON"},
		{retrievaltest.JSON(200, map[string]any{"error": "index locked"}), "engine error (GET /api/library/status): index locked"},
	} {
		fake.Script("GET", "/api/library/status", tc.reply)
		_, err := e.Status(ctx)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("error = %v\nwant it to start %q", err, tc.want)
		}
	}
}
