package tscompat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
)

// memSource is an in-memory docindex.Source: the docs it lists, in the
// order given, and the files it serves. A doc without a file is listed but
// cannot be read (ErrNotFound), like a file removed after the walk.
type memSource struct {
	docs  []domain.Document
	files map[string]string
}

func (m *memSource) Catalog(context.Context) (*domain.Catalog, error) {
	return &domain.Catalog{Docs: m.docs}, nil
}

func (m *memSource) Stat(_ context.Context, p string) (domain.Stamp, error) {
	s, ok := m.files[p]
	if !ok {
		return domain.Stamp{}, fmt.Errorf("%s: %w", p, domain.ErrNotFound)
	}
	return domain.Stamp{Size: int64(len(s))}, nil
}

func (m *memSource) ReadFile(ctx context.Context, p string) ([]byte, domain.Stamp, error) {
	st, err := m.Stat(ctx, p)
	if err != nil {
		return nil, st, err
	}
	return []byte(m.files[p]), st, nil
}

// tsTestLibrary is a small library in the original's shape: tags already
// inherited (that is the index source's job), one doc without tags, one
// listed doc whose file is gone.
func tsTestLibrary(maxTokens int) *Tools {
	src := &memSource{
		docs: []domain.Document{
			{Path: "a/b/deep.md", Tags: []string{"root", "a", "deep"}},
			{Path: "a/index.md", Tags: []string{"root", "a"}},
			{Path: "a/note.md", Tags: []string{"root", "a", "note"}},
			{Path: "gone.md", Tags: []string{"root"}},
			{Path: "index.md", Tags: []string{"root"}},
			{Path: "plain.md"},
		},
		files: map[string]string{
			"a/b/deep.md": "---\ntags: [deep]\n---\nDeep text.\n",
			"a/index.md":  "---\ntags: [a]\n---\n\n# A\n\nFolder A.\n",
			"a/note.md":   "---\ntags: [note]\n---\nNote: Toast here.\nsecond line",
			"index.md":    "---\ntags: [root]\n---\n# Root\n",
			"plain.md":    "\ufeffNo frontmatter, a.b literal.\n",
		},
	}
	cfg := library.DefaultConfig()
	cfg.MaxAnswerTokens = maxTokens
	return New(library.New(src, goldmarkmarkdown.New(), nil, cfg))
}

