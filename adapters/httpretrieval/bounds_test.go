package httpretrieval_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/httpretrieval"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/retrieval/retrievaltest"
)

// redirect answers code with a Location header.
func redirect(code int, location string) retrievaltest.Reply {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", location)
		w.WriteHeader(code)
	}
}

// A redirect to another origin is never followed: the other host sees no
// request (no session id, no query), and the call reports the redirect.
func TestRedirectToAnotherOriginIsNotFollowed(t *testing.T) {
	ctx := context.Background()
	for _, code := range []int{301, 302, 303, 307, 308} {
		for _, tc := range []struct {
			method, path string
			call         func(*httpretrieval.Engine) error
		}{
			{"GET", "/api/library/locate", func(e *httpretrieval.Engine) error {
				_, err := e.Locate(ctx, knowledge.LocateQuery{Query: "auth", Tags: knowledge.EngineTags{Session: "secret-session"}})
				return err
			}},
			{"POST", "/api/library/ask", func(e *httpretrieval.Engine) error {
				_, err := e.Ask(ctx, knowledge.AskQuery{Query: "q", Tags: knowledge.EngineTags{Session: "secret-session"}})
				return err
			}},
		} {
			t.Run(fmt.Sprintf("%d %s", code, tc.method), func(t *testing.T) {
				engine, elsewhere := retrievaltest.NewFakeEngine(t), retrievaltest.NewFakeEngine(t)
				target := elsewhere.URL() + tc.path
				engine.Script(tc.method, tc.path, redirect(code, target))
				e, err := httpretrieval.New(httpretrieval.Options{URL: engine.URL()})
				if err != nil {
					t.Fatal(err)
				}
				err = tc.call(e)
				want := fmt.Sprintf("engine answered %d (redirect to %s), not followed: %s %s", code, target, tc.method, tc.path)
				if err == nil || !strings.HasPrefix(err.Error(), want) {
					t.Errorf("error = %v\nwant it to start %q", err, want)
				}
				var se *knowledge.EngineStatusError
				if !errors.As(err, &se) || se.Status != code {
					t.Errorf("error %v is not a *knowledge.EngineStatusError with status %d", err, code)
				}
				if n := len(elsewhere.Requests()); n != 0 {
					t.Errorf("the other origin got %d requests, want none: %+v", n, elsewhere.Requests())
				}
				if n := len(engine.Requests()); n != 1 {
					t.Errorf("the engine got %d requests, want 1 (a redirect is not retried)", n)
				}
			})
		}
	}
	t.Run("another port of the same host", func(t *testing.T) {
		engine, elsewhere := retrievaltest.NewFakeEngine(t), retrievaltest.NewFakeEngine(t)
		engine.Script("GET", "/api/library/status", redirect(308, elsewhere.URL()+"/api/library/status"))
		e, _ := httpretrieval.New(httpretrieval.Options{URL: engine.URL()})
		if _, err := e.Status(ctx); err == nil || !strings.Contains(err.Error(), "not followed") {
			t.Errorf("error = %v, want the redirect reported", err)
		}
		if n := len(elsewhere.Requests()); n != 0 {
			t.Errorf("the other port got %d requests", n)
		}
	})
}

// Within the engine's origin a redirect is followed when it keeps the
// method (any code for a GET, 307 and 308 for a POST, body replayed); a
// 301, 302 or 303 of a POST would become a GET, so it is reported instead;
// a loop is reported after a few hops.
func TestRedirectWithinTheOrigin(t *testing.T) {
	ctx := context.Background()
	var got []string
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/library/status", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/v2/status", http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET /v2/status", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"ok": true}`)
	})
	for _, code := range []int{301, 307} {
		mux.HandleFunc(fmt.Sprintf("POST /api/library/ask/%d", code), func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/v2/ask", code)
		})
	}
	mux.HandleFunc("/v2/ask", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got = append(got, r.Method+" "+string(body))
		json.NewEncoder(w).Encode(map[string]any{"answer": "moved"})
	})
	mux.HandleFunc("GET /api/library/depends", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.String(), http.StatusFound) // to itself, forever
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	e, err := httpretrieval.New(httpretrieval.Options{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := e.Status(ctx); err != nil || string(st.JSON) != `{"ok": true}` {
		t.Errorf("Status through a same-origin 301 = %s, %v; want it followed", st.JSON, err)
	}

	// The POST paths differ per code through a base URL with a path suffix.
	for _, code := range []int{307, 301} {
		pe, err := httpretrieval.New(httpretrieval.Options{URL: srv.URL, Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			if r.URL.Path == "/api/library/ask" {
				r = r.Clone(r.Context())
				r.URL.Path += fmt.Sprintf("/%d", code)
			}
			return http.DefaultTransport.RoundTrip(r)
		})})
		if err != nil {
			t.Fatal(err)
		}
		got = nil
		a, err := pe.Ask(ctx, knowledge.AskQuery{Query: "q", Tags: knowledge.EngineTags{Session: "s"}})
		switch code {
		case 307:
			if err != nil || a.Text != "moved" || len(got) != 1 || !strings.HasPrefix(got[0], `POST {"query":"q"`) {
				t.Errorf("POST through a same-origin 307 = %+v, %v, target saw %q; want it followed with its body", a, err, got)
			}
		case 301:
			if err == nil || !strings.HasPrefix(err.Error(), "engine answered 301 (redirect to /v2/ask), not followed") || len(got) != 0 {
				t.Errorf("POST through a same-origin 301 = %v, target saw %q; want it reported, not turned into a GET", err, got)
			}
		}
	}

	if _, err := e.Depends(ctx, "x"); err == nil || !strings.HasPrefix(err.Error(), "engine answered 302 (redirect to /api/library/depends?eid=x), not followed") {
		t.Errorf("a redirect loop gave %v, want it reported", err)
	}
}

