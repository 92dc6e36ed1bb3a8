package app

import (
	"context"
	"errors"
	"flag"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
	"weak"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/domain"
)

// searchLibRoot is the small library of the search and tags tests: the same
// files read with both conventions (index.json's tags are the ones the
// frontmatter convention inherits).
const searchLibRoot = "testdata/search/lib"

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
		t.Fatalf("%v (run go test ./app -run %s -update to create it)", err, t.Name())
	}
	if got+"\n" != string(want) {
		t.Errorf("%s: got\n%s\nwant\n%s", file, got, want)
	}
}

// openSearchLibrary opens the test library with the real adapters of one
// convention.
func openSearchLibrary(t testing.TB, convention, root string) *Library {
	t.Helper()
	switch convention {
	case "json":
		src, err := jsonindex.New(root, "index.json")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { src.Close() })
		return NewLibrary(src, goldmarkmarkdown.New(), nil, DefaultLibraryConfig())
	case "frontmatter":
		src, err := frontmatterindex.New(root)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { src.Close() })
		return NewLibrary(src, goldmarkmarkdown.New(), nil, DefaultLibraryConfig())
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
	{"token", SearchRequest{Query: "token", Scope: Scope{Depth: -1}}},
	{"token-case-sensitive", SearchRequest{Query: "Token", CaseSensitive: true, Scope: Scope{Depth: -1}}},
	{"token-max-3", SearchRequest{Query: "token", MaxResults: 3, Scope: Scope{Depth: -1}}},
	{"token-max-5", SearchRequest{Query: "token", MaxResults: 5, Scope: Scope{Depth: -1}}},
	// Only in frontmatter (summary lines): never a hit.
	{"frontmatter-excluded", SearchRequest{Query: "summary", Scope: Scope{Depth: -1}}},
	{"nothing", SearchRequest{Query: "kubernetes", Scope: Scope{Depth: -1}}},
	// Filters: root, tags ANY, depth (index.md at depth 0).
	{"root-backend", SearchRequest{Query: "token", Scope: Scope{Root: "backend", Depth: -1}}},
	{"root-backend-depth-0", SearchRequest{Query: "gateway", Scope: Scope{Root: "/backend/", Depth: 0}}},
	{"root-depth-1", SearchRequest{Query: "e", Scope: Scope{Depth: 1}}},
	{"tags-any", SearchRequest{Query: "the", Scope: Scope{Tags: []string{"onboarding", "storage"}, Depth: -1}}},
	{"tags-none-match", SearchRequest{Query: "the", Scope: Scope{Tags: []string{"nosuch"}, Depth: -1}}},
	// Unicode folding, CRLF lines, a long line cut around its match.
	{"unicode-cafe", SearchRequest{Query: "CAFÉ", Scope: Scope{Depth: -1}}},
	{"unicode-ecole", SearchRequest{Query: "école", Scope: Scope{Depth: -1}}},
	{"kelvin", SearchRequest{Query: "kelvin", Scope: Scope{Depth: -1}}},
	{"long-line", SearchRequest{Query: "rotation key", Scope: Scope{Depth: -1}}},
	// Regexes.
	{"regex-headings", SearchRequest{Query: `^#{2,3} `, Mode: SearchRegex, Scope: Scope{Root: "backend", Depth: -1}}},
	{"regex-text-anchor", SearchRequest{Query: `\A#{2,3} `, Mode: SearchRegex, Scope: Scope{Root: "backend", Depth: -1}}},
	{"regex-word", SearchRequest{Query: `\bttl\b`, Mode: SearchRegex, Scope: Scope{Depth: -1}}},
	{"regex-case-sensitive", SearchRequest{Query: `\bTTL\b`, Mode: SearchRegex, CaseSensitive: true, Scope: Scope{Depth: -1}}},
	{"regex-across-lines", SearchRequest{Query: `refresh\s+token`, Mode: SearchRegex, Scope: Scope{Depth: -1}}},
	{"regex-preamble", SearchRequest{Query: `first`, Mode: SearchRegex, Scope: Scope{Root: "guides", Depth: -1}}},
}