func TestTSNormalizePath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "/"},
		{"/", "/"},
		{"///", "/"},
		{"react", "/react"},
		{"/react/", "/react"},
		{"//react//index.md", "/react//index.md"},
		{"hono/api/", "/hono/api"},
		{`\hono\api`, `/\hono\api`},
		{"/hono/../react", "/hono/../react"},
		{" react", "/ react"},
	} {
		if got := tsNormalizePath(tc.in); got != tc.want {
			t.Errorf("tsNormalizePath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTSComparePaths(t *testing.T) {
	// The order of the original's listDocuments at the root of its corpus,
	// abridged: subfolders first, then index.md, then the other files.
	want := []string{
		"/daisyui/colors/overview.md",
		"/daisyui/components/accordion.md",
		"/daisyui/configuration.md",
		"/hono/api/index.md",
		"/hono/api/context.md",
		"/hono/api/routing.md",
		"/hono/middleware/builtin/basic-auth.md",
		"/hono/middleware/index.md",
		"/hono/faq.md",
		"/hono/misc.md",
		"/react/hooks/useLocalStorage.md",
		"/react/index.md",
		"/index.md",
		"/zz.md",
	}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortStableFunc(got, tsComparePaths)
	if !slices.Equal(got, want) {
		t.Errorf("sorted =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if c := tsComparePaths("/a/x.md", "/a/x.md"); c != 0 {
		t.Errorf("tsComparePaths(same) = %d, want 0", c)
	}
}

func TestTSPattern(t *testing.T) {
	for _, tc := range []struct {
		name, query, mode string
		caseSensitive     bool
		text              string
		want              bool
	}{
		{"string is case-insensitive", "TOAST", "string", false, "a toast", true},
		{"string case-sensitive", "TOAST", "string", true, "a toast", false},
		{"empty mode is string", "a.b", "", false, "axb", false},
		{"string is literal", "c.req.param(", "string", false, "c.req.param('id')", true},
		{"string dot is literal", "a.b", "string", false, "axb", false},
		{"empty query matches", "", "string", false, "anything", true},
		{"regex", `\b(jwk|jwt)\(`, "regex", false, "use jwt(opts)", true},
		{"regex case-sensitive", `\bToast\b`, "regex", true, "toast", false},
		{"caret anchors the body, not a line", "^# ", "regex", false, "\n# React", false},
		{"caret at body start", `^\s*# React`, "regex", false, "\n# React", true},
		{"dot does not match newline", "Features....Component", "regex", false, "Features\n\n- Component", false},
		{"class matches newline", `Features[\s\S]{4}Component`, "regex", false, "Features\n\n- Component", true},
		{"invalid regex is a literal", "(unclosed", "regex", false, "an (unclosed paren", true},
		{"invalid regex literal misses", "(unclosed", "regex", false, "unclosed", false},
		{"invalid regex keeps case rule", "APP.GET(", "regex", false, "app.get('/')", true},
		{"RE2 rejects lookbehind: literal", "(?<=use)LocalStorage", "regex", false, "useLocalStorage", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			re, err := tsPattern(tc.query, tc.mode, tc.caseSensitive)
			if err != nil {
				t.Fatal(err)
			}
			if got := re.MatchString(tc.text); got != tc.want {
				t.Errorf("%q (%s) on %q = %v, want %v", tc.query, re, tc.text, got, tc.want)
			}
		})
	}
	if _, err := tsPattern("x", "glob", false); !errors.Is(err, domain.ErrInvalidArgument) {
		t.Errorf("mode glob: err = %v, want ErrInvalidArgument", err)
	}
	if _, err := tsPattern("\xff", "regex", false); !errors.Is(err, domain.ErrInvalidArgument) {
		t.Errorf("non-UTF-8 query: err = %v, want ErrInvalidArgument", err)
	}
}

func TestTSBody(t *testing.T) {
	parser := goldmarkmarkdown.New()
	for _, tc := range []struct{ name, src, want string }{
		{"frontmatter", "---\ntags: [a]\n---\n\n# T\n", "\n# T\n"},
		{"no trailing newline", "---\ntags: [a]\n---\n\nHono.", "\nHono."},
		{"no frontmatter", "# T\n\ntext\n", "# T\n\ntext\n"},
		{"byte order mark", "\ufeff# T\n", "# T\n"},
		{"byte order mark and frontmatter", "\ufeff---\ntags: [a]\n---\nbody\n", "body\n"},
		{"CRLF", "---\r\ntags: [a]\r\n---\r\nbody\r\n", "body\r\n"},
		{"frontmatter only", "---\ntags: [a]\n---", ""},
		{"frontmatter only, newline", "---\ntags: [a]\n---\n", ""},
		{"thematic break is not frontmatter", "text\n---\nmore\n", "text\n---\nmore\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			got := tsBody(&library.Doc{Content: src, Structure: parser.Parse(src)})
			if got != tc.want {
				t.Errorf("tsBody(%q) = %q, want %q", tc.src, got, tc.want)
			}
		})
	}
}

func TestTSListDocuments(t *testing.T) {
	lib := tsTestLibrary(0)
	ctx := context.Background()
	all := "- /a/b/deep.md\n  - tags: root, a, deep\n- /a/index.md\n  - tags: root, a\n- /a/note.md\n  - tags: root, a, note\n" +
		"- /index.md\n  - tags: root\n- /gone.md\n  - tags: root\n- /plain.md\n  - tags: (no tags)"
	for _, tc := range []struct {
		name string
		req  ListRequest
		want string
	}{
		{"everything", ListRequest{Depth: -1}, all},
		{"root as slash", ListRequest{Directory: "/", Depth: -1}, all},
		{"folder", ListRequest{Directory: "/a", Depth: -1},
			"- /a/b/deep.md\n  - tags: root, a, deep\n- /a/index.md\n  - tags: root, a\n- /a/note.md\n  - tags: root, a, note"},
		{"folder without slashes, trailing slash", ListRequest{Directory: "a/", Depth: -1},
			"- /a/b/deep.md\n  - tags: root, a, deep\n- /a/index.md\n  - tags: root, a\n- /a/note.md\n  - tags: root, a, note"},
		{"depth 0 keeps the folder's index.md", ListRequest{Directory: "/a", Depth: 0}, "- /a/index.md\n  - tags: root, a"},
		{"depth 1", ListRequest{Directory: "/a", Depth: 1},
			"- /a/index.md\n  - tags: root, a\n- /a/note.md\n  - tags: root, a, note"},
		{"fractional depth", ListRequest{Directory: "/a", Depth: 1.5},
			"- /a/index.md\n  - tags: root, a\n- /a/note.md\n  - tags: root, a, note"},
		{"negative fractional depth is unlimited", ListRequest{Directory: "/a", Depth: -0.5},
			"- /a/b/deep.md\n  - tags: root, a, deep\n- /a/index.md\n  - tags: root, a\n- /a/note.md\n  - tags: root, a, note"},
		{"root depth 1", ListRequest{Depth: 1},
			"- /index.md\n  - tags: root\n- /gone.md\n  - tags: root\n- /plain.md\n  - tags: (no tags)"},
		{"tags: any", ListRequest{Tags: []string{"note", "deep"}, Depth: -1},
			"- /a/b/deep.md\n  - tags: root, a, deep\n- /a/note.md\n  - tags: root, a, note"},
		{"tags are case-sensitive", ListRequest{Tags: []string{"NOTE"}, Depth: -1}, "No documents found."},
		{"unknown folder", ListRequest{Directory: "/nope", Depth: -1}, "No documents found."},
		{"name prefix is not a folder", ListRequest{Directory: "/a/no", Depth: -1}, "No documents found."},
		{"dot-dot is not cleaned", ListRequest{Directory: "/x/../a", Depth: -1}, "No documents found."},
		{"double slash is not cleaned", ListRequest{Directory: "//a//b", Depth: -1}, "No documents found."},
		{"a file is not a folder", ListRequest{Directory: "/a/note.md", Depth: -1}, "No documents found."},
		{"contents", ListRequest{Directory: "/a", Depth: 1, IncludeContents: true},
			"**/a/index.md**\n- tags: root, a\n======\n\n# A\n\nFolder A.\n\n======\n\n" +
				"**/a/note.md**\n- tags: root, a, note\n======\nNote: Toast here.\nsecond line\n======"},
		{"contents skip an unreadable doc", ListRequest{Depth: 1, IncludeContents: true},
			"**/index.md**\n- tags: root\n======\n# Root\n\n======\n\n" +
				"**/plain.md**\n- tags: (no tags)\n======\nNo frontmatter, a.b literal.\n\n======"},
		{"contents of nothing", ListRequest{Directory: "/nope", Depth: -1, IncludeContents: true}, "No documents found."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lib.ListDocuments(ctx, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestTSSearchDocuments(t *testing.T) {
	lib := tsTestLibrary(0)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		req  SearchRequest
		want string
	}{
		{"string", SearchRequest{Query: "toast", Depth: -1}, "- /a/note.md\n  - tags: root, a, note"},
		{"case-sensitive", SearchRequest{Query: "toast", CaseSensitive: true, Depth: -1}, "No documents found."},
		{"frontmatter is not searched", SearchRequest{Query: "tags:", Depth: -1}, "No documents found."},
		{"regex over lines", SearchRequest{Query: `here\.\nsecond`, Mode: "regex", Depth: -1}, "- /a/note.md\n  - tags: root, a, note"},
		{"regex dot", SearchRequest{Query: "a.b lit", Mode: "regex", Depth: -1}, "- /plain.md\n  - tags: (no tags)"},
		{"scope and tags", SearchRequest{Query: "text", Directory: "a", Tags: []string{"deep"}, Depth: 2}, "- /a/b/deep.md\n  - tags: root, a, deep"},
		{"depth cuts", SearchRequest{Query: "text", Directory: "a", Depth: 1}, "No documents found."},
		{"empty query matches every readable doc", SearchRequest{Query: "", Depth: 1},
			"- /index.md\n  - tags: root\n- /plain.md\n  - tags: (no tags)"},
		{"contents", SearchRequest{Query: "deep", IncludeContents: true, Depth: -1},
			"**/a/b/deep.md**\n- tags: root, a, deep\n======\nDeep text.\n\n======"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lib.SearchDocuments(ctx, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	if _, err := lib.SearchDocuments(ctx, SearchRequest{Query: "x", Mode: "glob"}); !errors.Is(err, domain.ErrInvalidArgument) {
		t.Errorf("mode glob: err = %v, want ErrInvalidArgument", err)
	}
	// Issue 14.4: an 8 MB query is refused, not compiled (12.8 s, 2.4 GB).
	if _, err := lib.SearchDocuments(ctx, SearchRequest{Query: strings.Repeat("a", 8<<20), Depth: -1}); !errors.Is(err, domain.ErrInvalidArgument) || len(err.Error()) > 400 {
		t.Errorf("an 8 MB query: err = %.300v, want a short ErrInvalidArgument", err)
	}
}

func TestTSGetDocument(t *testing.T) {
	lib := tsTestLibrary(0)
	ctx := context.Background()
	want := "**/a/index.md**\n- tags: root, a\n======\n\n# A\n\nFolder A.\n\n======"
	for _, p := range []string{"/a/index.md", "a/index.md", "//a/index.md/"} {
		got, err := lib.GetDocument(ctx, p)
		if err != nil {
			t.Fatalf("TSGetDocument(%q): %v", p, err)
		}
		if got != want {
			t.Errorf("TSGetDocument(%q) =\n%s\nwant\n%s", p, got, want)
		}
	}
	for _, p := range []string{"/a/index", "/A/index.md", `\a\index.md`, "/a//index.md", "/x/../a/index.md", "/a", "/gone.md", "../a/index.md"} {
		_, err := lib.GetDocument(ctx, p)
		if !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("TSGetDocument(%q): err = %v, want ErrNotFound", p, err)
			continue
		}
		if got, want := err.Error(), "Document not found: "+p; got != want {
			t.Errorf("TSGetDocument(%q): err = %q, want %q", p, got, want)
		}
	}
	// Issue 20: a 70,000-character path came back whole, NUL bytes
	// included; it is escaped and cut, with its size.
	long := strings.Repeat("ab/\x00x", 14_000)
	_, err := lib.GetDocument(ctx, long)
	want = "Document not found: " + strings.Repeat(`ab/\x00x`, 20) + "… (70000 bytes in all)"
	if err == nil || err.Error() != want {
		t.Errorf("TSGetDocument(70,000 characters): err = %.300v, want %q", err, want)
	}
}

func TestTSGetDocuments(t *testing.T) {
	lib := tsTestLibrary(0)
	ctx := context.Background()
	index := "**/index.md**\n- tags: root\n======\n# Root\n\n======"
	note := "**/a/note.md**\n- tags: root, a, note\n======\nNote: Toast here.\nsecond line\n======"
	for _, tc := range []struct {
		name  string
		paths []string
		want  string
	}{
		{"in the order given", []string{"a/note.md", "/index.md"}, note + "\n\n" + index},
		{"duplicates repeat", []string{"/index.md", "index.md"}, index + "\n\n" + index},
		{"unknown and unreadable left out", []string{"/nope.md", "/a/note.md", "/gone.md"}, note},
		{"nothing found", []string{"/nope.md"}, "No documents found."},
		{"nothing asked", nil, "No documents found."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lib.GetDocuments(ctx, tc.paths)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestTSListTags(t *testing.T) {
	lib := tsTestLibrary(0)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		req  TagsRequest
		want string
	}{
		{"counts, most used first, ties in first-seen order", TagsRequest{Depth: -1},
			"- root (5)\n- a (3)\n- deep (1)\n- note (1)"},
		{"with paths", TagsRequest{Directory: "/a", Depth: 1, IncludeFilepaths: true},
			"- root (2)\n  - /a/index.md\n  - /a/note.md\n- a (2)\n  - /a/index.md\n  - /a/note.md\n- note (1)\n  - /a/note.md"},
		{"empty folder", TagsRequest{Directory: "/nope", Depth: -1}, "No tags found."},
		{"depth 0 keeps only the root index.md", TagsRequest{Directory: "", Depth: 0}, "- root (1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lib.ListTags(ctx, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestTSAnswerBudget(t *testing.T) {
	// 10 tokens = 40 bytes: the first entry always goes out whole, the
	// next ones only while the answer stays within 40 bytes.
	lib := tsTestLibrary(10)
	ctx := context.Background()

	got, err := lib.ListDocuments(ctx, ListRequest{Depth: -1})
	if err != nil {
		t.Fatal(err)
	}
	want := "- /a/b/deep.md\n  - tags: root, a, deep\n\n" +
		"Left out (answer limit of ~10 tokens reached): 5 more documents. Narrow directory, tags or depth."
	if got != want {
		t.Errorf("list: got\n%s\nwant\n%s", got, want)
	}

	got, err = lib.GetDocuments(ctx, []string{"/index.md", "/a/note.md", "/plain.md"})
	if err != nil {
		t.Fatal(err)
	}
	want = "**/index.md**\n- tags: root\n======\n# Root\n\n======\n\n" +
		"Left out (answer limit of ~10 tokens reached): 2 more documents. Fetch them with getDocuments in another call: /a/note.md, /plain.md"
	if got != want {
		t.Errorf("getDocuments: got\n%s\nwant\n%s", got, want)
	}

	got, err = lib.ListTags(ctx, TagsRequest{Depth: -1, IncludeFilepaths: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "- root (5)\n") || !strings.HasSuffix(got, "\n\nLeft out (answer limit of ~10 tokens reached): 3 more tags. Narrow directory or depth, or leave out includeFilepaths.") {
		t.Errorf("tags: got\n%s", got)
	}

	// A single document is never cut, whatever its size.
	got, err = lib.GetDocument(ctx, "/a/note.md")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "Left out") {
		t.Errorf("getDocument was cut:\n%s", got)
	}
}

func TestTSLeftOutNamesAtMostFiftyPaths(t *testing.T) {
	lib := tsTestLibrary(1)
	paths := make([]string, 60)
	for i := range paths {
		paths[i] = fmt.Sprintf("/p%02d.md", i)
	}
	got := lib.tsLeftOut(60, "documents", "Fetch them:", paths)
	if !strings.HasSuffix(got, " /p49.md ... and 10 more") || strings.Contains(got, "/p50.md") {
		t.Errorf("tsLeftOut = %q", got)
	}
}
