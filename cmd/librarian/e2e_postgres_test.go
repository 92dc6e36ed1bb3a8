package main

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/librarian/librarian/adapters/postgresdb/postgrestest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The PostgreSQL end-to-end tests: a library is indexed into a real
// PostgreSQL (scripts/postgres-test-server) with `librarian index --to`,
// then a server backed by the database answers the same calls as a server
// over the files, through the real binary over stdio; the answers are
// compared byte for byte (every content item, text and images, and the
// error flag).

// postgresDSN is a DSN for a fresh schema of the test server (dropped
// first), for role "owner" or "reader".
func postgresDSN(t *testing.T, schema string) (owner, reader string) {
	t.Helper()
	base := postgrestest.DSN(t)
	postgrestest.DropSchema(t, base, schema)
	return postgrestest.WithSchema(t, base, schema), postgrestest.WithSchema(t, os.Getenv("LIBRARIAN_TEST_POSTGRES_READONLY"), schema)
}

// grantReader lets the read-only role read schema.
func grantReader(t *testing.T, schema string) {
	t.Helper()
	r, err := url.Parse(os.Getenv("LIBRARIAN_TEST_POSTGRES_READONLY"))
	if err != nil || r.User == nil {
		t.Skip("LIBRARIAN_TEST_POSTGRES_READONLY is not set (see scripts/postgres-test-server)")
	}
	conn, err := pgx.Connect(context.Background(), os.Getenv("LIBRARIAN_TEST_POSTGRES"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	role := pgx.Identifier{r.User.Username()}.Sanitize()
	if _, err := conn.Exec(context.Background(), `GRANT USAGE ON SCHEMA `+schema+` TO `+role+`; GRANT SELECT ON ALL TABLES IN SCHEMA `+schema+` TO `+role); err != nil {
		t.Fatal(err)
	}
}

// indexInto runs `librarian index --to dsn` with env.
func indexInto(t *testing.T, dsn string, env ...string) {
	t.Helper()
	cmd := exec.Command(binary, "index", "--to", dsn)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("librarian index: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "indexed ") {
		t.Fatalf("librarian index printed %q", out)
	}
}

// connectIn is connect with the server started in dir (a folder without
// ./library, so a server given no root has none).
func connectIn(t *testing.T, dir string, env ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(binary)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{"LIBRARY_ROOT=", "LIBRARIAN_DOCS_ROOT="}, env...)...)
	cmd.Stderr = &testLogWriter{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-postgres", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// answer is a call's whole answer as JSON: its content items (text and
// images, in order) and error flag, or the JSON-RPC error.
func answer(t *testing.T, cs *mcp.ClientSession, tool string, args json.RawMessage) string {
	t.Helper()
	var a map[string]any
	if err := json.Unmarshal(args, &a); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: a})
	if err != nil {
		return "rpc error: " + err.Error()
	}
	b, err := json.Marshal(struct {
		Content []mcp.Content
		IsError bool
	}{res.Content, res.IsError})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type call struct {
	Name      string          `json:"name"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// compareServers sends every call to both servers and fails on the first
// answers that differ.
func compareServers(t *testing.T, files, db *mcp.ClientSession, calls []call) {
	t.Helper()
	for _, c := range calls {
		want := answer(t, files, c.Tool, c.Arguments)
		got := answer(t, db, c.Tool, c.Arguments)
		if got != want {
			t.Errorf("%s: the PostgreSQL-backed answer differs from the files':\n--- postgres\n%.3000s\n--- files\n%.3000s", c.Name, got, want)
		}
	}
}

// comparedLibraryCalls are the `library` tool set calls of the end-to-end and
// golden suites' kinds: listings (scoped, outlined, tag-filtered, budgeted),
// documents (whole, sections, line ranges, roots, images, code placeholders,
// unknown ids), searches (string, regex, case, scoped, capped, no hit, bad
// regex) and tags. Not mode "ranked": its order is the index's own scoring
// (FTS5's bm25 beside a BM25 over PostgreSQL's own vectors), so the same sections may
// come in another order; TestPostgresRankedRecall checks it instead.
func comparedLibraryCalls() []call {
	raw := []struct{ name, tool, args string }{
		{"list-root", "list_documents", `{}`},
		{"list-outline", "list_documents", `{"line_bounds": true}`},
		{"list-scoped", "list_documents", `{"root": "backend/storage", "line_bounds": true}`},
		{"list-depth", "list_documents", `{"depth": 1, "section_depth": 1}`},
		{"list-tags", "list_documents", `{"tags": ["backend"]}`},
		{"list-budget", "list_documents", `{"line_bounds": true, "max_tokens": 60}`},
		{"list-unknown", "list_documents", `{"root": "nowhere"}`},
		{"get-docs", "get_documents", `{"select": ["auth", "backend/storage/caching.md"]}`},
		{"get-images", "get_documents", `{"select": ["auth", "caching"], "include_images": true}`},
		{"get-sections", "get_documents", `{"select": [{"doc": "auth", "sections": ["refresh-tokens/rotation", "login-flow"]}]}`},
		{"get-lines", "get_documents", `{"select": [{"doc": "caching", "lines": [3, 25]}], "include_code": false}`},
		{"get-root", "get_documents", `{"select": [{"root": "backend"}], "max_tokens": 300}`},
		{"get-unknown", "get_documents", `{"select": ["nope", {"doc": "auth", "sections": ["nothing"]}]}`},
		{"get-bad", "get_documents", `{"select": []}`},
		{"search-string", "search_documents", `{"query": "token"}`},
		{"search-case", "search_documents", `{"query": "Redis", "case_sensitive": true}`},
		{"search-regex", "search_documents", `{"query": "^#{2,3} ", "mode": "regex"}`},
		{"search-scoped", "search_documents", `{"query": "the", "root": "backend", "max_results": 3}`},
		{"search-none", "search_documents", `{"query": "zzzz-no-such-text"}`},
		{"search-bad-regex", "search_documents", `{"query": "a(", "mode": "regex"}`},
		{"tags", "list_tags", `{}`},
		{"tags-paths", "list_tags", `{"include_paths": true}`},
	}
	var out []call
	for _, r := range raw {
		out = append(out, call{Name: r.name, Tool: r.tool, Arguments: json.RawMessage(r.args)})
	}
	return out
}

// TestPostgresServesLikeFiles: the bundled library (json convention, with
// images) indexed into PostgreSQL, served with its root and
// LIBRARY_INDEX=postgres://… (parses and search candidates from the
// database, images from the files), answers every library call as a
// server over the files does.
func TestPostgresServesLikeFiles(t *testing.T) {
	owner, _ := postgresDSN(t, "t_e2e_bundled")
	lib := filepath.Join(repoRoot(t), "library")
	indexInto(t, owner, "LIBRARY_ROOT="+lib)
	dir := t.TempDir()
	files := connectIn(t, dir, "LIBRARY_ROOT="+lib)
	db := connectIn(t, dir, "LIBRARY_ROOT="+lib, "LIBRARY_INDEX="+owner)
	compareServers(t, files, db, comparedLibraryCalls())
	got, isErr := callText(t, db, "search_documents", map[string]any{"query": "how are refresh tokens rotated", "mode": "ranked"})
	if top := rankedSections(got); isErr || len(top) == 0 || top[0] != (rankedSection{"backend/auth.md", 18}) {
		t.Errorf("ranked through PostgreSQL:\n%s", got)
	}
}

// TestPostgresAloneServesLikeFiles: the librarian-ts example corpus indexed
// into PostgreSQL, then served from the database alone (no root, the
// read-only role), answers all 84 recorded librarian-ts calls and the
// library calls as a server over the files does.
func TestPostgresAloneServesLikeFiles(t *testing.T) {
	const schema = "t_e2e_alone"
	owner, reader := postgresDSN(t, schema)
	docs := filepath.Join(repoRoot(t), "testdata", "librarian-examples", "docs")
	indexInto(t, owner, "LIBRARIAN_DOCS_ROOT="+docs)
	grantReader(t, schema)
	dir := t.TempDir()
	tools := "LIBRARIAN_TOOLS=library,librarian-ts"
	files := connectIn(t, dir, "LIBRARIAN_DOCS_ROOT="+docs, tools)
	db := connectIn(t, dir, "LIBRARY_INDEX="+reader, tools)

	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "librarian-examples", "recorded", "calls.json"))
	if err != nil {
		t.Fatal(err)
	}
	var calls []call
	if err := json.Unmarshal(raw, &calls); err != nil {
		t.Fatal(err)
	}
	if len(calls) < 80 {
		t.Fatalf("only %d recorded calls", len(calls))
	}
	compareServers(t, files, db, calls)
	compareServers(t, files, db, []call{
		{Name: "list", Tool: "list_documents", Arguments: json.RawMessage(`{"line_bounds": true, "max_tokens": 0}`)},
		{Name: "search", Tool: "search_documents", Arguments: json.RawMessage(`{"query": "middleware", "max_results": 0}`)},
		{Name: "regex", Tool: "search_documents", Arguments: json.RawMessage(`{"query": "use[A-Z]\\w+", "mode": "regex"}`)},
		{Name: "tags", Tool: "list_tags", Arguments: json.RawMessage(`{"include_paths": true}`)},
		{Name: "get", Tool: "get_documents", Arguments: json.RawMessage(`{"select": [{"root": "hono/api"}], "max_tokens": 0}`)},
	})
}

// rankedSection is one section of a ranked answer: its doc's path and first line.
type rankedSection struct {
	path  string
	start int
}

// Lines of a ranked answer: a doc's line ("ID (PATH) ~N tokens"), then its
// sections best first ("§ SECTION LA–B ~N tokens").
var (
	rankedDocLine     = regexp.MustCompile(`^\S+ \((.+?)\) ~\d+ tokens`)
	rankedSectionLine = regexp.MustCompile(`^§ \S+ L(\d+)–`)
)

// rankedSections lists a ranked answer's sections in the order shown: docs
// in the order of their best section, each doc's sections best first, so
// the first is the best and all shown are the top max_results.
func rankedSections(answer string) []rankedSection {
	var out []rankedSection
	doc := ""
	for _, line := range strings.Split(answer, "\n") {
		if m := rankedDocLine.FindStringSubmatch(line); m != nil {
			doc = m[1]
			continue
		}
		if m := rankedSectionLine.FindStringSubmatch(line); m != nil && doc != "" {
			start, _ := strconv.Atoi(m[1])
			out = append(out, rankedSection{doc, start})
		}
	}
	return out
}

// TestPostgresRankedRecall asks the question set of testdata/ranked over
// the example corpus through a server on PostgreSQL alone: the answering
// section must be among the first five for most questions, as with the
// SQLite index (app's TestRankedRecall).
func TestPostgresRankedRecall(t *testing.T) {
	owner, _ := postgresDSN(t, "t_e2e_ranked")
	docs := filepath.Join(repoRoot(t), "testdata", "librarian-examples", "docs")
	indexInto(t, owner, "LIBRARIAN_DOCS_ROOT="+docs)
	db := connectIn(t, t.TempDir(), "LIBRARY_INDEX="+owner)
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "ranked", "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var asked, at1, at5 int
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var q struct {
			Question string `json:"question"`
			Path     string `json:"path"`
			Lines    []int  `json:"lines"`
		}
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			t.Fatal(err)
		}
		asked++
		got, isErr := callText(t, db, "search_documents", map[string]any{"query": q.Question, "mode": "ranked"})
		if isErr {
			t.Fatalf("%q: %s", q.Question, got)
		}
		rank := -1
		for i, sec := range rankedSections(got) {
			if sec.path == q.Path && slices.Contains(q.Lines, sec.start) {
				rank = i
				break
			}
		}
		if rank == 0 {
			at1++
		}
		if rank >= 0 {
			at5++
		} else {
			t.Logf("%q: want %s L%v, not in the first five:\n%s", q.Question, q.Path, q.Lines, got)
		}
	}
	r1, r5 := float64(at1)/float64(asked), float64(at5)/float64(asked)
	t.Logf("ranked recall through PostgreSQL over %d questions: @1 %.2f, @5 %.2f", asked, r1, r5)
	if r5 < 0.8 {
		t.Errorf("recall@5 %.2f, want at least 0.8", r5)
	}
}
