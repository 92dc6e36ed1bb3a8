package engineapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/librarian/librarian/adapters/engineapi"
)

// Two tokens, as a team's LIBRARIAN_TOKEN_FILE names them.
var teamTokens = map[string]string{"alice-secret-0123": "alice", "bob-secret-4567": "bob"}

// withTokens puts h behind the go-sdk's bearer-token middleware, as the
// HTTP listener mounts the engine API: the token's name becomes the
// request's TokenInfo.UserID.
func withTokens(h http.Handler) http.Handler {
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		name, ok := teamTokens[token]
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: name}, nil
	}
	return auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
}

// team serves the local engine over the bundled library behind two tokens.
type team struct {
	t   *testing.T
	url string
}

func newTeam(t *testing.T) *team {
	t.Helper()
	srv := httptest.NewServer(withTokens(engineapi.New(localEngine(t), engineapi.Options{})))
	t.Cleanup(srv.Close)
	return &team{t: t, url: srv.URL}
}

// as sends one request with the token of name and returns status and body.
func (tm *team) as(name, method, target, body string) (int, string) {
	tm.t.Helper()
	var token string
	for tok, n := range teamTokens {
		if n == name {
			token = tok
		}
	}
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, tm.url+target, r)
	if err != nil {
		tm.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tm.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// TestSessionsBelongToTheirToken: a session id is scoped to the token that
// first used it. Another token gets 404 and cannot read its interactions,
// clear its guide, set guidance or excludes on it, or log into it.
func TestSessionsBelongToTheirToken(t *testing.T) {
	tm := newTeam(t)
	if status, body := tm.as("alice", "POST", "/api/library/guide", `{"session": "alice-s", "text": "stay out of storage", "exclude": ["storage/"], "expect": "auth"}`); status != 200 {
		t.Fatalf("alice guides her session: %d %s", status, body)
	}
	if status, body := tm.as("alice", "GET", "/api/library/locate?q=invalidate&session=alice-s", ""); status != 200 || !strings.Contains(body, `"excluded_hits":`) {
		t.Fatalf("alice locates: %d %s", status, body)
	}
	for _, tc := range []struct{ name, method, target, body string }{
		{"read her interactions", "GET", "/api/library/interactions?session=alice-s&limit=50", ""},
		{"clear her guide", "DELETE", "/api/library/guide?session=alice-s", ""},
		{"replace her guidance and excludes", "POST", "/api/library/guide", `{"session": "alice-s", "text": "hide auth", "exclude": ["auth"]}`},
		{"locate in her session", "GET", "/api/library/locate?q=invalidate&session=alice-s", ""},
		{"ask in her session", "POST", "/api/library/ask", `{"query": "how is the cache invalidated?", "session": "alice-s"}`},
		{"brief in her session", "POST", "/api/library/brief", `{"task": "change caching", "session": "alice-s"}`},
		{"tell in her session", "POST", "/api/library/tell", `{"subject": "s", "info": "i", "session": "alice-s"}`},
		{"report a gap in her session", "POST", "/api/library/gap", `{"subject": "s", "missing": "m", "session": "alice-s"}`},
	} {
		status, body := tm.as("bob", tc.method, tc.target, tc.body)
		if status != http.StatusNotFound {
			t.Errorf("bob tries to %s: %d %s, want 404", tc.name, status, body)
		}
		if strings.Contains(body, "stay out of storage") || strings.Contains(body, "invalidate") {
			t.Errorf("bob tries to %s, and reads alice's session: %s", tc.name, body)
		}
	}
	status, body := tm.as("alice", "GET", "/api/library/interactions?session=alice-s&limit=50", "")
	if status != 200 {
		t.Fatalf("alice reads her log: %d %s", status, body)
	}
	var log struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal([]byte(body), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Rows) != 2 || log.Rows[0]["kind"] != "guide" || log.Rows[1]["kind"] != "locate" {
		t.Errorf("alice's log holds %d rows, want her guide and her locate only:\n%s", len(log.Rows), body)
	}
	// Her guidance is still in force: bob did not clear or replace it.
	if status, body := tm.as("alice", "GET", "/api/library/locate?q=invalidate&session=alice-s", ""); status != 200 || strings.Contains(body, `"excluded_hits":0`) {
		t.Errorf("alice's guidance no longer applies: %d %s", status, body)
	}
	if status, body := tm.as("alice", "DELETE", "/api/library/guide?session=alice-s", ""); status != 200 || !strings.Contains(body, `"cleared":true`) {
		t.Errorf("alice clears her own guide: %d %s", status, body)
	}
	// Bob's own sessions work as ever.
	if status, body := tm.as("bob", "POST", "/api/library/guide", `{"session": "bob-s", "text": "mine"}`); status != 200 {
		t.Errorf("bob guides his own session: %d %s", status, body)
	}
}

// TestTellsAreOwnedNotClaimed: a tell records the token that made it; the
// `caller` it claims is a label. Shared knowledge stays shared: alice's ask
// quotes bob's tell, as told by bob.
func TestTellsAreOwnedNotClaimed(t *testing.T) {
	tm := newTeam(t)
	if status, body := tm.as("bob", "POST", "/api/library/tell", `{"subject": "session store", "info": "sessions moved to the quillwort cluster in v2", "source": "mcp", "session": "bob-s", "caller": "alice"}`); status != 200 {
		t.Fatalf("bob tells: %d %s", status, body)
	}
	status, body := tm.as("alice", "POST", "/api/library/ask", `{"query": "where is the session store?", "session": "alice-s"}`)
	if status != 200 || !strings.Contains(body, "quillwort") {
		t.Fatalf("alice's ask does not quote the shared tell: %d %s", status, body)
	}
	if !strings.Contains(body, `told by bob, caller label \"alice\"`) {
		t.Errorf("the tell is not quoted as told by bob, labelled alice:\n%s", body)
	}
	if strings.Contains(body, "told by alice") {
		t.Errorf("the tell is quoted as told by alice:\n%s", body)
	}
}
