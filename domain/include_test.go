package domain

import (
	"reflect"
	"strings"
	"testing"
)

func TestIncludes(t *testing.T) {
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
	got := Includes("languages/go/instrumentation.md", doc)
	want := []Include{
		{Line: 2, Paths: []string{"languages/go/_includes/span-status-preamble.md", "languages/_includes/span-status-preamble.md", "_includes/span-status-preamble.md"}},
		{Line: 3, Paths: []string{"languages/go/_includes/exporters/jaeger.md", "languages/_includes/exporters/jaeger.md", "_includes/exporters/jaeger.md"}},
		{Line: 4, Paths: []string{"languages/go/cli-generated.md"}},
		{Line: 5, Paths: []string{"languages/shared/x.md"}, From: 3, To: 10},
		{Line: 6, Paths: []string{"root.md"}},
		{Line: 7, Paths: []string{"languages/go/_note.md"}},
		{Line: 8, Paths: []string{"languages/go/_note.md"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Includes:\n got %+v\nwant %+v", got, want)
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
	if got := Includes("page.md", []string{`{{% include "x.md" %}}`}); len(got) != 1 || !reflect.DeepEqual(got[0].Paths, []string{"_includes/x.md"}) {
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
		if p, ok := IncludePath("", name); ok {
			t.Errorf("IncludePath(%q) = %q, want refused", name, p)
		}
	}
	if p, ok := IncludePath("docs/guide", "../shared/x.md"); !ok || p != "docs/shared/x.md" {
		t.Errorf("a sibling folder: %q %v", p, ok)
	}
	if p, ok := IncludePath("/abs", "x.md"); ok {
		t.Errorf("an absolute folder: %q", p)
	}
	// Fuzz-ish: every path built from these parts is inside the library or refused.
	parts := []string{"..", ".", "a", "_includes", "", "x.md", "..%2f", "/", "\\", ".git"}
	var walk func(prefix string, depth int)
	walk = func(prefix string, depth int) {
		if p, ok := IncludePath("d/e", prefix); ok {
			if strings.HasPrefix(p, "..") || strings.HasPrefix(p, "/") || strings.Contains(p, "/../") || strings.Contains(p, "\\") {
				t.Errorf("IncludePath(d/e, %q) = %q escapes", prefix, p)
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

// Includes never panics and never gives a path above the root, whatever
// the lines.
func FuzzIncludes(f *testing.F) {
	f.Add("a/b.md", `{{% include "../../../x.md" %}}`)
	f.Add("b.md", "<!--@include: ../../x.md{1,}-->")
	f.Add("b.md", "import A from '../../a.md'\n<A />")
	f.Fuzz(func(t *testing.T, docPath, text string) {
		for _, inc := range Includes(docPath, strings.Split(text, "\n")) {
			for _, p := range inc.Paths {
				if strings.HasPrefix(p, "../") || p == ".." || strings.HasPrefix(p, "/") {
					t.Fatalf("%q escapes", p)
				}
			}
		}
	})
}
