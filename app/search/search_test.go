package search

import (
	"context"
	"errors"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/textmatch"
	"github.com/librarian/librarian/ports/docindex"
)

// searchLibRoot is the small library of the search and tags tests: the same
// files read with both conventions (index.json's tags are the ones the
// frontmatter convention inherits).
const searchLibRoot = "../testdata/search/lib"

// updating reports whether the golden files are to be rewritten. The
// -update flag is defined once for the whole test binary (by the get tests
// of package app_test); looking it up keeps the two from clashing.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// checkGolden compares got with the golden file, or rewrites it under -update.
func checkGolden(t *testing.T, file, got string) {
	t.Helper()
	if updating() {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./app/search -run %s -update to create it)", err, t.Name())
	}
	if got+"\n" != string(want) {
		t.Errorf("%s: got\n%s\nwant\n%s", file, got, want)
	}
}

// openSearchLibrary opens the test library with the real adapters of one
// convention.
func openSearchLibrary(t testing.TB, convention, root string) *library.Library {
	t.Helper()
	return library.New(openSource(t, convention, root), goldmarkmarkdown.New(), nil, library.DefaultConfig())
}

// openSource opens root's index source of a convention.
func openSource(t testing.TB, convention, root string) docindex.Source {
	t.Helper()
	switch convention {
	case "json":
		src, err := jsonindex.New(root, "index.json")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { src.Close() })
		return src
	case "frontmatter":
		src, err := frontmatterindex.New(root)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { src.Close() })
		return src
	}
	t.Fatalf("unknown convention %q", convention)
	return nil
}

var conventions = []string{"json", "frontmatter"}

var searchCases = []struct {
	name string
	req  SearchRequest
}{
	// Default mode: a case-insensitive string over the whole library.
	{"token", SearchRequest{Query: "token", Scope: domain.Scope{Depth: -1}}},
	{"token-case-sensitive", SearchRequest{Query: "Token", CaseSensitive: true, Scope: domain.Scope{Depth: -1}}},
	{"token-max-3", SearchRequest{Query: "token", MaxResults: 3, Scope: domain.Scope{Depth: -1}}},
	{"token-max-5", SearchRequest{Query: "token", MaxResults: 5, Scope: domain.Scope{Depth: -1}}},
	// Only in frontmatter (summary lines): never a hit.
	{"frontmatter-excluded", SearchRequest{Query: "summary", Scope: domain.Scope{Depth: -1}}},
	{"nothing", SearchRequest{Query: "kubernetes", Scope: domain.Scope{Depth: -1}}},
	// Filters: root, tags ANY, depth (index.md at depth 0).
	{"root-backend", SearchRequest{Query: "token", Scope: domain.Scope{Root: "backend", Depth: -1}}},
	{"root-backend-depth-0", SearchRequest{Query: "gateway", Scope: domain.Scope{Root: "/backend/", Depth: 0}}},
	{"root-depth-1", SearchRequest{Query: "e", Scope: domain.Scope{Depth: 1}}},
	{"tags-any", SearchRequest{Query: "the", Scope: domain.Scope{Tags: []string{"onboarding", "storage"}, Depth: -1}}},
	{"tags-none-match", SearchRequest{Query: "the", Scope: domain.Scope{Tags: []string{"nosuch"}, Depth: -1}}},
	// Unicode folding, CRLF lines, a long line cut around its match.
	{"unicode-cafe", SearchRequest{Query: "CAFÉ", Scope: domain.Scope{Depth: -1}}},
	{"unicode-ecole", SearchRequest{Query: "école", Scope: domain.Scope{Depth: -1}}},
	{"kelvin", SearchRequest{Query: "kelvin", Scope: domain.Scope{Depth: -1}}},
	{"long-line", SearchRequest{Query: "rotation key", Scope: domain.Scope{Depth: -1}}},
	// Regexes.
	{"regex-headings", SearchRequest{Query: `^#{2,3} `, Mode: SearchRegex, Scope: domain.Scope{Root: "backend", Depth: -1}}},
	{"regex-text-anchor", SearchRequest{Query: `\A#{2,3} `, Mode: SearchRegex, Scope: domain.Scope{Root: "backend", Depth: -1}}},
	{"regex-word", SearchRequest{Query: `\bttl\b`, Mode: SearchRegex, Scope: domain.Scope{Depth: -1}}},
	{"regex-case-sensitive", SearchRequest{Query: `\bTTL\b`, Mode: SearchRegex, CaseSensitive: true, Scope: domain.Scope{Depth: -1}}},
	{"regex-across-lines", SearchRequest{Query: `refresh\s+token`, Mode: SearchRegex, Scope: domain.Scope{Depth: -1}}},
	{"regex-preamble", SearchRequest{Query: `first`, Mode: SearchRegex, Scope: domain.Scope{Root: "guides", Depth: -1}}},
}

