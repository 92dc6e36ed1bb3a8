package engineapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/engineapi"
	"github.com/librarian/librarian/ports/retrieval/retrievaltest"
)

func decodeObject(body []byte) (map[string]any, bool) {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

// do sends one request to h and returns the status and the body.
func do(t *testing.T, h http.Handler, method, target, body string) (int, string, http.Header) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s %s: Content-Type %q, want JSON", method, target, ct)
	}
	return w.Code, w.Body.String(), w.Header()
}

func TestReplies(t *testing.T) {
	h := engineapi.New(localEngine(t), engineapi.Options{})
	for _, tc := range []struct {
		name, method, target, body string
		status                     int
		says                       []string
	}{
		{"locate", "GET", "/api/library/locate?q=Validate&limit=2&surface=mcp&session=s", "", 200,
			[]string{`"source":"index"`, `"kind":"function","line":47,"name":"Validate","signature":"(r *http.Request) (Claims, error)","stale":false`, `"excluded_hits":0`}},
		{"locate entry", "GET", "/api/library/locate?q=caching&session=s", "", 200, []string{`"depends_on":["auth"]`, `"kind":"entry"`}},
		{"locate without q", "GET", "/api/library/locate?limit=3", "", 422, []string{`"detail":"query parameter 'q' is missing"`}},
		{"locate bad limit", "GET", "/api/library/locate?q=x&limit=ten", "", 422, []string{`query parameter 'limit' is \"ten\": give a whole number`}},
		{"locate empty q", "GET", "/api/library/locate?q=&session=s", "", 422, []string{`'q' is empty`}},
		{"ask", "POST", "/api/library/ask", `{"query": "how are refresh tokens rotated?", "surface": "mcp", "session": "s"}`, 200, []string{`"answer":"From the library`, `"provider":"librarian-local"`}},
		{"ask history", "POST", "/api/library/ask", `{"query": "and the TTL?", "session": "s", "history": [{"role": "user", "content": "cache invalidation"}]}`, 200, []string{`caching (backend/storage/caching.md)`}},
		{"ask bad history", "POST", "/api/library/ask", `{"query": "q", "session": "s", "history": [{"role": "user"}]}`, 422, []string{`'history[0]' needs both 'role' and 'content'`}},
		{"ask not JSON", "POST", "/api/library/ask", `{"query": `, 422, []string{`not valid JSON`}},
		{"ask wrong type", "POST", "/api/library/ask", `{"query": 42, "session": "s"}`, 422, []string{`body field 'query' must be a string, not number`}},
		{"ask a list", "POST", "/api/library/ask", `[1]`, 422, []string{`the body must be a JSON object, not array`}},
		{"ask missing query", "POST", "/api/library/ask", `{"session": "s"}`, 422, []string{`body field 'query' is missing`}},
		{"brief", "POST", "/api/library/brief", `{"task": "add rate limiting to login", "surface": "mcp", "session": "s", "project": "p", "caller": "w"}`, 200, []string{`"brief":"Brief for`}},
		{"depends", "GET", "/api/library/depends?eid=caching", "", 200, []string{`{"dependents":[],"depends_on":["auth"]}`}},
		{"depends unknown", "GET", "/api/library/depends?eid=nope", "", 404, []string{`no entry 'nope' in the library`}},
		{"status", "GET", "/api/library/status", "", 200, []string{`"built_at":1767225600`, `"engine":"librarian-local"`}},
		{"tell", "POST", "/api/library/tell", `{"subject": "s", "info": "i", "source": "mcp", "session": "s"}`, 200, []string{`"stored":"tell #1 `}},
		{"gap", "POST", "/api/library/gap", `{"subject": "s", "missing": "m", "source": "mcp", "session": "s"}`, 200, []string{`"stored":"gap #2 `}},
		{"tell empty", "POST", "/api/library/tell", `{"subject": "s", "info": "", "source": "mcp", "session": "s"}`, 422, []string{`'info' is empty`}},
		{"guide", "POST", "/api/library/guide", `{"session": "g", "text": "prefer v2", "exclude": ["legacy/"], "expect": "auth"}`, 200, []string{`"stored":true`, `"version":1`, `"expires_at":`}},
		{"guide rejected", "POST", "/api/library/guide", `{"session": "g", "text": "x", "exclude": ["**"], "expect": ""}`, 422, []string{`"stored":false`, `"reason":"exclude [\"**\"] matches every doc`}},
		{"guide clear", "DELETE", "/api/library/guide?session=g", "", 200, []string{`{"cleared":true}`}},
		{"guide clear again", "DELETE", "/api/library/guide?session=g", "", 200, []string{`{"cleared":false}`}},
		{"interactions", "GET", "/api/library/interactions?session=g&limit=5", "", 200, []string{`"kind":"guide"`, `"guidance_version":1`, `"served":["exclude: legacy/","expect: auth"]`, `"t":`}},
		{"interactions limit", "GET", "/api/library/interactions?session=g&limit=0", "", 422, []string{`'limit' is 0: give 1 to 1000`}},
		{"unknown endpoint", "GET", "/api/library/nothing", "", 404, []string{`no such endpoint: GET /api/library/nothing`}},
		{"outside the prefix", "GET", "/elsewhere", "", 404, []string{`the engine API is under /api/library/`}},
		{"wrong method", "PUT", "/api/library/guide", "", 405, []string{`PUT /api/library/guide: use POST or DELETE`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body, hdr := do(t, h, tc.method, tc.target, tc.body)
			if status != tc.status {
				t.Errorf("status %d, want %d: %s", status, tc.status, body)
			}
			for _, s := range tc.says {
				if !strings.Contains(body, s) {
					t.Errorf("reply lacks %s:\n%s", s, body)
				}
			}
			if tc.status == 405 && hdr.Get("Allow") != "POST, DELETE" {
				t.Errorf("Allow is %q", hdr.Get("Allow"))
			}
		})
	}
	big := `{"query": "` + strings.Repeat("x", engineapi.MaxBodyBytes) + `", "session": "s"}`
	if status, body, _ := do(t, h, "POST", "/api/library/ask", big); status != 413 {
		t.Errorf("a body over the limit: %d %s", status, body)
	}
}

