package extract

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/domain"
)

// fence returns the code block of a fenced block at lines start..end.
func fence(info string, start, end int) domain.CodeBlock {
	return domain.CodeBlock{Info: info, Fence: "```", Start: start, End: end, Closed: true}
}

func TestExtractNamesHeadingsAndCode(t *testing.T) {
	doc := strings.Join([]string{
		"# Auth",                // 1
		"",                      // 2
		"## Gateway validation", // 3
		"```go",                 // 4
		"func (g *Gateway) Validate(r *http.Request) (Claims, error) {", // 5
		"type Claims struct {",              // 6
		"const MaxAge = 10",                 // 7
		"```",                               // 8
		"```python",                         // 9
		"def require_session(request):",     // 10
		"class SessionStore(Base):",         // 11
		"SESSION_TTL_SECONDS = 3600",        // 12
		"@app.post(\"/account/reset\")",     // 13
		"```",                               // 14
		"```js",                             // 15
		"app.get('/api/users', listUsers);", // 16
		"export const fetchUser = async (id) => {", // 17
		"export function render(props) {",          // 18
		"export { a, b as c };",                    // 19
		"export const API_BASE = '/v1';",           // 20
		"// function commented(x) {",               // 21
		"```",                                      // 22
	}, "\n") + "\n"
	s := domain.Structure{Lines: 22, Sections: []domain.Section{
		{ID: "_intro", Heading: "Auth", Level: 1, Start: 1, End: 2, Parent: -1, Depth: 1},
		{ID: "gateway-validation", Slug: "gateway-validation", Heading: "Gateway validation", Level: 2, Start: 3, End: 22, Parent: -1, Depth: 1},
	}, CodeBlocks: []domain.CodeBlock{fence("go", 4, 8), fence("python", 9, 14), fence("js", 15, 22)}}
	got := Names([]byte(doc), s)
	want := []domain.Name{
		{Kind: domain.NameHeading, Name: "Auth", Line: 1, Signature: "§ _intro"},
		{Kind: domain.NameHeading, Name: "Gateway validation", Line: 3, Signature: "§ gateway-validation"},
		{Kind: domain.NameFunction, Name: "Validate", Line: 5, Signature: "(r *http.Request) (Claims, error)"},
		{Kind: domain.NameType, Name: "Claims", Line: 6, Signature: "struct"},
		{Kind: domain.NameConstant, Name: "MaxAge", Line: 7, Signature: "= 10"},
		{Kind: domain.NameFunction, Name: "require_session", Line: 10, Signature: "(request)"},
		{Kind: domain.NameClass, Name: "SessionStore", Line: 11, Signature: "(Base)"},
		{Kind: domain.NameConstant, Name: "SESSION_TTL_SECONDS", Line: 12, Signature: "3600"},
		{Kind: domain.NameRoute, Name: "POST /account/reset", Line: 13},
		{Kind: domain.NameRoute, Name: "GET /api/users", Line: 16, Signature: "listUsers"},
		{Kind: domain.NameFunction, Name: "fetchUser", Line: 17, Signature: "(id)"},
		{Kind: domain.NameFunction, Name: "render", Line: 18, Signature: "(props)"},
		{Kind: domain.NameVariable, Name: "a", Line: 19, Signature: "export"},
		{Kind: domain.NameVariable, Name: "c", Line: 19, Signature: "export"},
		{Kind: domain.NameConstant, Name: "API_BASE", Line: 20, Signature: "= '/v1'"},
	}
	diffNames(t, got, want)
}

