package retrievaltest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/retrieval"
)

// NewLibraryEngine builds a fresh engine (nothing told, no guidance, an
// empty log) that answers from the repository's bundled library/, its
// index built at some time it reports.
type NewLibraryEngine func(t *testing.T) retrieval.Engine

// RunLibrary checks what an engine that answers from a library promises
// (the local engine, and any client of an engine API serving it): Run
// checks the wire, RunLibrary the answers. Every hit and passage cites a
// doc path and a line; exact names come first; entries carry their links;
// told knowledge is found again; gaps are counted; guidance excludes hits
// for its session only and is logged; bad input is a clear error naming
// the field, never a crash.
//
// The facts it checks are the bundled library's (backend/auth.md defines
// Validate at line 47; caching links to auth; nothing mentions rate limits).
func RunLibrary(t *testing.T, newEngine NewLibraryEngine) {
	t.Run("LocateDefinitionFirst", func(t *testing.T) { testLibLocate(t, newEngine(t)) })
	t.Run("LocateEntryWithDependsOn", func(t *testing.T) { testLibEntry(t, newEngine(t)) })
	t.Run("LocateLimits", func(t *testing.T) { testLibLimits(t, newEngine(t)) })
	t.Run("AskGrounded", func(t *testing.T) { testLibAsk(t, newEngine(t)) })
	t.Run("DiscussCarriesTopic", func(t *testing.T) { testLibDiscuss(t, newEngine(t)) })
	t.Run("BriefSaysWhatIsMissing", func(t *testing.T) { testLibBrief(t, newEngine(t)) })
	t.Run("Depends", func(t *testing.T) { testLibDepends(t, newEngine(t)) })
	t.Run("TellIsFoundAgain", func(t *testing.T) { testLibTell(t, newEngine(t)) })
	t.Run("GapIsCounted", func(t *testing.T) { testLibGap(t, newEngine(t)) })
	t.Run("GuidanceExcludesAndIsLogged", func(t *testing.T) { testLibGuide(t, newEngine(t)) })
	t.Run("BadInput", func(t *testing.T) { testLibBadInput(t, newEngine(t)) })
	t.Run("Concurrent", func(t *testing.T) { testLibConcurrent(t, newEngine(t)) })
}

var libTags = knowledge.EngineTags{Session: "lib-sess", Caller: "worker-1"}

func must[T any](v T, err error) func(*testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatalf("%v", err)
		}
		return v
	}
}

func locateLib(t *testing.T, e retrieval.Engine, q string) knowledge.Locations {
	t.Helper()
	return must(e.Locate(context.Background(), knowledge.LocateQuery{Query: q, Limit: 10, Tags: libTags}))(t)
}

func testLibLocate(t *testing.T, e retrieval.Engine) {
	loc := locateLib(t, e, "Validate")
	if len(loc.Hits) == 0 {
		t.Fatalf("no hits")
	}
	h := loc.Hits[0]
	if h.Kind != "function" || h.Name != "Validate" || h.File != "backend/auth.md" || h.Line != 47 || !strings.Contains(h.Signature, "http.Request") {
		t.Errorf("first hit is %+v, want the function Validate at backend/auth.md:47 with its signature", h)
	}
	for _, h := range loc.Hits {
		if h.File == "" || h.Line <= 0 {
			t.Errorf("hit %+v does not cite a file and a line", h)
		}
	}
}

func testLibEntry(t *testing.T, e retrieval.Engine) {
	loc := locateLib(t, e, "caching")
	if len(loc.Hits) == 0 || loc.Hits[0].Kind != "entry" || loc.Hits[0].Name != "caching" || loc.Hits[0].File != "backend/storage/caching.md" {
		t.Fatalf("hits %+v, want the entry caching first", loc.Hits)
	}
	if d := loc.Hits[0].DependsOn; len(d) != 1 || d[0] != "auth" {
		t.Errorf("depends_on is %v, want [auth]", d)
	}
}

func testLibLimits(t *testing.T, e retrieval.Engine) {
	for _, limit := range []int{0, 1, 10000} {
		loc := must(e.Locate(context.Background(), knowledge.LocateQuery{Query: "token", Limit: limit, Tags: libTags}))(t)
		if len(loc.Hits) == 0 || limit == 1 && len(loc.Hits) != 1 || len(loc.Hits) > 100 {
			t.Errorf("limit %d gave %d hits", limit, len(loc.Hits))
		}
	}
}