// TestFrontsARemoteEngine: the API can serve any engine, a remote one
// included, and keeps its busy and error answers' shapes.
func TestFrontsARemoteEngine(t *testing.T) {
	fake := retrievaltest.NewFakeEngine(t)
	fake.Script("POST", "/api/library/brief", retrievaltest.JSON(200, map[string]any{"busy": true, "position": 2, "eta_s": 30}))
	fake.Script("POST", "/api/library/ask", retrievaltest.JSON(200, map[string]any{"error": "model offline"}))
	fake.Script("GET", "/api/library/status", retrievaltest.JSON(503, map[string]any{"detail": "down"}))
	h := engineapi.New(client(t, fake.URL()), engineapi.Options{})
	if status, body, _ := do(t, h, "POST", "/api/library/brief", `{"task": "t", "session": "s"}`); status != 200 || body != `{"busy":true,"eta_s":30,"position":2}`+"\n" {
		t.Errorf("busy: %d %s", status, body)
	}
	if status, body, _ := do(t, h, "POST", "/api/library/ask", `{"query": "q", "session": "s"}`); status != 200 || !strings.Contains(body, `"error":"model offline"`) {
		t.Errorf("engine error: %d %s", status, body)
	}
	if status, body, _ := do(t, h, "GET", "/api/library/status", ""); status != 502 || !strings.Contains(body, "engine answered 503") {
		t.Errorf("upstream status: %d %s", status, body)
	}
	refused, err := clientOrErr(retrievaltest.RefusedURL(t))
	if err != nil {
		t.Fatal(err)
	}
	h = engineapi.New(refused, engineapi.Options{})
	if status, body, _ := do(t, h, "GET", "/api/library/depends?eid=x", ""); status != 502 || !strings.Contains(body, "unreachable") {
		t.Errorf("unreachable upstream: %d %s", status, body)
	}
}
