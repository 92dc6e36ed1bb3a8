package include

import (
	"reflect"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain/passage"
)

func TestDirectives(t *testing.T) {
	doc := []string{
		"# Go", // 1
		`{{% include "span-status-preamble.md" %}}`, // 2
		"{{< include exporters/jaeger.md >}}",       // 3
		"<!--@include: ./cli-generated.md-->",       // 4
		"<!--@include: ../shared/x.md{3,10}-->",     // 5
		"<!--@include: @/root.md#intro-->",          // 6
		"import Note from './_note.md';",            // 7
		"<Note />",                                  // 8
		"<Other />",                                 // 9: not imported
		"```md",                                     // 10
		`{{% include "in-a-fence.md" %}}`,           // 11: an example
		"```",                                       // 12
		"{{% include %}}",                           // 13: no name
		"<!--@include: https://example.com/x.md-->", // 14: not a library path
	}
	got := Directives("languages/go/instrumentation.md", doc)
	want := []Directive{
		{Line: 2, Paths: []string{"languages/go/_includes/span-status-preamble.md", "languages/_includes/span-status-preamble.md", "_includes/span-status-preamble.md"}},
		{Line: 3, Paths: []string{"languages/go/_includes/exporters/jaeger.md", "languages/_includes/exporters/jaeger.md", "_includes/exporters/jaeger.md"}},
		{Line: 4, Paths: []string{"languages/go/cli-generated.md"}},
		{Line: 5, Paths: []string{"languages/shared/x.md"}, From: 3, To: 10},
		{Line: 6, Paths: []string{"root.md"}},
		{Line: 7, Paths: []string{"languages/go/_note.md"}},
		{Line: 8, Paths: []string{"languages/go/_note.md"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Directives:\n got %+v\nwant %+v", got, want)
	}
	for _, inc := range got {
		if !MayInclude(doc[inc.Line-1]) {
			t.Errorf("MayInclude(%q) = false", doc[inc.Line-1])
		}
	}
	if MayInclude("Plain prose about includes.") {
		t.Error("MayInclude of prose")
	}
	// A doc at the root looks in the root's _includes only.
	if got := Directives("page.md", []string{`{{% include "x.md" %}}`}); len(got) != 1 || !reflect.DeepEqual(got[0].Paths, []string{"_includes/x.md"}) {
		t.Errorf("root page: %+v", got)
	}
}

// Paths an author wrote never lead outside the library, into a dot-folder,
// or to a file that is not markdown.
func TestIncludePathRefusesEscapes(t *testing.T) {
	bad := []string{
		"", "../x.md", "../../etc/passwd.md", "a/../../x.md", "/etc/x.md", "C:/x.md", `..\x.md`, `a\..\..\x.md`,
		"x.md\x00.md", "https://example.com/x.md", "file:///x.md", ".git/x.md", "a/.hidden/x.md", "x.txt", "x", "..", ".",
		"a/b/../../../x.md", strings.Repeat("a/", 600) + "x.md",
	}
	for _, name := range bad {
		if p, ok := Path("", name); ok {
			t.Errorf("Path(%q) = %q, want refused", name, p)
		}
	}
	if p, ok := Path("docs/guide", "../shared/x.md"); !ok || p != "docs/shared/x.md" {
		t.Errorf("a sibling folder: %q %v", p, ok)
	}
	if p, ok := Path("/abs", "x.md"); ok {
		t.Errorf("an absolute folder: %q", p)
	}
	// Fuzz-ish: every path built from these parts is inside the library or refused.
	parts := []string{"..", ".", "a", "_includes", "", "x.md", "..%2f", "/", "\\", ".git"}
	var walk func(prefix string, depth int)
	walk = func(prefix string, depth int) {
		if p, ok := Path("d/e", prefix); ok {
			if strings.HasPrefix(p, "..") || strings.HasPrefix(p, "/") || strings.Contains(p, "/../") || strings.Contains(p, "\\") {
				t.Errorf("Path(d/e, %q) = %q escapes", prefix, p)
			}
		}
		if depth == 0 {
			return
		}
		for _, s := range parts {
			walk(prefix+s+"/", depth-1)
			walk(prefix+s, depth-1)
		}
	}
	walk("", 3)
}

// Directives never panics and never gives a path above the root, whatever
// the lines.
func FuzzDirectives(f *testing.F) {
	f.Add("a/b.md", `{{% include "../../../x.md" %}}`)
	f.Add("b.md", "<!--@include: ../../x.md{1,}-->")
	f.Add("b.md", "import A from '../../a.md'\n<A />")
	f.Fuzz(func(t *testing.T, docPath, text string) {
		for _, inc := range Directives(docPath, strings.Split(text, "\n")) {
			for _, p := range inc.Paths {
				if strings.HasPrefix(p, "../") || p == ".." || strings.HasPrefix(p, "/") {
					t.Fatalf("%q escapes", p)
				}
			}
		}
	})
}

func TestLines(t *testing.T) {
	for _, c := range []struct{ n, others, want int }{{3, 0, 3}, {4, 1, 3}, {2, 1, 1}, {2, 5, 1}} {
		if got := Lines(c.n, c.others); got != c.want {
			t.Errorf("Lines(%d, %d) = %d, want %d", c.n, c.others, got, c.want)
		}
	}
}

// An included file's lines are chosen within its body and the directive's
// range, as many as the section's other lines leave.
func TestQuoted(t *testing.T) {
	preamble := []string{
		"---", "title: preamble", "---", // 1-3: frontmatter
		"A status can be set on a span.",                           // 4
		"By default, all spans are `Unset` until a status is set.", // 5
		"Set the status to Error when an operation fails.",         // 6
	}
	q := passage.NewQuestion("what status do spans have by default")
	got := Quoted(q, Directive{Line: 2}, preamble, 4, 1, 0, false)
	if len(got) != 1 || got[0] != 5 {
		t.Errorf("Quoted = %v, want [5]", got)
	}
	if got := Quoted(q, Directive{Line: 2, From: 6, To: 6}, preamble, 4, 3, 0, false); len(got) != 1 || got[0] != 6 {
		t.Errorf("Quoted within {6,6} = %v, want [6]", got)
	}
	for _, k := range Quoted(q, Directive{Line: 2}, preamble, 4, 3, 0, true) {
		if k < 4 {
			t.Errorf("Quoted gave frontmatter line %d", k)
		}
	}
}