func testLibAsk(t *testing.T, e retrieval.Engine) {
	a := must(e.Ask(context.Background(), knowledge.AskQuery{Query: "how are refresh tokens rotated?", Tags: libTags}))(t)
	// A passage names its doc (id and path) and its section, what a
	// get_documents selector takes, and quotes the line that answers.
	for _, want := range []string{"auth (backend/auth.md) § refresh-tokens/rotation", "L20: Every refresh returns a NEW refresh token"} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("answer lacks %q:\n%s", want, a.Text)
		}
	}
	if a.Provider == "" || a.Busy != nil {
		t.Errorf("provider %q, busy %v", a.Provider, a.Busy)
	}
}

func testLibDiscuss(t *testing.T, e retrieval.Engine) {
	history := []knowledge.Turn{{Role: "user", Content: "how does cache invalidation work?"}, {Role: "assistant", Content: "fan-out deletes"}}
	a := must(e.Ask(context.Background(), knowledge.AskQuery{Query: "and what is the TTL?", History: history, Tags: libTags}))(t)
	if !strings.Contains(a.Text, "backend/storage/caching.md") {
		t.Errorf("the follow-up lost the topic:\n%s", a.Text)
	}
}

func testLibBrief(t *testing.T, e retrieval.Engine) {
	b := must(e.Brief(context.Background(), knowledge.BriefQuery{Task: "add rate limiting to the login flow", Tags: libTags}))(t)
	for _, want := range []string{"auth (backend/auth.md)", "login-flow", "Read first: get_documents [", "Nothing in the library on: rate, limiting"} {
		if !strings.Contains(b.Text, want) {
			t.Errorf("brief lacks %q:\n%s", want, b.Text)
		}
	}
}

func testLibDepends(t *testing.T, e retrieval.Engine) {
	d := must(e.Depends(context.Background(), "auth"))(t)
	if len(d.Dependents) == 0 || d.Dependents[0] != "caching" || d.DependsOn == nil {
		t.Errorf("auth: %+v, want caching among its dependents and an empty depends_on", d)
	}
	d = must(e.Depends(context.Background(), "caching"))(t)
	if len(d.DependsOn) != 1 || d.DependsOn[0] != "auth" {
		t.Errorf("caching: %+v, want depends_on [auth]", d)
	}
	if _, err := e.Depends(context.Background(), "no-such-doc"); err == nil || !strings.Contains(err.Error(), "no-such-doc") {
		t.Errorf("an unknown entry: %v, want an error naming it", err)
	}
}

func testLibTell(t *testing.T, e retrieval.Engine) {
	ctx := context.Background()
	r := must(e.Tell(ctx, knowledge.Tell{Subject: "session store", Info: "sessions moved to the quillwort cluster in v2", Tags: libTags}))(t)
	if !strings.Contains(r.Stored, "tell #") {
		t.Errorf("stored %q", r.Stored)
	}
	a := must(e.Ask(ctx, knowledge.AskQuery{Query: "where is the session store kept?", Tags: libTags}))(t)
	if !strings.Contains(a.Text, "Told by agents") || !strings.Contains(a.Text, "quillwort cluster") {
		t.Errorf("ask does not quote what was told:\n%s", a.Text)
	}
	b := must(e.Brief(ctx, knowledge.BriefQuery{Task: "move the session store", Tags: libTags}))(t)
	if !strings.Contains(b.Text, "quillwort cluster") {
		t.Errorf("brief does not quote what was told:\n%s", b.Text)
	}
}

func testLibGap(t *testing.T, e retrieval.Engine) {
	ctx := context.Background()
	must(e.Gap(ctx, knowledge.Gap{Subject: "billing", Missing: "where invoices are rendered", Tags: libTags}))(t)
	st := must(e.Status(ctx))(t)
	var report struct {
		Gaps struct {
			Count int `json:"count"`
		} `json:"gaps"`
	}
	if err := json.Unmarshal(st.JSON, &report); err != nil || report.Gaps.Count != 1 {
		t.Errorf("status %s: gaps.count is not 1 (%v)", st.JSON, err)
	}
	if st.IndexBuiltAt.IsZero() {
		t.Errorf("status has no index.built_at: %s", st.JSON)
	}
}