func TestExtractNamesConfigFlagsAndProse(t *testing.T) {
	doc := strings.Join([]string{
		"---",                 // 1
		"title: `not_a_name`", // 2
		"---",                 // 3
		"Set `compatibility_flags` in wrangler.toml, or pass `--radius-field 2` to the CLI.", // 4
		"```toml", // 5
		"[site]",  // 6
		"compatibility_flags = [\"nodejs_compat\"]", // 7
		"# comment = 1", // 8
		"```",           // 9
		"```css",        // 10
		"  --radius-field: 0.25rem; /* fields */", // 11
		"```",   // 12
		"```sh", // 13
		"LIBRARY_ROOT=./docs librarian --max-tokens 100 serve", // 14
		"```", // 15
		"See src/web/auth_middleware.py and `package.json`, not https://x.io/a/b.html or e.g. v1.2.",  // 16
		"Call `resize_photo(img, 800)`; the key is `SESSION_TTL_SECONDS`; logs `auth.refresh.reuse`.", // 17
		"```sql", // 18
		"CREATE TABLE IF NOT EXISTS refresh_tokens (", // 19
		"```", // 20
		"Migrations live in `db/migrations/`; the hook is `hono/adapter`.", // 21
	}, "\n")
	s := domain.Structure{Lines: 21, FrontmatterEnd: 3, CodeBlocks: []domain.CodeBlock{fence("toml", 5, 9), fence("css", 10, 12), fence("sh", 13, 15), fence("sql", 18, 20)}}
	got := Names([]byte(doc), s)
	want := []domain.Name{
		{Kind: domain.NameConfigKey, Name: "compatibility_flags", Line: 4},
		{Kind: domain.NameFlag, Name: "--radius-field", Line: 4},
		{Kind: domain.NameFile, Name: "wrangler.toml", Line: 4},
		{Kind: domain.NameConfigKey, Name: "site", Line: 6},
		{Kind: domain.NameConfigKey, Name: "compatibility_flags", Line: 7, Signature: `["nodejs_compat"]`},
		{Kind: domain.NameConfigKey, Name: "--radius-field", Line: 11, Signature: "0.25rem"},
		{Kind: domain.NameConfigKey, Name: "LIBRARY_ROOT", Line: 14, Signature: "=./docs librarian --max-tokens 100 serve"},
		{Kind: domain.NameFlag, Name: "--max-tokens", Line: 14},
		{Kind: domain.NameFile, Name: "src/web/auth_middleware.py", Line: 16},
		{Kind: domain.NameFile, Name: "package.json", Line: 16},
		{Kind: domain.NameFunction, Name: "resize_photo", Line: 17, Signature: "(img, 800)"},
		{Kind: domain.NameConstant, Name: "SESSION_TTL_SECONDS", Line: 17},
		{Kind: domain.NameConfigKey, Name: "auth.refresh.reuse", Line: 17},
		{Kind: domain.NameType, Name: "refresh_tokens", Line: 19, Signature: "("},
		{Kind: domain.NameFile, Name: "db/migrations/", Line: 21},
		{Kind: domain.NameFile, Name: "hono/adapter", Line: 21},
	}
	diffNames(t, got, want)
}

func TestExtractNamesUnclosedFenceAndEmpty(t *testing.T) {
	if got := Names(nil, domain.Structure{}); len(got) != 0 {
		t.Errorf("empty doc: got %v", got)
	}
	doc := "```go\nfunc Open(path string) error\n"
	got := Names([]byte(doc), domain.Structure{Lines: 2, CodeBlocks: []domain.CodeBlock{{Info: "go", Fence: "```", Start: 1, End: 2}}})
	diffNames(t, got, []domain.Name{{Kind: domain.NameFunction, Name: "Open", Line: 2, Signature: "(path string) error"}})
}

func diffNames(t *testing.T, got, want []domain.Name) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	var b strings.Builder
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w string
		if i < len(got) {
			g = fmt.Sprintf("%+v", got[i])
		}
		if i < len(want) {
			w = fmt.Sprintf("%+v", want[i])
		}
		mark := "  "
		if g != w {
			mark = "!!"
		}
		fmt.Fprintf(&b, "%s got  %s\n   want %s\n", mark, g, w)
	}
	t.Errorf("names differ:\n%s", b.String())
}

