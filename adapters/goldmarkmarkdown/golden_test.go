package goldmarkmarkdown

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/markdown/markdowntest"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files")

// TestGolden parses the edge-case documents in testdata and compares a
// readable rendering of each Structure with testdata/NAME.golden.
// Run with -update to rewrite the golden files after a deliberate change.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/*.md: %v", err)
	}
	p := New()
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s := p.Parse(src)
			if err := markdowntest.Check(src, s); err != nil {
				t.Errorf("Parse(%s) breaks the contract:\n%v", file, err)
			}
			got := render(s)
			golden := strings.TrimSuffix(file, ".md") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("Parse(%s):\ngot:\n%s\nwant (%s):\n%s", file, got, golden, want)
			}
		})
	}
}

// render writes a Structure one item a line, in the outline style of
// seed 000 ("§ id "Heading" L1–5").
func render(s domain.Structure) string {
	var b strings.Builder
	fmt.Fprintf(&b, "lines %d, frontmatter ends L%d\n", s.Lines, s.FrontmatterEnd)
	for _, sec := range s.Sections {
		fmt.Fprintf(&b, "§ %s %q L%d–%d level %d depth %d parent %d\n",
			sec.ID, sec.Heading, sec.Start, sec.End, sec.Level, sec.Depth, sec.Parent)
	}
	for _, c := range s.CodeBlocks {
		fmt.Fprintf(&b, "code %q fence %q indent %q L%d–%d closed %v\n",
			c.Info, c.Fence, c.Indent, c.Start, c.End, c.Closed)
	}
	for _, im := range s.Images {
		if im.Standard() {
			fmt.Fprintf(&b, "image src %q alt %q title %q L%d\n", im.Src, im.Alt, im.Title, im.Line)
			continue
		}
		fmt.Fprintf(&b, "image %s L%d\n", im.ID, im.Line)
	}
	return b.String()
}
