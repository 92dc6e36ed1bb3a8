package goldmarkmarkdown

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/ports/markdown/markdowntest"
)

// pathological are documents of about 3 MB on which goldmark alone is
// superlinear (minutes, or a gigabyte), by the shapes guard.go describes.
func pathological() map[string][]byte {
	var stubs, stubsTick, setext, nested, images strings.Builder
	for i := range 200_000 {
		fmt.Fprintf(&stubs, "![[image:img%d]]\n", i)
		fmt.Fprintf(&setext, "[[a%d]]\n", i)
		fmt.Fprintf(&images, "![a](i%d.png)\n", i)
	}
	stubsTick.WriteString(stubs.String())
	stubsTick.WriteString("and one `code span`\n")
	setext.WriteString("===\n")
	for i := range 1_700 {
		nested.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	return map[string][]byte{
		"200,000 stub lines":                   []byte(stubs.String()),
		"200,000 stub lines and a code span":   []byte(stubsTick.String()),
		"200,000 bracket lines under a setext": []byte(setext.String()),
		"list items nested 1,700 deep":         []byte(nested.String()),
		"200,000 standard image lines":         []byte(images.String()),
		// One line, for the scan's own search for each alt text's ']' and
		// each destination's end.
		"a 3 MB line of image openers":       []byte(strings.Repeat("![", 1_500_000) + "\n"),
		"a 3 MB line of open destinations":   []byte(strings.Repeat("![a](", 600_000) + "\n"),
		"a 3 MB line of open img attributes": []byte(strings.Repeat("<img src=", 330_000) + "\n"),
		"a 3 MB line of unclosed stubs":      []byte(strings.Repeat("![[image:", 330_000) + "\n"),
	}
}

// Every pathological shape is either caught by the guard (and scanned) or
// parsed by goldmark without the costly path (plain paragraphs); each takes
// at most a few seconds even on a loaded two-core machine (before the guard:
// 20 s to minutes).
func TestPathologicalDocumentsAreBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 13 MB of documents")
	}
	wantGuarded := map[string]bool{
		"200,000 stub lines":                   false, // plain paragraphs: no inline parsing at all
		"200,000 stub lines and a code span":   true,
		"200,000 bracket lines under a setext": true,
		"list items nested 1,700 deep":         true,
		"200,000 standard image lines":         true,
		"a 3 MB line of image openers":         true,
		"a 3 MB line of open destinations":     true,
		"a 3 MB line of open img attributes":   true,
		"a 3 MB line of unclosed stubs":        false, // plain paragraph; the stub finder is linear
	}
	p := New()
	for name, src := range pathological() {
		t.Run(name, func(t *testing.T) {
			if got := costly(src) != ""; got != wantGuarded[name] {
				t.Errorf("costly = %v (%q), want %v", got, costly(src), wantGuarded[name])
			}
			begin := time.Now()
			s := p.Parse(src)
			if elapsed := time.Since(begin); elapsed > 10*time.Second {
				t.Errorf("Parse took %s, want about a second at most", elapsed)
			}
			if (s.Simplified != "") != wantGuarded[name] {
				t.Errorf("Simplified = %q, want it set only when guarded", s.Simplified)
			}
			if s.Lines != strings.Count(string(src), "\n") {
				t.Errorf("Lines = %d", s.Lines)
			}
			if strings.Contains(name, "200,000") && (strings.Contains(name, "stub") || strings.Contains(name, "image")) && len(s.Images) != 200_000 {
				t.Errorf("found %d images, want 200000", len(s.Images))
			}
			// The heading scan alone, whatever the guard said.
			begin = time.Now()
			scanStructure(src)
			if elapsed := time.Since(begin); elapsed > 10*time.Second {
				t.Errorf("scanStructure took %s, want well under a second", elapsed)
			}
		})
	}
}

// The guard never fires on real documents: the contract suite's inputs, the
// golden edge cases, the benchmark document and the sample library.
func TestOrdinaryDocumentsAreNotCostly(t *testing.T) {
	docs := map[string][]byte{"benchDoc": benchDoc()}
	for i, src := range markdowntest.Inputs() {
		docs[fmt.Sprintf("markdowntest input %d", i)] = src
	}
	for _, root := range []string{"testdata", filepath.Join("..", "..", "library")} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
				return err
			}
			src, err := os.ReadFile(path)
			docs[path] = src
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// A long but ordinary document: 100,000 lines of lists four deep, with
	// code, links and stubs.
	var long strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&long, "## Part %d\n\n- [a](b) `c`\n  - d ![[image:i%d]]\n    - e\n      - f\n        code\n\n", i, i)
	}
	docs["long"] = []byte(long.String())
	for name, src := range docs {
		if reason := costly(src); reason != "" {
			t.Errorf("%s: costly says %q", name, reason)
		}
	}
}

// The heading scan agrees with goldmark on documents made of ATX headings,
// top-level fences, stubs and prose.
func TestScanAgreesOnSimpleDocuments(t *testing.T) {
	p := New()
	for _, src := range []string{
		"",
		"intro\n",
		"# Title\n\ntext\n\n## A\n\n```go\ncode\n```\n\n## B ##\n\n![[image:x]]\n",
		"---\ntitle: t\n---\n# One\n# Two\n",
		"\ufeff# Title\n## Sub\n",
		"## A\n~~~~\n# not a heading\n~~~\n~~~~\n### C\n```\nunclosed ![[image:y]]\n",
		"   # three spaces\n    # four: code\n#no space\n####### seven\n# \n",
		"# A #\n# B#\n# C \\#\n",
		"# Images\n\n![Arch](../img/arch.png \"T\") ![[image:x]] <img src=\"h&amp;i.png\" alt=\"H\">\n\n<img src='b.png'>\n\n![e](<a b.png>) ![f](c\\_d.png)\n",
	} {
		got, want := scanStructure([]byte(src)), p.parse([]byte(src))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("scanStructure(%q):\ngot  %+v\nwant %+v", src, got, want)
		}
		if err := markdowntest.Check([]byte(src), got); err != nil {
			t.Errorf("scanStructure(%q) breaks the contract: %v", src, err)
		}
	}
}

func BenchmarkParsePathological(b *testing.B) {
	p := New()
	for name, src := range pathological() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				p.Parse(src)
			}
		})
	}
}