func testLibGuide(t *testing.T, e retrieval.Engine) {
	ctx := context.Background()
	g := must(e.Guide(ctx, knowledge.Guidance{Text: "stay out of storage", Exclude: []string{"storage/"}, Expect: "backend/auth.md", Tags: libTags}))(t)
	if !g.Stored || g.Version != "1" || g.ExpiresAt.IsZero() {
		t.Fatalf("guidance receipt %+v", g)
	}
	loc := locateLib(t, e, "invalidate")
	if loc.ExcludedHits == 0 {
		t.Errorf("no hit excluded: %+v", loc)
	}
	for _, h := range loc.Hits {
		if strings.HasPrefix(h.File, "backend/storage/") {
			t.Errorf("an excluded hit was served: %+v", h)
		}
	}
	other := must(e.Locate(ctx, knowledge.LocateQuery{Query: "invalidate", Limit: 10, Tags: knowledge.EngineTags{Session: "another"}}))(t)
	if other.ExcludedHits != 0 {
		t.Errorf("another session's hits were excluded")
	}
	rej := must(e.Guide(ctx, knowledge.Guidance{Text: "hide all", Exclude: []string{"*"}, Tags: libTags}))(t)
	if rej.Stored || !strings.Contains(rej.Reason, "matches every doc") {
		t.Errorf("an exclude matching every doc: %+v", rej)
	}
	rows := must(e.Interactions(ctx, libTags.Session, 10))(t)
	var kinds []string
	for _, r := range rows {
		kinds = append(kinds, r.Kind)
	}
	if len(rows) < 2 || rows[0].Kind != "guide" || rows[1].Kind != "locate" || rows[1].Query != "invalidate" || rows[1].Caller != "worker-1" ||
		rows[1].GuidanceVersion != "1" || rows[1].ExcludedHits != loc.ExcludedHits || len(rows[1].Served) != len(loc.Hits) || rows[1].At.IsZero() {
		t.Errorf("session log %+v (kinds %v)", rows, kinds)
	}
	if !strings.Contains(strings.Join(rows[0].Served, " "), "expect: backend/auth.md") {
		t.Errorf("the guide row does not show what is expected: %+v", rows[0])
	}
	if cleared := must(e.ClearGuide(ctx, libTags.Session))(t); !cleared {
		t.Errorf("clearing guidance reported false")
	}
	if cleared := must(e.ClearGuide(ctx, libTags.Session))(t); cleared {
		t.Errorf("clearing again reported true")
	}
}

func testLibBadInput(t *testing.T, e retrieval.Engine) {
	ctx := context.Background()
	huge := strings.Repeat("quillwort ", 10<<10)
	for _, tc := range []struct {
		name, says string
		call       func() error
	}{
		{"empty locate", "'q' is empty", func() error {
			_, err := e.Locate(ctx, knowledge.LocateQuery{Query: " ", Limit: 10, Tags: libTags})
			return err
		}},
		{"100 KB locate", "'q' is 102400 bytes", func() error {
			_, err := e.Locate(ctx, knowledge.LocateQuery{Query: huge, Limit: 10, Tags: libTags})
			return err
		}},
		{"empty ask", "'query' is empty", func() error { _, err := e.Ask(ctx, knowledge.AskQuery{Query: "", Tags: libTags}); return err }},
		{"100 KB ask", "'query' is 102400 bytes", func() error { _, err := e.Ask(ctx, knowledge.AskQuery{Query: huge, Tags: libTags}); return err }},
		{"empty brief", "'task' is empty", func() error { _, err := e.Brief(ctx, knowledge.BriefQuery{Task: "", Tags: libTags}); return err }},
		{"empty tell", "'info' is empty", func() error { _, err := e.Tell(ctx, knowledge.Tell{Subject: "s", Info: "", Tags: libTags}); return err }},
		{"empty gap", "'missing' is empty", func() error {
			_, err := e.Gap(ctx, knowledge.Gap{Subject: "s", Missing: " ", Tags: libTags})
			return err
		}},
		{"log limit", "'limit' is 10000", func() error { _, err := e.Interactions(ctx, libTags.Session, 10000); return err }},
	} {
		err := tc.call()
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.says)
		}
	}
	rej := must(e.Guide(ctx, knowledge.Guidance{Text: " ", Tags: libTags}))(t)
	if rej.Stored || !strings.Contains(rej.Reason, "empty") {
		t.Errorf("empty guidance: %+v", rej)
	}
}

func testLibConcurrent(t *testing.T, e retrieval.Engine) {
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 10 {
		wg.Add(4)
		go func() {
			defer wg.Done()
			_, err := e.Locate(ctx, knowledge.LocateQuery{Query: "Validate", Limit: 10, Tags: libTags})
			errs <- err
		}()
		go func() {
			defer wg.Done()
			_, err := e.Ask(ctx, knowledge.AskQuery{Query: "cache ttl", Tags: libTags})
			errs <- err
		}()
		go func() {
			defer wg.Done()
			_, err := e.Tell(ctx, knowledge.Tell{Subject: fmt.Sprint("s", i), Info: "i", Tags: libTags})
			errs <- err
		}()
		go func() {
			defer wg.Done()
			_, err := e.Status(ctx)
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
}
