package domain

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fence returns the code block of a fenced block at lines start..end.
func fence(info string, start, end int) CodeBlock {
	return CodeBlock{Info: info, Fence: "```", Start: start, End: end, Closed: true}
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
	s := Structure{Lines: 22, Sections: []Section{
		{ID: "_intro", Heading: "Auth", Level: 1, Start: 1, End: 2, Parent: -1, Depth: 1},
		{ID: "gateway-validation", Slug: "gateway-validation", Heading: "Gateway validation", Level: 2, Start: 3, End: 22, Parent: -1, Depth: 1},
	}, CodeBlocks: []CodeBlock{fence("go", 4, 8), fence("python", 9, 14), fence("js", 15, 22)}}
	got := ExtractNames([]byte(doc), s)
	want := []Name{
		{Kind: NameHeading, Name: "Auth", Line: 1, Signature: "§ _intro"},
		{Kind: NameHeading, Name: "Gateway validation", Line: 3, Signature: "§ gateway-validation"},
		{Kind: NameFunction, Name: "Validate", Line: 5, Signature: "(r *http.Request) (Claims, error)"},
		{Kind: NameType, Name: "Claims", Line: 6, Signature: "struct"},
		{Kind: NameConstant, Name: "MaxAge", Line: 7, Signature: "= 10"},
		{Kind: NameFunction, Name: "require_session", Line: 10, Signature: "(request)"},
		{Kind: NameClass, Name: "SessionStore", Line: 11, Signature: "(Base)"},
		{Kind: NameConstant, Name: "SESSION_TTL_SECONDS", Line: 12, Signature: "3600"},
		{Kind: NameRoute, Name: "POST /account/reset", Line: 13},
		{Kind: NameRoute, Name: "GET /api/users", Line: 16, Signature: "listUsers"},
		{Kind: NameFunction, Name: "fetchUser", Line: 17, Signature: "(id)"},
		{Kind: NameFunction, Name: "render", Line: 18, Signature: "(props)"},
		{Kind: NameVariable, Name: "a", Line: 19, Signature: "export"},
		{Kind: NameVariable, Name: "c", Line: 19, Signature: "export"},
		{Kind: NameConstant, Name: "API_BASE", Line: 20, Signature: "= '/v1'"},
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
	s := Structure{Lines: 21, FrontmatterEnd: 3, CodeBlocks: []CodeBlock{fence("toml", 5, 9), fence("css", 10, 12), fence("sh", 13, 15), fence("sql", 18, 20)}}
	got := ExtractNames([]byte(doc), s)
	want := []Name{
		{Kind: NameConfigKey, Name: "compatibility_flags", Line: 4},
		{Kind: NameFlag, Name: "--radius-field", Line: 4},
		{Kind: NameFile, Name: "wrangler.toml", Line: 4},
		{Kind: NameConfigKey, Name: "site", Line: 6},
		{Kind: NameConfigKey, Name: "compatibility_flags", Line: 7, Signature: `["nodejs_compat"]`},
		{Kind: NameConfigKey, Name: "--radius-field", Line: 11, Signature: "0.25rem"},
		{Kind: NameConfigKey, Name: "LIBRARY_ROOT", Line: 14, Signature: "=./docs librarian --max-tokens 100 serve"},
		{Kind: NameFlag, Name: "--max-tokens", Line: 14},
		{Kind: NameFile, Name: "src/web/auth_middleware.py", Line: 16},
		{Kind: NameFile, Name: "package.json", Line: 16},
		{Kind: NameFunction, Name: "resize_photo", Line: 17, Signature: "(img, 800)"},
		{Kind: NameConstant, Name: "SESSION_TTL_SECONDS", Line: 17},
		{Kind: NameConfigKey, Name: "auth.refresh.reuse", Line: 17},
		{Kind: NameType, Name: "refresh_tokens", Line: 19, Signature: "("},
		{Kind: NameFile, Name: "db/migrations/", Line: 21},
		{Kind: NameFile, Name: "hono/adapter", Line: 21},
	}
	diffNames(t, got, want)
}

func TestExtractNamesUnclosedFenceAndEmpty(t *testing.T) {
	if got := ExtractNames(nil, Structure{}); len(got) != 0 {
		t.Errorf("empty doc: got %v", got)
	}
	doc := "```go\nfunc Open(path string) error\n"
	got := ExtractNames([]byte(doc), Structure{Lines: 2, CodeBlocks: []CodeBlock{{Info: "go", Fence: "```", Start: 1, End: 2}}})
	diffNames(t, got, []Name{{Kind: NameFunction, Name: "Open", Line: 2, Signature: "(path string) error"}})
}

func diffNames(t *testing.T, got, want []Name) {
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

// TestExtractNamesLinear: a pathological doc (one huge line of backticks
// and brackets, and many code lines) is done quickly, not in quadratic time.
func TestExtractNamesLinear(t *testing.T) {
	line := strings.Repeat("`a`` [x](y ![[z]] --f-g `", 40000)
	code := "```js\n" + strings.Repeat("app.get('/a', function f(x) { const A_B = 1 })\n", 20000) + "```\n"
	doc := []byte(line + "\n" + code)
	s := Structure{Lines: 20003, CodeBlocks: []CodeBlock{fence("js", 2, 20002)}}
	begin := time.Now()
	ExtractNames(doc, s)
	ExtractLinks(doc, s, "a/b.md")
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("took %s on a 1.9 MB doc", d)
	}
}

func FuzzExtractNames(f *testing.F) {
	f.Add([]byte("# T\n```go\nfunc F(x int) {}\n```\nsee `a_b` and [l](../x.md) [[w|y]]\n"), 2, 4)
	f.Add([]byte("```\n``\n`"), 1, 3)
	f.Fuzz(func(t *testing.T, src []byte, start, end int) {
		lines := len(splitLines(src))
		s := Structure{Lines: lines, Sections: []Section{{ID: "_preamble", Start: 1, End: lines, Parent: -1, Depth: 1}},
			CodeBlocks: []CodeBlock{{Info: "go", Start: start, End: end, Closed: true}}}
		for _, n := range ExtractNames(src, s) {
			if n.Line < 1 || n.Line > lines || n.Name == "" {
				t.Fatalf("bad name %+v in a %d-line doc", n, lines)
			}
		}
		for _, l := range ExtractLinks(src, s, "dir/doc.md") {
			if l.Target == "" || strings.HasPrefix(l.Target, "/") || strings.HasPrefix(l.Target, "../") || l.Line < 1 || l.Line > lines {
				t.Fatalf("bad link %+v", l)
			}
		}
	})
}