func TestSearchDocumentsGolden(t *testing.T) {
	for _, conv := range conventions {
		lib := openSearchLibrary(t, conv, searchLibRoot)
		for _, c := range searchCases {
			t.Run(conv+"/"+c.name, func(t *testing.T) {
				got, err := New(lib).SearchDocuments(context.Background(), c.req)
				if err != nil {
					t.Fatalf("SearchDocuments(%+v) error: %v", c.req, err)
				}
				checkGolden(t, filepath.Join("../testdata/search/golden", conv, "search-"+c.name+".txt"), got)
			})
		}
	}
}

// TestSearchDocumentsProperties checks what the golden files show, so a
// careless -update cannot bless a regression.
func TestSearchDocumentsProperties(t *testing.T) {
	ctx := context.Background()
	for _, conv := range conventions {
		lib := openSearchLibrary(t, conv, searchLibRoot)
		search := func(req SearchRequest) string {
			t.Helper()
			got, err := New(lib).SearchDocuments(ctx, req)
			if err != nil {
				t.Fatalf("%s: SearchDocuments(%+v) error: %v", conv, req, err)
			}
			return got
		}
		authID := map[string]string{"json": "auth", "frontmatter": "backend/auth"}[conv]
		tests := []struct {
			name       string
			req        SearchRequest
			want, omit []string
		}{
			{"summary line and section ids", SearchRequest{Query: "token", Scope: domain.Scope{Depth: -1}}, []string{
				`12 hits in 4 of 7 docs for "token" (string, case-insensitive)`,
				authID + " (backend/auth.md) ~",
				"§ _intro L6–9 ~25 tokens\nL8: Gateway token validation",
				"§ refresh-tokens/rotation L19–30 ~263 tokens\nL21: Every refresh returns a NEW refresh token",
				"§ refresh-tokens L15–33 ~302 tokens\nL15: ## Refresh tokens",
				"§ refresh-tokens/reuse-detection L31–33 ~20 tokens\nL33: A revoked Token presented again",
				"§ why-tokens L3–6 ~12 tokens\nL3: ## Why tokens?",
				"L25 [sql code]: UPDATE refresh_tokens",
			}, []string{"summary:", "tags:", "§ _intro L3"}},
			{"case-sensitive", SearchRequest{Query: "Token", CaseSensitive: true, Scope: domain.Scope{Depth: -1}}, []string{
				"§ refresh-tokens/reuse-detection L31–33 ~20 tokens\nL33: A revoked Token", "(string, case-sensitive)",
			}, []string{"L8 "}},
			{"max_results cut", SearchRequest{Query: "token", MaxResults: 3, Scope: domain.Scope{Depth: -1}}, []string{
				"§ refresh-tokens L15–33 ~302 tokens\nL15: ", "… 9 more hits in 4 docs not shown (max_results=3)",
			}, nil},
			{"frontmatter never searched", SearchRequest{Query: "tags:", Scope: domain.Scope{Depth: -1}}, []string{`No hits for "tags:" in 7 docs (string, case-insensitive).`}, nil},
			{"index.md at depth 0", SearchRequest{Query: "gateway", Scope: domain.Scope{Root: "backend", Depth: 0}}, []string{
				"1 hit in 1 of 1 doc", "§ _intro L5–7 ", "L7: Everything behind the gateway",
			}, []string{"auth.md"}},
			{"tags ANY", SearchRequest{Query: "the", Scope: domain.Scope{Tags: []string{"onboarding", "storage"}, Depth: -1}}, []string{
				"(guides/getting-started.md) ~", " tokens · tags: onboarding\n", "(backend/storage/caching.md) ~", " tokens · tags: storage\n",
			}, []string{"(backend/auth.md)"}},
			{"preamble and CRLF", SearchRequest{Query: "first", Scope: domain.Scope{Root: "guides", Depth: -1}}, []string{
				"§ _preamble L4–5 ~5 tokens\nL4: Read this first.\n", "§ first-change L14–16 ~14 tokens\nL14: ## First change",
			}, []string{"\r"}},
			{"unicode folding", SearchRequest{Query: "école", Scope: domain.Scope{Depth: -1}}, []string{"§ setup L10–13 ~18 tokens\nL12: Run make setup. The ÉCOLE mirror"}, nil},
			{"kelvin sign folds to k", SearchRequest{Query: "KELVIN", Scope: domain.Scope{Depth: -1}}, []string{"Temperatures are stored in \u212Aelvin"}, nil},
			{"long line cut", SearchRequest{Query: "rotation key", Scope: domain.Scope{Depth: -1}}, []string{"…", "the ROTATION key is fetched"}, nil},
			{"regex across lines", SearchRequest{Query: `refresh\s+token`, Mode: SearchRegex, Scope: domain.Scope{Depth: -1}}, []string{"L8: ", "L13: ", "L21: "}, []string{"L28", "L29"}},
		}
		for _, tc := range tests {
			t.Run(conv+"/"+tc.name, func(t *testing.T) {
				got := search(tc.req)
				for _, w := range tc.want {
					if !strings.Contains(got, w) {
						t.Errorf("got\n%s\nwant it to contain %q", got, w)
					}
				}
				for _, o := range tc.omit {
					if strings.Contains(got, o) {
						t.Errorf("got\n%s\nwant it without %q", got, o)
					}
				}
			})
		}
		t.Run(conv+"/text anchors read per line", func(t *testing.T) {
			caret := search(SearchRequest{Query: `^#{2,3} `, Mode: SearchRegex, Scope: domain.Scope{Depth: -1}})
			anchor := search(SearchRequest{Query: `\A#{2,3} `, Mode: SearchRegex, Scope: domain.Scope{Depth: -1}})
			if strings.SplitN(caret, "\n", 2)[1] != strings.SplitN(anchor, "\n", 2)[1] {
				t.Errorf(`\A: got\n%s\nwant the hits of ^:\n%s`, anchor, caret)
			}
		})
		t.Run(conv+"/long line is cut to about 300 runes", func(t *testing.T) {
			for _, line := range strings.Split(search(SearchRequest{Query: "rotation key", Scope: domain.Scope{Depth: -1}}), "\n") {
				if n := utf8.RuneCountInString(line); n > maxHitRunes+40 {
					t.Errorf("line of %d runes: %q", n, line)
				}
			}
		})
	}
}

