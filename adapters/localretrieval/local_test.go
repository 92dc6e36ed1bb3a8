package localretrieval_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/adapters/localretrieval"
	"github.com/librarian/librarian/adapters/memjournal"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/domain/passage"
	"github.com/librarian/librarian/ports/journal"
	"github.com/librarian/librarian/ports/retrieval"
	"github.com/librarian/librarian/ports/retrieval/retrievaltest"
	"github.com/librarian/librarian/ports/sectionindex"
)

var (
	ctx  = context.Background()
	tags = knowledge.EngineTags{Session: "sess-1", Caller: "worker-2"}
)

func bundled(t testing.TB) string { return filepath.Join(repoRoot(), "library") }

func TestLocateBundled(t *testing.T) {
	eng := newLocal(t, bundled(t))
	loc, err := eng.Locate(ctx, knowledge.LocateQuery{Query: "Validate", Limit: 10, Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if len(loc.Hits) == 0 || loc.Source != "index" {
		t.Fatalf("no hits: %+v", loc)
	}
	first := loc.Hits[0]
	if first.Kind != "function" || first.Name != "Validate" || first.File != "backend/auth.md" || first.Line != 47 || first.Signature != "(r *http.Request) (Claims, error)" || first.Stale {
		t.Errorf("first hit is %+v, want the function Validate at backend/auth.md:47", first)
	}
	for _, tc := range []struct{ query, kind, name, file string }{
		{"caching", "entry", "caching", "backend/storage/caching.md"},
		{"Rotation", "heading", "Rotation", "backend/auth.md"},
		{"auth.refresh.reuse", "config", "auth.refresh.reuse", "backend/auth.md"},
		{"invalidate", "function", "invalidate", "backend/storage/caching.md"},
		{"fan-out deletes", "heading", "Fan-out deletes", "backend/storage/caching.md"},
	} {
		loc, err := eng.Locate(ctx, knowledge.LocateQuery{Query: tc.query, Limit: 10, Tags: tags})
		if err != nil {
			t.Fatal(err)
		}
		if len(loc.Hits) == 0 || loc.Hits[0].Kind != tc.kind || loc.Hits[0].Name != tc.name || loc.Hits[0].File != tc.file {
			t.Errorf("locate %q: first hit %+v, want [%s] %s in %s (all: %+v)", tc.query, first0(loc), tc.kind, tc.name, tc.file, loc.Hits)
		}
	}
	loc, _ = eng.Locate(ctx, knowledge.LocateQuery{Query: "caching", Limit: 10, Tags: tags})
	if got := loc.Hits[0].DependsOn; len(got) != 1 || got[0] != "auth" {
		t.Errorf("caching's depends_on is %v, want [auth] (its link to ../auth.md)", got)
	}
}

func first0(l knowledge.Locations) knowledge.Hit {
	if len(l.Hits) == 0 {
		return knowledge.Hit{}
	}
	return l.Hits[0]
}

func TestLocateExactBeatsPartial(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.md", "# A\n\n```go\nfunc ValidateAll() {}\n```\n")
	write(t, root, "b.md", "# B\n\n```go\nfunc Validate() {}\n```\n")
	eng := newLocal(t, root)
	loc, err := eng.Locate(ctx, knowledge.LocateQuery{Query: "validate", Limit: 10, Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if len(loc.Hits) < 2 || loc.Hits[0].Name != "Validate" || loc.Hits[1].Name != "ValidateAll" {
		t.Errorf("hits %+v, want Validate (exact) before ValidateAll (partial)", loc.Hits)
	}
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLocateStale(t *testing.T) {
	root := copyDir(t, bundled(t))
	eng := newLocal(t, root)
	if err := os.WriteFile(filepath.Join(root, "backend", "auth.md"), []byte("# Authentication\n\nrewritten\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	loc, err := eng.Locate(ctx, knowledge.LocateQuery{Query: "Validate", Limit: 10, Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if len(loc.Hits) == 0 || !loc.Hits[0].Stale {
		t.Errorf("hit in a file changed since it was indexed is not stale: %+v", loc.Hits)
	}
	st, err := eng.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var report map[string]any
	json.Unmarshal(st.JSON, &report)
	if report["files_changed_since"] != 1.0 {
		t.Errorf("files_changed_since is %v, want 1: %s", report["files_changed_since"], st.JSON)
	}
}

func TestAskBundled(t *testing.T) {
	eng := newLocal(t, bundled(t))
	a, err := eng.Ask(ctx, knowledge.AskQuery{Query: "how are refresh tokens rotated?", Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"[1] auth (backend/auth.md) § refresh-tokens/rotation · L18–", // the id spells the heading
		"L20: Every refresh returns a NEW refresh token",
		"[2] auth (backend/auth.md) § refresh-tokens · L14–43",
		"L3 (§ _intro): Gateway token validation", // the doc's opening, no passage of its own
	} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("answer lacks %q:\n%s", want, a.Text)
		}
	}
	intro, err := eng.Ask(ctx, knowledge.AskQuery{Query: "gateway token validation and the login flow", Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if want := `auth (backend/auth.md) § _intro "Authentication" · L1–4`; !strings.Contains(intro.Text, want) { // _intro does not spell it
		t.Errorf("answer lacks %q:\n%s", want, intro.Text)
	}
	// Each passage's header names its doc and section: a get_documents
	// call repeating them all (an eighth of an answer's bytes) is not added.
	if strings.Contains(a.Text, "get_documents") {
		t.Errorf("an answer of three passages names a get_documents call:\n%s", a.Text)
	}
	if strings.Contains(a.Text, "L18: ### Rotation") || strings.Contains(a.Text, "L14: ## Refresh tokens") {
		t.Errorf("a passage quotes its own heading line, which its header says:\n%s", a.Text)
	}
	if a.Provider != "librarian-local" || a.Busy != nil {
		t.Errorf("provider %q busy %v", a.Provider, a.Busy)
	}
	none, err := eng.Ask(ctx, knowledge.AskQuery{Query: "quantum chromodynamics lattice", Tags: tags})
	if err != nil || !strings.Contains(none.Text, "The library has no section that answers") || !strings.Contains(none.Text, "librarian_gap") {
		t.Errorf("an unanswerable question: %v\n%s", err, none.Text)
	}
}

// A subsection of a passage above, whose lines that passage quotes
// already, is no passage: its place goes to the next section, here the
// radial-progress doc's "Rules", which holds the default size.
func TestAskPassagesQuoteSomethingNew(t *testing.T) {
	eng := newLocal(t, filepath.Join("..", "..", "testdata", "librarian-examples", "docs"))
	a, err := eng.Ask(ctx, knowledge.AskQuery{Query: "what is the default diameter of a daisyUI radial progress circle?", Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	passages := strings.Split(a.Text, "\n\n[")[1:]
	if len(passages) == 0 {
		t.Fatalf("no passage:\n%s", a.Text)
	}
	for _, p := range passages {
		if !strings.Contains(p, "\n  L") {
			t.Errorf("passage [%s quotes no line:\n%s", strings.SplitN(p, "\n", 2)[0], a.Text)
		}
	}
	if !strings.Contains(a.Text, "(default 5rem)") {
		t.Errorf("answer lacks the default size:\n%s", a.Text)
	}
}

func TestDiscussCarriesTheTopic(t *testing.T) {
	eng := newLocal(t, bundled(t))
	history := []knowledge.Turn{{Role: "user", Content: "how does cache invalidation work?"}, {Role: "assistant", Content: "fan-out deletes"}}
	a, err := eng.Ask(ctx, knowledge.AskQuery{Query: "and what is the TTL?", History: history, Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.Text, "caching (backend/storage/caching.md)") || !strings.Contains(a.Text, "earlier question") {
		t.Errorf("a follow-up did not stay on the earlier topic:\n%s", a.Text)
	}
	// A message that names its subject changes it.
	b, err := eng.Ask(ctx, knowledge.AskQuery{Query: "how are refresh tokens rotated?", History: history, Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.Text, "From the library") || !strings.Contains(b.Text, "[1] auth (backend/auth.md) § refresh-tokens/rotation") {
		t.Errorf("a new subject was read with the old one:\n%s", b.Text)
	}
	rows, _ := eng.Interactions(ctx, "sess-1", 10)
	if len(rows) != 2 || rows[0].Kind != "discuss" {
		t.Errorf("log rows %+v, want two discuss rows", rows)
	}
}

func TestTellIsSearchable(t *testing.T) {
	root := copyDir(t, bundled(t))
	eng := newLocal(t, root)
	r, err := eng.Tell(ctx, knowledge.Tell{Subject: "session store", Info: "sessions moved to the quillwort cluster in v2", Tags: tags})
	if err != nil || !strings.HasPrefix(r.Stored, "tell #1 ") {
		t.Fatalf("tell: %v %q", err, r.Stored)
	}
	a, err := eng.Ask(ctx, knowledge.AskQuery{Query: "where is the session store?", Tags: tags})
	if err != nil || !strings.Contains(a.Text, "Told by agents (not in the docs):\n- [tell #1] session store: sessions moved to the quillwort cluster in v2 (told by worker-2,") {
		t.Errorf("ask does not quote the told knowledge: %v\n%s", err, a.Text)
	}
	b, err := eng.Brief(ctx, knowledge.BriefQuery{Task: "change the session store", Tags: tags})
	if err != nil || !strings.Contains(b.Text, "[tell #1] session store") {
		t.Errorf("brief does not quote the told knowledge: %v\n%s", err, b.Text)
	}
	// Nothing is written into the library folder.
	before := listing(t, bundled(t))
	if after := listing(t, root); after != before {
		t.Errorf("the library folder changed:\n%s\nwas\n%s", after, before)
	}
}

func listing(t *testing.T, root string) string {
	var b strings.Builder
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		rel, _ := filepath.Rel(root, p)
		b.WriteString(rel + "\n")
		return nil
	})
	return b.String()
}

func TestBrief(t *testing.T) {
	eng := newLocal(t, bundled(t))
	b, err := eng.Brief(ctx, knowledge.BriefQuery{Task: "add rate limiting to the login flow", Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1. auth (backend/auth.md) ~353 tokens: Authentication", "§ login-flow L5–13 ~77 tokens", "Read first: get_documents [{\"doc\": \"auth\", \"sections\": [\"login-flow\"]}", "Nothing in the library on: rate, limiting"} {
		if !strings.Contains(b.Text, want) {
			t.Errorf("brief lacks %q:\n%s", want, b.Text)
		}
	}
	if len(b.Text) > 1500*4 {
		t.Errorf("brief is %d bytes, over its budget", len(b.Text))
	}
}

// A brief quotes, under each doc, the line of its best section that
// answers the task, as ask would choose it: the reuse-detection log key,
// not the section's first line.
func TestBriefQuotesTheLineThatAnswers(t *testing.T) {
	b, err := newLocal(t, bundled(t)).Brief(ctx, knowledge.BriefQuery{Task: "add a refresh token reuse alert", Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	want := "   § refresh-tokens/reuse-detection L39–43 ~42 tokens · § refresh-tokens/rotation L18–38 ~160 tokens · § refresh-tokens L14–43 ~226 tokens\n" +
		"   L42: `auth.refresh.reuse` with the family id. The user must log in again.\n"
	if !strings.Contains(b.Text, want) {
		t.Errorf("brief lacks the answering line under auth's sections:\n%s", b.Text)
	}
}

func TestDepends(t *testing.T) {
	eng := newLocal(t, bundled(t))
	d, err := eng.Depends(ctx, "auth")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Dependents) != 2 || d.Dependents[0] != "caching" || d.Dependents[1] != "getting-started" || d.DependsOn == nil || len(d.DependsOn) != 0 {
		t.Errorf("auth: %+v, want caching and getting-started as its dependents, no dependencies", d)
	}
	d, err = eng.Depends(ctx, "backend/storage/caching.md")
	if err != nil || len(d.DependsOn) != 1 || d.DependsOn[0] != "auth" {
		t.Errorf("caching by path: %+v %v", d, err)
	}
	if _, err := eng.Depends(ctx, "no-such-doc"); !errors.Is(err, domain.ErrNotFound) || !strings.Contains(err.Error(), "no entry 'no-such-doc'") {
		t.Errorf("unknown entry: %v", err)
	}
}

func TestGuideExcludesAndLogs(t *testing.T) {
	eng := newLocal(t, bundled(t))
	r, err := eng.Guide(ctx, knowledge.Guidance{Text: "stay out of storage", Exclude: []string{"storage/"}, Expect: "backend/auth.md", Tags: tags})
	if err != nil || !r.Stored || r.Version != "1" || r.ExpiresAt.At.IsZero() {
		t.Fatalf("guide: %+v %v", r, err)
	}
	loc, err := eng.Locate(ctx, knowledge.LocateQuery{Query: "invalidate", Limit: 10, Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if loc.ExcludedHits == 0 {
		t.Errorf("no hit excluded: %+v", loc)
	}
	for _, h := range loc.Hits {
		if strings.HasPrefix(h.File, "backend/storage/") {
			t.Errorf("excluded hit served: %+v", h)
		}
	}
	// Another session is not guided.
	other, _ := eng.Locate(ctx, knowledge.LocateQuery{Query: "invalidate", Limit: 10, Tags: knowledge.EngineTags{Session: "other"}})
	if other.ExcludedHits != 0 || len(other.Hits) == 0 {
		t.Errorf("another session's locate: %+v", other)
	}
	rej, err := eng.Guide(ctx, knowledge.Guidance{Text: "hide all", Exclude: []string{"*"}, Tags: tags})
	if err != nil || rej.Stored || !strings.Contains(rej.Reason, "matches every doc of the library (4)") {
		t.Errorf("an exclude matching everything: %+v %v", rej, err)
	}
	rows, err := eng.Interactions(ctx, "sess-1", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Kind != "guide" || rows[0].Served[1] != "expect: backend/auth.md" || rows[1].Kind != "locate" || rows[1].GuidanceVersion != "1" ||
		rows[1].ExcludedHits != loc.ExcludedHits || rows[1].Caller != "worker-2" || rows[1].Query != "invalidate" {
		t.Errorf("session log: %+v", rows)
	}
	if cleared, err := eng.ClearGuide(ctx, "sess-1"); !cleared || err != nil {
		t.Errorf("clear: %v %v", cleared, err)
	}
	if again, _ := eng.Locate(ctx, knowledge.LocateQuery{Query: "invalidate", Limit: 10, Tags: tags}); again.ExcludedHits != 0 {
		t.Errorf("guidance still applied after a clear")
	}
}

func TestGapsAreListed(t *testing.T) {
	eng := newLocal(t, bundled(t))
	if _, err := eng.Gap(ctx, knowledge.Gap{Subject: "billing", Missing: "where invoices are rendered", Tags: tags}); err != nil {
		t.Fatal(err)
	}
	st, _ := eng.Status(ctx)
	if !strings.Contains(string(st.JSON), `"gaps":{"all":"librarian gaps","count":1,"recent":[{"at":`) || !strings.Contains(string(st.JSON), `"missing":"where invoices are rendered","subject":"billing"`) {
		t.Errorf("status: %s", st.JSON)
	}
	if !st.IndexBuiltAt.Equal(builtAt) {
		t.Errorf("built at %v", st.IndexBuiltAt)
	}
	gaps, _ := eng.Gaps(ctx, 0)
	if len(gaps) != 1 || gaps[0].Subject != "billing" || gaps[0].Tags.Caller != "worker-2" {
		t.Errorf("gaps: %+v", gaps)
	}
}

func TestBadInput(t *testing.T) {
	eng := newLocal(t, bundled(t))
	huge := strings.Repeat("x", 100<<10)
	for _, tc := range []struct {
		name string
		call func() error
		says string
	}{
		{"empty locate", func() error { _, err := eng.Locate(ctx, knowledge.LocateQuery{Query: "  ", Tags: tags}); return err }, "'q' is empty"},
		{"huge locate", func() error { _, err := eng.Locate(ctx, knowledge.LocateQuery{Query: huge, Tags: tags}); return err }, "'q' is 102400 bytes, over the 8192-byte limit"},
		{"empty ask", func() error { _, err := eng.Ask(ctx, knowledge.AskQuery{Tags: tags}); return err }, "'query' is empty"},
		{"huge brief", func() error { _, err := eng.Brief(ctx, knowledge.BriefQuery{Task: huge, Tags: tags}); return err }, "'task' is 102400 bytes"},
		{"bad role", func() error {
			_, err := eng.Ask(ctx, knowledge.AskQuery{Query: "q", History: []knowledge.Turn{{Role: "system", Content: "x"}}, Tags: tags})
			return err
		}, `history[0].role is "system"`},
		{"empty tell", func() error { _, err := eng.Tell(ctx, knowledge.Tell{Subject: "s", Tags: tags}); return err }, "'info' is empty"},
		{"log limit", func() error { _, err := eng.Interactions(ctx, "s", 10000); return err }, "'limit' is 10000: give 1 to 1000"},
	} {
		err := tc.call()
		if !errors.Is(err, domain.ErrInvalidArgument) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want an invalid argument saying %q", tc.name, err, tc.says)
		}
	}
	for _, limit := range []int{0, 10000} {
		loc, err := eng.Locate(ctx, knowledge.LocateQuery{Query: "token", Limit: limit, Tags: tags})
		if err != nil || len(loc.Hits) == 0 || len(loc.Hits) > 100 {
			t.Errorf("limit %d: %d hits, %v", limit, len(loc.Hits), err)
		}
		if limit == 10000 && !strings.Contains(loc.Footer, "limit 10000 is over the local engine's 100") {
			t.Errorf("limit 10000: footer %q", loc.Footer)
		}
	}
	rej, err := eng.Guide(ctx, knowledge.Guidance{Text: "", Tags: tags})
	if err != nil || rej.Stored || !strings.Contains(rej.Reason, "guidance text is empty") {
		t.Errorf("empty guidance: %+v %v", rej, err)
	}
}

// TestContractLibrary: the local engine keeps the promises of an engine
// that answers from a library (retrievaltest.RunLibrary). The wire suite,
// retrievaltest.Run, is for clients of seed 004's HTTP contract: the local
// engine speaks no HTTP; adapters/engineapi's tests run it through the
// HTTP client against the engine API serving this engine.
func TestContractLibrary(t *testing.T) {
	retrievaltest.RunLibrary(t, func(t *testing.T) retrieval.Engine { return newLocal(t, bundled(t)) })
}

// TestLocateUnsettledIsNotStale: a doc indexed within a tick of its last
// edit is stored under an unsettled stamp; its hits are not stale while
// the file is the one that was read.
func TestLocateUnsettledIsNotStale(t *testing.T) {
	root := copyDir(t, bundled(t))
	src, err := jsonindex.New(root, "index.json")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := sqlitesectionindex.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	indexLibrary(t, src, ix)
	e, err := ix.Entry(ctx, "backend/auth.md")
	if err != nil {
		t.Fatal(err)
	}
	e.Doc.Stamp = e.Doc.Stamp.Unsettled()
	if err := ix.Apply(ctx, sectionindex.Update{Put: []sectionindex.Entry{e}}); err != nil {
		t.Fatal(err)
	}
	eng, err := localretrieval.New(localretrieval.Options{Index: ix, Journal: memjournal.New(journal.Limits{}), Library: src})
	if err != nil {
		t.Fatal(err)
	}
	loc, err := eng.Locate(ctx, knowledge.LocateQuery{Query: "Validate", Limit: 10, Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if len(loc.Hits) == 0 || loc.Hits[0].File != "backend/auth.md" || loc.Hits[0].Stale {
		t.Errorf("a hit in an unchanged doc stored as unsettled: %+v; want backend/auth.md first, not stale", loc.Hits)
	}
}

// TestLocateDefinitionLineFirst (issue 21): a name a list item or a table
// row defines is located at that line, before the heading of its section.
func TestLocateDefinitionLineFirst(t *testing.T) {
	eng := newLocal(t, filepath.Join("..", "..", "testdata", "librarian-examples", "docs"))
	for _, tc := range []struct {
		query, file string
		line        int
	}{
		{"btn-primary", "daisyui/components/button.md", 13}, // "- color: `btn-neutral`, `btn-primary`, …" under "#### Class names"
		{"cookieOptions.maxAge", "hono/middleware/builtin/language.md", 186},
	} {
		loc, err := eng.Locate(ctx, knowledge.LocateQuery{Query: tc.query, Limit: 5, Tags: tags})
		if err != nil {
			t.Fatal(err)
		}
		if h := first0(loc); h.File != tc.file || h.Line != tc.line {
			t.Errorf("locate %q: first hit %+v, want %s:%d (all: %+v)", tc.query, h, tc.file, tc.line, loc.Hits)
		}
	}
}

// The best passage quotes four lines, the next two three; a fourth and
// fifth passage are quoted, by two lines each, while the answer stays
// short, or, scoring as well as the best (askKeepShare), while it stays
// within askMostBytes; a sixth, as well, when it scores close to the best
// (passage.CloseToBest): the six docs here score alike.
func TestAskQuotesMorePassagesWhileShort(t *testing.T) {
	write := func(root string, line func(doc, n int) string) {
		for d := 1; d <= 6; d++ {
			var b strings.Builder
			fmt.Fprintf(&b, "# Gasket %d\n\n", d)
			for n := 1; n <= 3; n++ {
				b.WriteString(line(d, n) + "\n\n")
			}
			if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("gasket%d.md", d)), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var answer string
	passages := func(root string) []string {
		a, err := newLocal(t, root).Ask(ctx, knowledge.AskQuery{Query: "what torque does the quillwort gasket take?", Tags: tags})
		if err != nil {
			t.Fatal(err)
		}
		answer = a.Text
		return strings.Split(a.Text, "\n\n[")[1:]
	}
	short := t.TempDir()
	write(short, func(d, n int) string { return fmt.Sprintf("Quillwort gasket torque note %d of %d.", n, d) })
	ps := passages(short)
	if len(ps) != 6 {
		t.Fatalf("%d passages, want %d while the answer is short:\n%s", len(ps), 6, strings.Join(ps, "\n\n["))
	}
	for i, p := range ps {
		want := passage.SectionLines
		switch {
		case i == 0:
			want = 3 // the best passage: its three notes (its heading line is in the header)
		case i >= 3:
			want = 2
		}
		if got := strings.Count(p, "\n  L"); got != want {
			t.Errorf("passage %d quotes %d lines, want %d:\n[%s", i+1, got, want, p)
		}
	}
	long := t.TempDir()
	write(long, func(d, n int) string {
		return fmt.Sprintf("Quillwort gasket torque note %d of %d: ", n, d) + strings.Repeat("a long line that goes on ", 7)
	})
	// Every doc scores as the best: past the budget, up to askMostBytes.
	if ps := passages(long); len(ps) <= 3 || len(answer) > 3500 || len(answer) <= 1400 {
		t.Errorf("%d passages in %d bytes, want more than 3 in 1,400 to 3,500 bytes (askBudgetBytes, askMostBytes): each scores as the best", len(ps), len(answer))
	}
}

// The first passage's long lines are quoted wider (300 characters) than
// the others' (200): a fact stated late in a long sentence of the
// likeliest answer is in view.
func TestAskQuotesTheFirstPassageWider(t *testing.T) {
	root := copyDir(t, filepath.Join("..", "..", "testdata", "longlines"))
	a, err := newLocal(t, root).Ask(ctx, knowledge.AskQuery{Query: "what torque does the quillwort gasket take?", Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.Text, "[1] a § _intro") || !strings.Contains(a.Text, "`42 Nm`") {
		t.Errorf("want a.md first, its long line whole (42 Nm):\n%s", a.Text)
	}
}

// A passage whose heading names a code name (an option) quotes, before its
// own lines, its parent's line that defines the name, as ranked search
// shows it: the Options list says what the option does.
func TestAskQuotesTheOptionsDefinition(t *testing.T) {
	root := copyDir(t, filepath.Join("..", "..", "testdata", "definitions"))
	a, err := newLocal(t, root).Ask(ctx, knowledge.AskQuery{Query: "which code is incorrect for the maxPasses option of quillwort-rule?", Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	want := "§ options/maxpasses · L21–28"
	def := "  L10 (§ options): * `maxPasses` is how many torque passes a fitting may take (Default: `3`).\n"
	if !strings.Contains(a.Text, want) || strings.Count(a.Text, "`maxPasses` is how many") != 1 || strings.Index(a.Text, def) < strings.Index(a.Text, want) {
		t.Errorf("want maxPasses' definition (L10) quoted once, in its subsection's passage:\n%s", a.Text)
	}
}

// A doc's first section is quoted with its frontmatter's facts, as ranked
// search quotes it: a function page that states what it does only in its
// `description:` is found by it, and answers with that line
// (testdata/frontmatterfacts).
func TestAskQuotesTheFrontmatterSummary(t *testing.T) {
	root := copyDir(t, filepath.Join("..", "..", "testdata", "frontmatterfacts"))
	a, err := newLocal(t, root).Ask(ctx, knowledge.AskQuery{Query: "which function pads a string on the left?", Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	want := "] functions/pad § _preamble · L10–15 · ~20 tokens\n  L3 (frontmatter): description: Pads a string on the left with spaces up to a given width.\n"
	if !strings.Contains(a.Text, want) || strings.Contains(a.Text, "title: quill") {
		t.Errorf("want functions/pad's passage quoting its description (L3), and no title:\n%s", a.Text)
	}
}

// The first passage is quoted with its doc's opening line when no passage
// quotes the opening and the line answers about as well as the passage's
// best, as ranked search shows it: pnpm's install page says in its
// opening that an install in CI fails on a lockfile that needs an update.
func TestAskQuotesTheBestDocsOpening(t *testing.T) {
	root := copyDir(t, filepath.Join("..", "..", "testdata", "pnpm-docs", "docs"))
	a, err := newLocal(t, root).Ask(ctx, knowledge.AskQuery{Query: "Why does pnpm install fail on our build server when the lockfile is out of date, while on my laptop it just updates it?", Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	head := "[1] cli/install § options/--frozen-lockfile · L128–153"
	line := "\n  L10 (§ _preamble): In a CI environment, installation fails if a lockfile is present but needs an\n"
	if !strings.Contains(a.Text, head) || strings.Count(a.Text, "installation fails if a lockfile") != 1 || strings.Index(a.Text, line) < strings.Index(a.Text, head) {
		t.Errorf("want the first passage (pnpm install's --frozen-lockfile) with its doc's opening line (L10):\n%s", a.Text)
	}
}

// The first passage is quoted with its doc's line that answers better
// than the passage's own, outside every passage (withElsewhere): when the
// doc gives two passages or more (the OpenTelemetry mainframe page's
// sections that name mainframes most take every place; where the Collector
// runs is under "How OpenTelemetry can help"), when it gives the only one
// (pnpm sbom's opening names the formats, its option's section the values),
// and when it gives one of several but the line answers far better (Jest's
// mockClear warning, asked about in other words than its section's).
func TestAskQuotesTheDocsBetterLineElsewhere(t *testing.T) {
	for _, c := range []struct {
		name, corpus, query string
		head, line          string // the first passage's header, its line elsewhere
		passages            int    // how many passages, 0 for any
	}{
		{"two passages of the doc", "otel-docs", "When bringing IBM Z mainframe workloads into OpenTelemetry, where does the Collector usually run?",
			"[1] platforms/mainframe § ", "\n  L124 (§ how-opentelemetry-can-help): In a mainframe context, the Collector often runs **off-platform** (for example,\n", 0},
		{"a lone passage", "pnpm-docs", "Which output formats can pnpm produce a software bill of materials in?",
			"[1] cli/sbom § _preamble", "\n  L37 (§ options/--sbom-format-cyclonedxspdx): The SBOM output format. This option is required. Supported values: `cyclonedx`, `spdx`.\n", 1},
		{"one passage of several", "jest-docs", "I kept a reference const m = myMock.mock, called myMock.mockClear(), and now m still shows the old calls. Why?",
			"[1] MockFunctionAPI § ", "\n  L149 (§ reference/mockfnmockclear): Beware that `mockFn.mockClear()` will replace `mockFn.mock`, not just reset", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := copyDir(t, filepath.Join("..", "..", "testdata", c.corpus, "docs"))
			a, err := newLocal(t, root).Ask(ctx, knowledge.AskQuery{Query: c.query, Tags: tags})
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(a.Text, "\n\n[2]")
			if !strings.Contains(first, c.head) || !strings.Contains(first, c.line) || c.passages > 0 && strings.Count(a.Text, "\n[") != c.passages {
				t.Errorf("want the first passage (%s) with its line elsewhere %q:\n%s", c.head, c.line, a.Text)
			}
		})
	}
}

// When the index finds one passage only, it has the answer's whole budget:
// its section quotes loneFirstLines lines, not askFirstLines, so a fact on a
// line that four would leave out is in view; with more passages, the
// first quotes askFirstLines as before.
func TestAskQuotesALonePassageWider(t *testing.T) {
	const loneFirstLines = 8 // as ask.go's
	var b strings.Builder
	b.WriteString("# Quillwort gasket\n\n")
	for n := 1; n <= 12; n++ {
		fmt.Fprintf(&b, "Quillwort flange, step %d: tighten.\n\n", n)
	}
	ask := func(root string) string {
		a, err := newLocal(t, root).Ask(ctx, knowledge.AskQuery{Query: "how is the quillwort gasket flange tightened?", Tags: tags})
		if err != nil {
			t.Fatal(err)
		}
		return a.Text
	}
	lone := t.TempDir()
	if err := os.WriteFile(filepath.Join(lone, "gasket.md"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	answer := ask(lone)
	if got := strings.Count(answer, "\n  L"); strings.Count(answer, "\n[") != 1 || got < loneFirstLines {
		t.Errorf("one passage quoting %d lines, want at least %d (loneFirstLines):\n%s", got, loneFirstLines, answer)
	}
	two := t.TempDir()
	for _, name := range []string{"gasket.md", "gasket2.md"} {
		if err := os.WriteFile(filepath.Join(two, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	answer = ask(two)
	first := strings.Split(answer, "\n\n[")[0]
	if got := strings.Count(first, "\n  L"); got >= loneFirstLines {
		t.Errorf("with two passages the first quotes %d lines, want fewer than %d:\n%s", got, loneFirstLines, answer)
	}
}

// A passage that quotes only lines a passage above quotes word for word
// (the same page for three frameworks) is passed over: the section ranked
// next, which states something else, takes its place.
func TestAskPassesOverARepeatedPassage(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"react", "vue", "svelte"} {
		write(t, root, name+".md", "# "+name+" debug\n\nThe quillwort debug helper prints the rendered gasket markup.\n")
	}
	write(t, root, "context.md", "# Utils\n\nThe debug helper cuts the gasket markup after 7000 characters.\n")
	for d := 1; d <= 3; d++ {
		write(t, root, fmt.Sprintf("other%d.md", d), fmt.Sprintf("# Other %d\n\nThe quillwort gasket markup is rendered by the helper, part %d.\n", d, d))
	}
	a, err := newLocal(t, root).Ask(ctx, knowledge.AskQuery{Query: "what does the debug helper do with quillwort gasket markup?", Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(a.Text, "The quillwort debug helper prints the rendered gasket markup."); n != 1 {
		t.Errorf("the repeated line quoted %d times, want once:\n%s", n, a.Text)
	}
	if !strings.Contains(a.Text, "7000 characters") {
		t.Errorf("want context.md's line, which the repeats left out:\n%s", a.Text)
	}
}