// TestExtractNamesLinear: the time grows with the doc, not faster. A doc
// four times longer (pathological lines of backticks, brackets and wiki
// links, and many code lines) takes at most about four times as long: a
// quadratic scan would take sixteen. Each size is timed five times and the
// fastest kept, in up to three rounds, so a busy machine does not decide.
func TestExtractNamesLinear(t *testing.T) {
	doc := func(n int) ([]byte, domain.Structure) {
		line := strings.Repeat("`a`` [x](y ![[z]] --f-g `", n/10)
		code := "```js\n" + strings.Repeat("app.get('/a', function f(x) { const A_B = 1 })\n", n) + "```\n"
		prose := strings.Repeat("See `db/x.md` and [y](../y.md) at src/a/b.go, [[w|v]].\n", n)
		return []byte(line + "\n" + code + prose), domain.Structure{Lines: 2*n + 3, CodeBlocks: []domain.CodeBlock{fence("js", 2, n+2)}}
	}
	fastest := func(n int) time.Duration {
		src, s := doc(n)
		best := time.Duration(1 << 62)
		for range 5 {
			begin := time.Now()
			Names(src, s)
			Links(src, s, "a/b.md")
			best = min(best, time.Since(begin))
		}
		return best
	}
	// A quadratic scan is 16x in every round; a linear one is about 4x in
	// some round even on a loaded machine (one round at 9x was seen once
	// under -race with the other core busy).
	var ratios []string
	for range 3 {
		small, large := fastest(400), fastest(1600)
		ratio := float64(large) / float64(small)
		if ratio <= 8 {
			return
		}
		ratios = append(ratios, fmt.Sprintf("%.1fx (%s vs %s)", ratio, large, small))
	}
	t.Errorf("4x the doc took %s the time in each of three rounds: not linear", strings.Join(ratios, ", "))
}

func FuzzExtractNames(f *testing.F) {
	f.Add([]byte("# T\n```go\nfunc F(x int) {}\n```\nsee `a_b` and [l](../x.md) [[w|y]]\n"), 2, 4)
	f.Add([]byte("```\n``\n`"), 1, 3)
	f.Fuzz(func(t *testing.T, src []byte, start, end int) {
		lines := len(splitLines(src))
		s := domain.Structure{Lines: lines, Sections: []domain.Section{{ID: "_preamble", Start: 1, End: lines, Parent: -1, Depth: 1}},
			CodeBlocks: []domain.CodeBlock{{Info: "go", Start: start, End: end, Closed: true}}}
		for _, n := range Names(src, s) {
			if n.Line < 1 || n.Line > lines || n.Name == "" {
				t.Fatalf("bad name %+v in a %d-line doc", n, lines)
			}
		}
		for _, l := range Links(src, s, "dir/doc.md") {
			if l.Target == "" || strings.HasPrefix(l.Target, "/") || strings.HasPrefix(l.Target, "../") || l.Line < 1 || l.Line > lines {
				t.Fatalf("bad link %+v", l)
			}
		}
	})
}

// TestNamesDefinedByListsAndTables: the code spans of a list item, and of
// a table row's first cell, are names defined on that line.
func TestNamesDefinedByListsAndTables(t *testing.T) {
	content := []byte("#### Class names\n" +
		"- color: `btn-neutral`, `btn-primary`\n" +
		"| Option | Type |\n" +
		"| `cookieOptions.maxAge` | `number` |\n" +
		"Prose with `not-a-definition` in it.\n" +
		"1. `step-one` first\n")
	var got []string
	for _, n := range Names(content, domain.Structure{Lines: 6}) {
		if n.Kind == domain.NameTerm {
			got = append(got, fmt.Sprintf("%s@%d", n.Name, n.Line))
		}
	}
	if want := "btn-neutral@2 btn-primary@2 cookieOptions.maxAge@4 step-one@6"; strings.Join(got, " ") != want {
		t.Errorf("terms %q, want %q", strings.Join(got, " "), want)
	}
}