func TestSearchDocumentsGolden(t *testing.T) {
	for _, conv := range conventions {
		lib := openSearchLibrary(t, conv, searchLibRoot)
		for _, c := range searchCases {
			t.Run(conv+"/"+c.name, func(t *testing.T) {
				got, err := lib.SearchDocuments(context.Background(), c.req)
				if err != nil {
					t.Fatalf("SearchDocuments(%+v) error: %v", c.req, err)
				}
				checkGolden(t, filepath.Join("testdata/search/golden", conv, "search-"+c.name+".txt"), got)
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
			got, err := lib.SearchDocuments(ctx, req)
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
			{"summary line and section ids", SearchRequest{Query: "token", Scope: Scope{Depth: -1}}, []string{
				`12 hits in 4 of 7 docs for "token" (string, case-insensitive)`,
				authID + " (backend/auth.md) · tags: handbook, backend, security",
				"L8 § _intro: Gateway token validation",
				"L21 § refresh-tokens/rotation: Every refresh returns a NEW refresh token",
				"L15 § refresh-tokens: ## Refresh tokens",
				"L33 § refresh-tokens/reuse-detection: A revoked Token presented again",
				"L3 § why-tokens: ## Why tokens?",
			}, []string{"summary:", "L3 § _intro"}},
			{"case-sensitive", SearchRequest{Query: "Token", CaseSensitive: true, Scope: Scope{Depth: -1}}, []string{
				"L33 § refresh-tokens/reuse-detection: A revoked Token", "(string, case-sensitive)",
			}, []string{"L8 "}},
			{"max_results cut", SearchRequest{Query: "token", MaxResults: 3, Scope: Scope{Depth: -1}}, []string{
				"L15 § refresh-tokens", "… 9 more hits in 4 docs not shown (max_results=3)",
			}, nil},
			{"frontmatter never searched", SearchRequest{Query: "tags:", Scope: Scope{Depth: -1}}, []string{`No hits for "tags:" in 7 docs (string, case-insensitive).`}, nil},
			{"index.md at depth 0", SearchRequest{Query: "gateway", Scope: Scope{Root: "backend", Depth: 0}}, []string{
				"1 hit in 1 of 1 doc", "L7 § _intro: Everything behind the gateway",
			}, []string{"auth.md"}},
			{"tags ANY", SearchRequest{Query: "the", Scope: Scope{Tags: []string{"onboarding", "storage"}, Depth: -1}}, []string{
				"(guides/getting-started.md)", "(backend/storage/caching.md)",
			}, []string{"(backend/auth.md)"}},
			{"preamble and CRLF", SearchRequest{Query: "first", Scope: Scope{Root: "guides", Depth: -1}}, []string{
				"L4 § _preamble: Read this first.\n", "L14 § first-change: ## First change",
			}, []string{"\r"}},
			{"unicode folding", SearchRequest{Query: "école", Scope: Scope{Depth: -1}}, []string{"L12 § setup: Run make setup. The ÉCOLE mirror"}, nil},
			{"kelvin sign folds to k", SearchRequest{Query: "KELVIN", Scope: Scope{Depth: -1}}, []string{"Temperatures are stored in \u212Aelvin"}, nil},
			{"long line cut", SearchRequest{Query: "rotation key", Scope: Scope{Depth: -1}}, []string{"…", "the ROTATION key is fetched"}, nil},
			{"regex across lines", SearchRequest{Query: `refresh\s+token`, Mode: SearchRegex, Scope: Scope{Depth: -1}}, []string{"L8 ", "L13 ", "L21 "}, []string{"L28 ", "L29 "}},
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
			caret := search(SearchRequest{Query: `^#{2,3} `, Mode: SearchRegex, Scope: Scope{Depth: -1}})
			anchor := search(SearchRequest{Query: `\A#{2,3} `, Mode: SearchRegex, Scope: Scope{Depth: -1}})
			if strings.SplitN(caret, "\n", 2)[1] != strings.SplitN(anchor, "\n", 2)[1] {
				t.Errorf(`\A: got\n%s\nwant the hits of ^:\n%s`, anchor, caret)
			}
		})
		t.Run(conv+"/long line is cut to about 300 runes", func(t *testing.T) {
			for _, line := range strings.Split(search(SearchRequest{Query: "rotation key", Scope: Scope{Depth: -1}}), "\n") {
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
		{"unknown root", SearchRequest{Query: "x", Scope: Scope{Root: "nosuch"}}, "no folder 'nosuch' in the library", domain.ErrNotFound},
		{"root outside", SearchRequest{Query: "x", Scope: Scope{Root: "../x"}}, "may not contain '..'", domain.ErrRefused},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lib.SearchDocuments(context.Background(), tc.req)
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
	req := SearchRequest{Query: "WORDS", Scope: Scope{Depth: -1}}
	if got, _ := lib.SearchDocuments(ctx, req); !strings.Contains(got, "L3 § _intro: old words") {
		t.Fatalf("before the edit: got\n%s", got)
	}
	write("# A\n\nnew words\n\nmore words\n", time.Now().Add(-time.Minute))
	got, err := lib.SearchDocuments(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "L3 § _intro: new words") || !strings.Contains(got, "L5 § _intro: more words") || strings.Contains(got, "old") {
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
	req := SearchRequest{Query: "text", Scope: Scope{Depth: -1}}
	cachedViews := func() (map[*parsedDoc]*searchView, *parsedDoc) {
		lib.mu.Lock()
		cached := lib.cache["a.md"]
		lib.mu.Unlock()
		vs := lib.views()
		vs.mu.RLock()
		defer vs.mu.RUnlock()
		if len(vs.byPath) != len(vs.byDoc) {
			t.Errorf("views by path %v and by doc %v disagree", vs.byPath, vs.byDoc)
		}
		return maps.Clone(vs.byDoc), cached
	}
	if _, err := lib.SearchDocuments(ctx, req); err != nil {
		t.Fatal(err)
	}
	views, first := cachedViews()
	if len(views) != 1 || views[first] == nil {
		t.Fatalf("after one search: views %v, want one for the cached doc %p", views, first)
	}
	if got := string(views[first].lowered(first.content)); got != "# a\n\nsome text\n" {
		t.Errorf("lowered copy: got %q", got)
	}
	write("# A\n\nOther Text, longer\n", time.Now().Add(-time.Minute))
	if _, err := lib.SearchDocuments(ctx, req); err != nil {
		t.Fatal(err)
	}
	views, second := cachedViews()
	if second == first || len(views) != 1 || views[second] == nil {
		t.Errorf("after an edit: views %v, want only the new version's (%p, old %p)", views, second, first)
	}

	// A Library no one references is collected, and its views with it.
	key := weak.Make(lib)
	lib = nil
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		if _, ok := libraryViews.Load(key); !ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the views of a collected Library are still held")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestMatcherAgainstReference compares the three scan strategies with a
// plain per-line reference over awkward content: no trailing newline, CRLF,
// frontmatter, empty lines, the two non-ASCII runes that fold to k and s.
func TestMatcherAgainstReference(t *testing.T) {
	docs := []struct {
		content string
		fm      int
	}{
		{"", 0},
		{"\n", 0},
		{"\n\n\n", 0},
		{"abc\nABC\r\nxyz", 0},
		{"---\ntoken: x\n---\ntoken\nTOKEN here\n", 3},
		{"---\ntitle: x\n---", 3},
		{"\u212Aelvin kelvin\nſtop stop\nKELVIN\nSTOP\n", 0},
		{"Café crème\nCAFÉ\nécole ÉCOLE\n", 0},
		{"refresh\ntoken\nrefresh token\nrefresh  \t token_id\n", 0},
		{"a b\nab\nb a\n\nend", 0},
		{strings.Repeat("the quick brown fox jumps over the lazy dog; ", 50) + "\nshort\n" + strings.Repeat("x", 1000) + "token\n", 0},
	}
	type q struct {
		query string
		mode  string
		cs    bool
	}
	var queries []q
	for _, s := range []string{"token", "Token", "k", "s", "kelvin", "STOP", "é", "É", "café", "x", " ", "ab", "the", "\r", "fox jumps"} {
		queries = append(queries, q{s, SearchString, false}, q{s, SearchString, true})
	}
	for _, s := range []string{`^token$`, `\Atoken`, `token\z`, `\s+`, `(?s)a.*b`, `refresh\s+token`, `^$`, `a*`, `\btok\w*`,
		`(?i)KELVIN`, `k`, `[kK]elvin`, `x\ny`, `(foo|token)s?`, `$`, `^`, `\w+_id\b`, `T(oken)+`, `(?-m)^ab$`, `é+`, `caf.`, `o\r$`, `x{3,}token`,
		`token|stop`, `caf|kelvin`, `ab|ba`, `é|x`, `(?-i:Token)|here`, `re(fresh|token)`,
		`\d+`, `[0-9]{2}`, `[-;]`, `x|[0-9]`, `[é0-9]`, `\s\S`, `[^a-z ]`, `\n`, `x|\n`, `[\n\r]`} {
		queries = append(queries, q{s, SearchRegex, false}, q{s, SearchRegex, true})
	}
	defer func(w int) { regexWindow = w }(regexWindow)
	for _, window := range []int{1, 3, 40, 1024} {
		regexWindow = window
		for _, d := range docs {
			p := &parsedDoc{content: []byte(d.content), structure: domain.Structure{FrontmatterEnd: d.fm}}
			for _, qq := range queries {
				m, err := newMatcher(SearchRequest{Query: qq.query, Mode: qq.mode, CaseSensitive: qq.cs})
				if err != nil {
					t.Fatalf("newMatcher(%q): %v", qq.query, err)
				}
				var hits []hit
				v := newSearchView(p.content)
				n := m.scan(p, v, -1, &hits)
				var got []int
				for _, h := range hits {
					got = append(got, h.line)
					line := v.line(p.content, h.line)
					if h.start < 0 || h.end > len(line) || h.start > h.end {
						t.Errorf("%q in %q: hit %+v outside its line %q", qq.query, d.content, h, line)
					} else if !m.lineRe.Match(line[h.start:]) {
						t.Errorf("%q in %q: hit %+v does not start a match in %q", qq.query, d.content, h, line)
					}
				}
				want := referenceLines(d.content, d.fm, qq.query, qq.mode, qq.cs)
				if n != len(got) || !slices.Equal(got, want) {
					t.Errorf("%s %q (case-sensitive %v, window %d) in %q: got lines %v (count %d), want %v", qq.mode, qq.query, qq.cs, window, d.content, got, n, want)
				}
				if len(want) > 1 {
					var first []hit
					if k := m.scan(p, newSearchView(p.content), 1, &first); k != 1 || first[0].line != want[0] {
						t.Errorf("%q in %q with limit 1: got %d hits %+v, want line %d", qq.query, d.content, k, first, want[0])
					}
				}
			}
		}
	}
}

// referenceLines is the slow, obvious search: split the lines, and test
// each one alone (a string by folding every substring, a regex on the
// line).
func referenceLines(content string, fm int, query, mode string, caseSensitive bool) []int {
	if content == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	var re *regexp.Regexp
	if mode == SearchRegex {
		expr := query
		if !caseSensitive {
			expr = "(?i)" + expr
		}
		re = regexp.MustCompile(expr)
	}
	var out []int
	for i, line := range lines {
		if i+1 <= fm {
			continue
		}
		var ok bool
		switch {
		case re != nil:
			ok = re.MatchString(line)
		case caseSensitive:
			ok = strings.Contains(line, query)
		default:
			for s := 0; s < len(line) && !ok; s++ {
				for e := s + 1; e <= len(line); e++ {
					if strings.EqualFold(line[s:e], query) {
						ok = true
						break
					}
				}
			}
		}
		if ok {
			out = append(out, i+1)
		}
	}
	return out
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
func TestMatcherRandomized(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	alphabet := []string{"a", "b", "A", "B", "k", "K", "\u212A", "ſ", "s", " ", "-", "\n", "\n", "\n\n", "\r\n", "ab", "é", "É"}
	queries := []struct{ query, mode string }{
		{"a", SearchString}, {"ab", SearchString}, {"AB", SearchString}, {"k", SearchString}, {"s", SearchString},
		{"é", SearchString}, {"a b", SearchString}, {"-", SearchString},
		{`a+b`, SearchRegex}, {`^a`, SearchRegex}, {`b$`, SearchRegex}, {`\bk\b`, SearchRegex}, {`(?s)a.b`, SearchRegex},
		{`a\s+b`, SearchRegex}, {`\Ab`, SearchRegex}, {`[ks]{2}`, SearchRegex}, {`^$`, SearchRegex}, {`é|É`, SearchRegex},
		{`ab|ba`, SearchRegex}, {`k|s`, SearchRegex}, {`a b|-`, SearchRegex}, {`(?-i:A)|b`, SearchRegex},
		{`[ab]`, SearchRegex}, {`\s`, SearchRegex}, {`[-\r]`, SearchRegex}, {`[é-]`, SearchRegex}, {`-|[ab]{2}`, SearchRegex},
	}
	defer func(w int) { regexWindow = w }(regexWindow)
	for iter := 0; iter < 300; iter++ {
		// Small regex windows, so window edges fall everywhere.
		regexWindow = []int{1, 5, 16, 1024}[iter%4]
		var b strings.Builder
		for n := rng.IntN(200); n > 0; n-- {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		content := b.String()
		fm := 0
		if lines := strings.Count(content, "\n"); lines > 0 {
			fm = rng.IntN(lines + 1)
		}
		p := &parsedDoc{content: []byte(content), structure: domain.Structure{FrontmatterEnd: fm}}
		for _, q := range queries {
			for _, cs := range []bool{false, true} {
				m, err := newMatcher(SearchRequest{Query: q.query, Mode: q.mode, CaseSensitive: cs})
				if err != nil {
					t.Fatal(err)
				}
				var hits []hit
				m.scan(p, newSearchView(p.content), -1, &hits)
				var got []int
				for _, h := range hits {
					got = append(got, h.line)
				}
				if want := referenceLines(content, fm, q.query, q.mode, cs); !slices.Equal(got, want) {
					t.Fatalf("%s %q (case-sensitive %v, frontmatter to L%d) in %q: got lines %v, want %v", q.mode, q.query, cs, fm, content, got, want)
				}
			}
		}
	}
}

func TestRequiredLiterals(t *testing.T) {
	tests := []struct {
		expr string
		want string // the set's texts joined by |, folded ones marked with ~; "" for none
	}{
		{`token`, "token"},
		{`(?i)Token`, "~token"},
		{`\w+_token_id\b`, "_token_id"},
		{`(?i)\w+_Token_ID\b`, "~_token_id"},
		{`refresh|rotation`, "efresh|otation"},
		{`(?i)refresh|rotation`, "~efresh|~otation"},
		{`foo|[0-9]+`, ""},
		{`colou?r`, "colo"},
		{`(ab)+c?`, "ab"},
		{`(ab)*c`, "c"},
		{`x{0,3}yz`, "yz"},
		{`[a-z]+-[0-9]{4}`, "-"},
		{`\b[0-9]{4}\b`, ""},
		{`(?i)café`, "~caf"},
		{`(?i)école`, "~cole"},
		{`(?i)é`, ""},
		{`a|b|c|d|e|f|g|h|i`, ""},
	}
	for _, tc := range tests {
		tree, err := syntax.Parse(tc.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, l := range requiredLiterals(tree) {
			mark := ""
			if l.fold {
				mark = "~"
			}
			parts = append(parts, mark+string(l.text))
		}
		if got := strings.Join(parts, "|"); got != tc.want {
			t.Errorf("requiredLiterals(%s) = %q, want %q", tc.expr, got, tc.want)
		}
	}
}

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
	got, err := lib.SearchDocuments(context.Background(), SearchRequest{Query: "needle", Scope: Scope{Depth: -1}})
	if err != nil {
		t.Fatal(err)
	}
	want := `1 hit in 1 of 1 doc for "needle" (string, case-insensitive)` + "\n\n" +
		"here (here.md)\nL3 § _intro: A needle.\n\nNotes:\n- missing: documents[0] (id 'gone'): file 'gone.md' not found"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestRequiredBytes(t *testing.T) {
	tests := []struct {
		expr string
		want string // the set's bytes, "" for none; \x80 stands for all of 0x80-0xff
	}{
		{`\d{4}`, "0123456789"},
		{`\b[0-9]{4}\b`, "0123456789"},
		{`(?i)\b[0-9]{4}\b`, "0123456789"},
		{`[a-c]+-?x`, "x"},
		{`x|[0-9]`, "0123456789x"},
		{`(?i)k`, "Kk\x80"},
		{`[é-]`, "-\x80"},
		{`\s`, "\t\n\f\r "},
		{`.`, ""},
		{`a*`, ""},
		{`x|.`, ""},
	}
	for _, tc := range tests {
		tree, err := syntax.Parse(tc.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if set := requiredBytes(tree); set != nil {
			var b strings.Builder
			for c := 0; c < 0x80; c++ {
				if set[c] {
					b.WriteByte(byte(c))
				}
			}
			if set[0x80] {
				b.WriteString("\x80")
				for c := 0x80; c <= 0xff; c++ {
					if !set[c] {
						t.Errorf("requiredBytes(%s) holds 0x80 but not %#x", tc.expr, c)
					}
				}
			}
			got = b.String()
		}
		if got != tc.want {
			t.Errorf("requiredBytes(%s) = %q, want %q", tc.expr, got, tc.want)
		}
	}
}
