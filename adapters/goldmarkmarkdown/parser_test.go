package goldmarkmarkdown

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/markdown/markdowntest"
)

func TestContract(t *testing.T) {
	markdowntest.Run(t, New())
}

// FuzzParse checks, on any input, the port's invariants (markdowntest.Check)
// and that skipping the inline parsing of paragraphs changes nothing. It
// calls parse, not Parse, so that a goldmark panic fails the fuzzer instead
// of being recovered. Its seed corpus is the contract suite's inputs.
func FuzzParse(f *testing.F) {
	for _, src := range markdowntest.Inputs() {
		f.Add(src)
	}
	p, reference := New(), &Parser{goldmark: newGoldmark(false)}
	f.Fuzz(func(t *testing.T, src []byte) {
		s := p.parse(src)
		if want := reference.parse(src); !reflect.DeepEqual(s, want) {
			t.Errorf("parse(%q) with plainParagraphs != without:\n%+v\n%+v", src, s, want)
		}
		if err := markdowntest.Check(src, s); err != nil {
			t.Errorf("parse(%q) breaks the contract:\n%v", src, err)
		}
	})
}

// benchDoc is a ~300-line document in the shape of the library's docs:
// frontmatter, a title, nested sections, prose with inline markup, lists,
// fenced code and image stubs.
func benchDoc() []byte {
	var b strings.Builder
	b.WriteString("---\ntitle: Benchmark\ntags: [bench, parser]\n---\n# Benchmark document\n\n")
	b.WriteString("An introduction with **bold**, `code` and a [link](https://example.com).\n\n")
	for i := range 9 {
		fmt.Fprintf(&b, "## Section %d: setup & usage\n\n", i)
		b.WriteString("Prose that wraps over a few lines, with *emphasis*, `inline code`\n")
		b.WriteString("and a reference to ![[image:img-diagram]] in the middle of the text.\n")
		b.WriteString("More words follow here to make the paragraph realistic in length.\n\n")
		for j := range 2 {
			fmt.Fprintf(&b, "### Step %d\n\n", j)
			b.WriteString("- first item with `flag --name`\n- second item\n  continued\n- third item\n\n")
			b.WriteString("```go\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n\n")
		}
	}
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	src := benchDoc()
	p := New()
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		p.Parse(src)
	}
}

// TestPlainParagraphsChangeNothing shows that skipping the inline parsing of
// paragraphs (plainParagraphs) is only an optimisation.
func TestPlainParagraphsChangeNothing(t *testing.T) {
	fast, reference := New(), &Parser{goldmark: newGoldmark(false)}
	for _, src := range markdowntest.Inputs() {
		got, want := fast.parse(src), reference.parse(src)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("parse(%q):\nwith plainParagraphs    %+v\nwithout plainParagraphs %+v", src, got, want)
		}
	}
}

// TestPlainText covers the structure Parse falls back to should goldmark
// panic: the lines, the frontmatter, and the body as one _preamble.
func TestPlainText(t *testing.T) {
	tests := []struct {
		src  string
		want domain.Structure
	}{
		{"", domain.Structure{Version: domain.StructureVersion}},
		{"\n\n", domain.Structure{Lines: 2, Version: domain.StructureVersion}},
		{"---\na: 1\n---\n", domain.Structure{Lines: 3, FrontmatterEnd: 3, Version: domain.StructureVersion}},
		{"---\na: 1\n---\n# T\n```\n", domain.Structure{Lines: 5, FrontmatterEnd: 3, Sections: []domain.Section{
			{ID: "_preamble", Slug: "_preamble", Start: 4, End: 5, Parent: -1, Depth: 1},
		}, Version: domain.StructureVersion}},
	}
	for _, tt := range tests {
		got := plainText([]byte(tt.src))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("plainText(%q):\ngot  %+v\nwant %+v", tt.src, got, tt.want)
		}
		if err := markdowntest.Check([]byte(tt.src), got); err != nil {
			t.Errorf("plainText(%q) breaks the contract: %v", tt.src, err)
		}
	}
}