// trickleThenDrop sends the headers of a long reply, then a byte every
// step for a while, then drops the connection.
func trickleThenDrop(step time.Duration, bytes int) retrievaltest.Reply {
	return func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
		buf.Flush()
		for range bytes {
			time.Sleep(step)
			if _, err := conn.Write([]byte(" ")); err != nil {
				return
			}
		}
	}
}

// One deadline per call: an engine that trickles and then drops, retried,
// does not get the deadline again per attempt (before: 4 attempts of
// 0.8 s plus the waits, 3.5 s), and retry waits that do not fit in what is
// left of the deadline are not waited.
func TestOneDeadlinePerCall(t *testing.T) {
	ctx := context.Background()
	const deadline = time.Second
	waits := []time.Duration{100 * time.Millisecond, 100 * time.Millisecond, 100 * time.Millisecond}
	for _, tc := range []struct {
		method, path string
		call         func(*httpretrieval.Engine) error
	}{
		{"GET", "/api/library/status", func(e *httpretrieval.Engine) error { _, err := e.Status(ctx); return err }},
		{"POST", "/api/library/brief", func(e *httpretrieval.Engine) error {
			_, err := e.Brief(ctx, knowledge.BriefQuery{Task: "t", Tags: knowledge.EngineTags{Session: "s"}})
			return err
		}},
	} {
		t.Run("trickle then drop "+tc.method, func(t *testing.T) {
			t.Parallel()
			fake := retrievaltest.NewFakeEngine(t)
			fake.Script(tc.method, tc.path, trickleThenDrop(100*time.Millisecond, 8))
			e, err := httpretrieval.New(httpretrieval.Options{URL: fake.URL(), Waits: waits, GetTimeout: deadline, PostTimeout: deadline})
			if err != nil {
				t.Fatal(err)
			}
			begin := time.Now()
			err = tc.call(e)
			elapsed := time.Since(begin)
			if !errors.Is(err, knowledge.ErrEngineSlow) && !errors.Is(err, knowledge.ErrEngineUnreachable) {
				t.Errorf("error = %v, want a slow or unreachable engine", err)
			}
			if elapsed > deadline+deadline*7/10 {
				t.Errorf("the call took %s, want about its %s deadline (%d attempts)", elapsed, deadline, len(fake.Requests()))
			}
		})
	}
	t.Run("waits beyond the deadline are not waited", func(t *testing.T) {
		t.Parallel()
		u := retrievaltest.RefusedURL(t)
		e, err := httpretrieval.New(httpretrieval.Options{URL: u, GetTimeout: 500 * time.Millisecond,
			Waits: []time.Duration{300 * time.Millisecond, 300 * time.Millisecond, 300 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		begin := time.Now()
		_, err = e.Status(ctx)
		elapsed := time.Since(begin)
		want := "engine unreachable at " + u + ": GET /api/library/status failed 2 times (connection refused); no time was left for another attempt within the call's 500ms deadline"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error = %v\nwant it to start %q", err, want)
		}
		if elapsed > 500*time.Millisecond {
			t.Errorf("the call took %s, want under its 500ms deadline", elapsed)
		}
	})
}

// Remote text is quoted as a short prefix: a 5 MB `error`, rejection reason
// or reply body never becomes a 5 MB message.
func TestRemoteTextIsQuotedShort(t *testing.T) {
	ctx := context.Background()
	huge := strings.Repeat("index locked ", 400_000) // 5.2 MB
	fake := retrievaltest.NewFakeEngine(t)
	e, err := httpretrieval.New(httpretrieval.Options{URL: fake.URL()})
	if err != nil {
		t.Fatal(err)
	}

	fake.Script("GET", "/api/library/status", retrievaltest.JSON(200, map[string]any{"error": huge}))
	_, err = e.Status(ctx)
	want := fmt.Sprintf("… (%d bytes in all)", len(huge))
	if err == nil || len(err.Error()) > 1000 || !strings.HasPrefix(err.Error(), "engine error (GET /api/library/status): index locked index locked") || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("a 5 MB engine error became %d bytes: %.200s…", len(err.Error()), err)
	}
	fake.Script("GET", "/api/library/status", retrievaltest.JSON(200, map[string]any{"error": map[string]any{"detail": huge}}))
	if _, err = e.Status(ctx); err == nil || len(err.Error()) > 1000 {
		t.Errorf("a 5 MB engine error object became %d bytes", len(err.Error()))
	}

	for _, reply := range []retrievaltest.Reply{
		retrievaltest.JSON(422, map[string]any{"reason": huge}),
		retrievaltest.JSON(200, map[string]any{"stored": false, "reason": huge}),
	} {
		fake.Script("POST", "/api/library/guide", reply)
		rec, err := e.Guide(ctx, knowledge.Guidance{Text: "x", Tags: knowledge.EngineTags{Session: "s"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Reason) > 2100 || !strings.HasSuffix(rec.Reason, want) || len(rec.Body) > 4096 {
			t.Errorf("a 5 MB rejection kept a %d-byte reason and a %d-byte body", len(rec.Reason), len(rec.Body))
		}
	}
}