func TestSearchDocumentsErrors(t *testing.T) {
	lib := openSearchLibrary(t, "json", searchLibRoot)
	tests := []struct {
		name string
		req  SearchRequest
		want string
		is   error
	}{
		{"empty query", SearchRequest{}, "'query' is empty", domain.ErrInvalidArgument},
		{"unknown mode", SearchRequest{Query: "x", Mode: "fuzzy"}, `'mode' must be "string", "regex" or "ranked", got "fuzzy"`, domain.ErrInvalidArgument},
		{"invalid regex", SearchRequest{Query: "a(", Mode: SearchRegex}, "invalid regex \"a(\": error parsing regexp: missing closing ): `a(`", domain.ErrInvalidArgument},
		{"invalid regex, case-sensitive", SearchRequest{Query: `x\`, Mode: SearchRegex, CaseSensitive: true}, "invalid regex \"x\\\": error parsing regexp: trailing backslash at end of expression: ``", domain.ErrInvalidArgument},
		{"backreference", SearchRequest{Query: `(a)\1`, Mode: SearchRegex}, `invalid regex "(a)\1": error parsing regexp: invalid escape sequence: ` + "`\\1`", domain.ErrInvalidArgument},
		{"negative max_results", SearchRequest{Query: "x", MaxResults: -1}, "'max_results' must be 0 (no limit) or more, got -1", domain.ErrInvalidArgument},
		{"line break in a string", SearchRequest{Query: "a\nb"}, "holds a line break", domain.ErrInvalidArgument},
		{"unknown root", SearchRequest{Query: "x", Scope: domain.Scope{Root: "nosuch"}}, "no folder 'nosuch' in the library", domain.ErrNotFound},
		{"root outside", SearchRequest{Query: "x", Scope: domain.Scope{Root: "../x"}}, "may not contain '..'", domain.ErrRefused},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := New(lib).SearchDocuments(context.Background(), tc.req)
			if err == nil {
				t.Fatalf("got answer\n%s\nwant an error containing %q", got, tc.want)
			}
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %q, want %v containing %q", err, tc.is, tc.want)
			}
		})
	}
}

// TestSearchSeesEdits: a changed file is searched as it is now, not as the
// cached version was (the search view belongs to one parsed version).
func TestSearchSeesEdits(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.md")
	write := func(text string, mtime time.Time) {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(file, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	write("# A\n\nold words\n", time.Now().Add(-time.Hour))
	lib := openSearchLibrary(t, "frontmatter", dir)
	ctx := context.Background()
	req := SearchRequest{Query: "WORDS", Scope: domain.Scope{Depth: -1}}
	if got, _ := New(lib).SearchDocuments(ctx, req); !strings.Contains(got, "§ _intro L1–3 ~4 tokens\nL3: old words") {
		t.Fatalf("before the edit: got\n%s", got)
	}
	write("# A\n\nnew words\n\nmore words\n", time.Now().Add(-time.Minute))
	got, err := New(lib).SearchDocuments(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "L3: new words") || !strings.Contains(got, "L5: more words") || strings.Contains(got, "old") {
		t.Errorf("after the edit: got\n%s\nwant the new lines only", got)
	}
}

// TestSearchViewsFollowTheCache: the view of a replaced version is dropped
// when the new version's is built, and a collected Library takes its views
// with it.
func TestSearchViewsFollowTheCache(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.md")
	write := func(text string, mtime time.Time) {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(file, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	write("# A\n\nSome Text\n", time.Now().Add(-time.Hour))
	lib := openSearchLibrary(t, "frontmatter", dir)
	ctx := context.Background()
	req := SearchRequest{Query: "text", Scope: domain.Scope{Depth: -1}}
	searcher := New(lib)
	cachedViews := func() (map[*library.Doc]*textmatch.Text, *library.Doc) {
		cat, err := lib.Catalog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		cached, err := lib.Open(ctx, cat.Docs[0]) // the cache's current version
		if err != nil {
			t.Fatal(err)
		}
		vs := &searcher.views
		vs.mu.RLock()
		defer vs.mu.RUnlock()
		if len(vs.byPath) != len(vs.byDoc) {
			t.Errorf("views by path %v and by doc %v disagree", vs.byPath, vs.byDoc)
		}
		return maps.Clone(vs.byDoc), cached
	}
	if _, err := searcher.SearchDocuments(ctx, req); err != nil {
		t.Fatal(err)
	}
	views, first := cachedViews()
	if len(views) != 1 || views[first] == nil {
		t.Fatalf("after one search: views %v, want one for the cached doc %p", views, first)
	}
	write("# A\n\nOther Text, longer\n", time.Now().Add(-time.Minute))
	if _, err := searcher.SearchDocuments(ctx, req); err != nil {
		t.Fatal(err)
	}
	views, second := cachedViews()
	if second == first || len(views) != 1 || views[second] == nil {
		t.Errorf("after an edit: views %v, want only the new version's (%p, old %p)", views, second, first)
	}

}

func TestInnermostSection(t *testing.T) {
	// _preamble L1–2, _intro L3–4, a L5–12 (a/b L7–10 (a/b/c L9–10), a/d L11–12), e L14–15:
	// line 13 is in no section (a gap a parser may leave).
	secs := []domain.Section{
		{ID: "_preamble", Start: 1, End: 2, Parent: -1},
		{ID: "_intro", Start: 3, End: 4, Parent: -1},
		{ID: "a", Start: 5, End: 12, Parent: -1},
		{ID: "a/b", Start: 7, End: 10, Parent: 2},
		{ID: "a/b/c", Start: 9, End: 10, Parent: 3},
		{ID: "a/d", Start: 11, End: 12, Parent: 2},
		{ID: "e", Start: 14, End: 15, Parent: -1},
	}
	want := map[int]string{1: "_preamble", 2: "_preamble", 3: "_intro", 5: "a", 6: "a", 7: "a/b", 8: "a/b", 9: "a/b/c",
		10: "a/b/c", 11: "a/d", 12: "a/d", 13: "", 14: "e", 15: "e", 16: ""}
	for line, w := range want {
		if got := innermostSection(secs, line); got != w {
			t.Errorf("innermostSection(line %d) = %q, want %q", line, got, w)
		}
	}
	if got := innermostSection(nil, 1); got != "" {
		t.Errorf("no sections: got %q", got)
	}
}

func TestTrimAround(t *testing.T) {
	long := strings.Repeat("abcdefghij", 100) // 1000 runes
	tests := []struct {
		name       string
		line       string
		start, end int
		want       func(string) bool
	}{
		{"short line kept", "short\r", 0, 5, func(s string) bool { return s == "short" }},
		{"match at start", "MATCH" + long, 0, 5, func(s string) bool {
			return strings.HasPrefix(s, "MATCH") && strings.HasSuffix(s, "…") && utf8.RuneCountInString(s) == maxHitRunes+1
		}},
		{"match in the middle", long + "MATCH" + long, 1000, 1005, func(s string) bool {
			return strings.HasPrefix(s, "…") && strings.HasSuffix(s, "…") && strings.Contains(s, "MATCH") && utf8.RuneCountInString(s) == maxHitRunes+2
		}},
		{"match at end", long + "MATCH", 1000, 1005, func(s string) bool {
			return strings.HasPrefix(s, "…") && strings.HasSuffix(s, "MATCH") && utf8.RuneCountInString(s) == maxHitRunes+1
		}},
		{"multibyte runes are not split", strings.Repeat("é", 400) + "MATCH" + strings.Repeat("ü", 400), 800, 805, func(s string) bool {
			return utf8.ValidString(s) && strings.Contains(s, "MATCH")
		}},
	}
	for _, tc := range tests {
		if got := trimAround([]byte(tc.line), tc.start, tc.end); !tc.want(got) {
			t.Errorf("%s: got %q (%d runes)", tc.name, got, utf8.RuneCountInString(got))
		}
	}
}

// TestMatcherRandomized runs the reference comparison over random content
// from a small alphabet (so hits are frequent and lines short), covering
// runs of hits on neighbouring and distant lines.
// TestSearchNotesUnreadableDocs: a doc whose file is missing is not
// searched, and a Notes block says so (here the index source's note); the
// others still answer.
func TestSearchNotesUnreadableDocs(t *testing.T) {
	dir := t.TempDir()
	index := `{"documents": [
  {"id": "gone", "path": "gone.md", "title": "Gone", "summary": "", "approx_tokens": 1},
  {"id": "here", "path": "here.md", "title": "Here", "summary": "", "approx_tokens": 1}
]}`
	for name, text := range map[string]string{"index.json": index, "here.md": "# Here\n\nA needle.\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib := openSearchLibrary(t, "json", dir)
	got, err := New(lib).SearchDocuments(context.Background(), SearchRequest{Query: "needle", Scope: domain.Scope{Depth: -1}})
	if err != nil {
		t.Fatal(err)
	}
	want := `1 hit in 1 of 1 doc for "needle" (string, case-insensitive)` + "\n\n" +
		"here (here.md) ~1 tokens\n§ _intro L1–3 ~5 tokens\nL3: A needle.\n\nNotes:\n- missing: documents[0] (id 'gone'): file 'gone.md' not found"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
