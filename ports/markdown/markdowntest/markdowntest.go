// Package markdowntest is the contract suite of the markdown port
// (ports/markdown): every markdown.Parser adapter runs it from its own tests
// with Run(t, adapter). Each property of the port's contract is one named
// subtest, a table of markdown inputs with the exact domain.Structure each
// must give. Check states the invariants every result must hold, for any
// input; adapters use it with Inputs as the seed corpus of their fuzz tests.
package markdowntest

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/markdown"
)

// parseCase is one input and the structure the contract demands for it.
type parseCase struct {
	name string
	src  string
	want domain.Structure
}

// property is one rule of the contract and the cases that pin it down.
type property struct {
	name  string
	cases []parseCase
}

func properties() []property {
	return []property{
		{"Slugs", slugCases()},
		{"DuplicateSlugs", duplicateSlugCases()},
		{"Title", titleCases()},
		{"Preamble", preambleCases()},
		{"SectionBounds", sectionBoundCases()},
		{"Headings", headingCases()},
		{"Lines", lineCases()},
		{"Frontmatter", frontmatterCases()},
		{"CodeBlocks", codeBlockCases()},
		{"ImageStubs", imageStubCases()},
		{"StandardImages", standardImageCases()},
	}
}

// Run tests p against the markdown port's contract.
func Run(t *testing.T, p markdown.Parser) {
	t.Helper()
	for _, prop := range properties() {
		t.Run(prop.name, func(t *testing.T) {
			for _, c := range prop.cases {
				t.Run(c.name, func(t *testing.T) {
					got := parse(t, p, []byte(c.src))
					if d := diff(got, c.want); d != "" {
						t.Errorf("Parse(%q): got != want:\n%s", c.src, d)
					}
				})
			}
		})
	}

	t.Run("Invariants", func(t *testing.T) {
		for _, src := range Inputs() {
			got := parse(t, p, src)
			if err := Check(src, got); err != nil {
				t.Errorf("Parse(%q) breaks the contract:\n%v", truncate(src), err)
			}
		}
	})

	if f, ok := p.(markdown.FrontmatterFinder); ok {
		t.Run("FrontmatterFinder", func(t *testing.T) {
			for _, src := range Inputs() {
				if got, want := f.FrontmatterEnd(src), parse(t, p, src).FrontmatterEnd; got != want {
					t.Errorf("FrontmatterEnd(%q) = %d, Parse says %d", truncate(src), got, want)
				}
			}
			for _, c := range frontmatterCases() {
				if got := f.FrontmatterEnd([]byte(c.src)); got != c.want.FrontmatterEnd {
					t.Errorf("FrontmatterEnd(%q) = %d, want %d", c.src, got, c.want.FrontmatterEnd)
				}
			}
		})
	}

	t.Run("InputUnchanged", func(t *testing.T) {
		for _, src := range Inputs() {
			before := bytes.Clone(src)
			parse(t, p, src)
			if !bytes.Equal(src, before) {
				t.Errorf("Parse(%q) modified its input", truncate(before))
			}
		}
	})

	t.Run("Concurrent", func(t *testing.T) {
		inputs := Inputs()
		want := make([]domain.Structure, len(inputs))
		for i, src := range inputs {
			want[i] = parse(t, p, src)
		}
		const workers = 4
		got := make([][]domain.Structure, workers)
		var wg sync.WaitGroup
		for w := range workers {
			got[w] = make([]domain.Structure, len(inputs))
			wg.Go(func() {
				for i := range inputs {
					// Each worker walks the inputs from a different place.
					j := (i + w*len(inputs)/workers) % len(inputs)
					got[w][j] = p.Parse(inputs[j])
				}
			})
		}
		wg.Wait()
		for w := range workers {
			for i := range inputs {
				if d := diff(got[w][i], want[i]); d != "" {
					t.Errorf("worker %d: Parse(%q) concurrently != sequentially:\n%s", w, truncate(inputs[i]), d)
				}
			}
		}
	})
}

// parse calls p.Parse, turning a panic into a test failure that names the
// input.
func parse(t *testing.T, p markdown.Parser, src []byte) (s domain.Structure) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Parse(%q) panicked: %v", truncate(src), r)
		}
	}()
	return p.Parse(src)
}

// Inputs returns every markdown input of the suite: the cases of each
// property and a set of adversarial inputs that only have to hold Check.
// Each call returns fresh slices.
func Inputs() [][]byte {
	var inputs [][]byte
	for _, prop := range properties() {
		for _, c := range prop.cases {
			inputs = append(inputs, []byte(c.src))
		}
	}
	for _, src := range adversarialInputs() {
		inputs = append(inputs, []byte(src))
	}
	return inputs
}

func truncate(src []byte) string {
	const limit = 200
	if len(src) > limit {
		return string(src[:limit]) + "…"
	}
	return string(src)
}

// diff describes how got differs from want, field by field and element by
// element; "" when they are equal. A nil slice equals an empty one.
func diff(got, want domain.Structure) string {
	var b strings.Builder
	if got.Lines != want.Lines {
		fmt.Fprintf(&b, "  Lines: got %d, want %d\n", got.Lines, want.Lines)
	}
	if got.FrontmatterEnd != want.FrontmatterEnd {
		fmt.Fprintf(&b, "  FrontmatterEnd: got %d, want %d\n", got.FrontmatterEnd, want.FrontmatterEnd)
	}
	diffSlice(&b, "Sections", got.Sections, want.Sections)
	diffSlice(&b, "CodeBlocks", got.CodeBlocks, want.CodeBlocks)
	diffSlice(&b, "Images", got.Images, want.Images)
	return b.String()
}

func diffSlice[T comparable](b *strings.Builder, field string, got, want []T) {
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			fmt.Fprintf(b, "  %s[%d]: missing, want %+v\n", field, i, want[i])
		case i >= len(want):
			fmt.Fprintf(b, "  %s[%d]: got %+v, want nothing\n", field, i, got[i])
		case got[i] != want[i]:
			fmt.Fprintf(b, "  %s[%d]:\n    got  %+v\n    want %+v\n", field, i, got[i], want[i])
		}
	}
}
