package answer

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/librarian/librarian/domain"
)

// DocText is an opened doc with what answering from its lines needs: its
// bytes split into lines, its code blocks in line order and its image stubs
// by line. Line numbers are 1-based, as in Structure.
type DocText struct {
	Doc       domain.Document
	Content   []byte
	Structure domain.Structure
	// N is the number of lines (0 for an empty file).
	N int
	// BodyFrom is the first line after the frontmatter.
	BodyFrom int

	lineStarts []int // byte offset of each line; lineStarts[k] is line k+1
	blocks     []domain.CodeBlock
	stubs      map[int][]string // image ids by line, in order of appearance
}

// NewDocText splits content into lines and clamps the structure's code
// blocks to them.
func NewDocText(d domain.Document, content []byte, s domain.Structure) *DocText {
	t := &DocText{Doc: d, Content: content, Structure: s}
	c := content
	t.lineStarts = append(t.lineStarts, 0)
	for i, b := range c {
		if b == '\n' && i+1 < len(c) {
			t.lineStarts = append(t.lineStarts, i+1)
		}
	}
	t.N = len(t.lineStarts)
	if len(c) == 0 {
		t.lineStarts, t.N = nil, 0
	}
	t.BodyFrom = min(max(s.FrontmatterEnd, 0), t.N) + 1
	for _, b := range s.CodeBlocks {
		b.Start = max(b.Start, 1)
		b.End = min(max(b.End, b.Start), t.N)
		if b.Start <= t.N {
			t.blocks = append(t.blocks, b)
		}
	}
	sort.SliceStable(t.blocks, func(i, j int) bool { return t.blocks[i].Start < t.blocks[j].Start })
	if len(s.Images) > 0 {
		t.stubs = map[int][]string{}
		for _, im := range s.Images {
			t.stubs[im.Line] = append(t.stubs[im.Line], im.ID)
		}
	}
	return t
}

// Name is how answers name the doc: "auth (backend/auth.md)".
func (t *DocText) Name() string { return fmt.Sprintf("%s (%s)", t.Doc.ID, t.Doc.Path) }

// Line returns line k (1-based) without its '\n'.
func (t *DocText) Line(k int) []byte {
	start := t.lineStarts[k-1]
	end := len(t.Content)
	if k < t.N {
		end = t.lineStarts[k]
	}
	return bytes.TrimSuffix(t.Content[start:end], []byte{'\n'})
}

// BytesOf is the size of lines from..to, newlines included.
func (t *DocText) BytesOf(from, to int) int {
	if from > to {
		return 0
	}
	end := len(t.Content)
	if to < t.N {
		end = t.lineStarts[to]
	}
	return end - t.lineStarts[from-1]
}

// BlockAt returns the code block that holds line k, or nil.
func (t *DocText) BlockAt(k int) *domain.CodeBlock {
	i := sort.Search(len(t.blocks), func(i int) bool { return t.blocks[i].Start > k }) - 1
	if i >= 0 && t.blocks[i].End >= k {
		return &t.blocks[i]
	}
	return nil
}

// HasCode reports whether a code block meets lines from..to.
func (t *DocText) HasCode(from, to int) bool {
	for _, b := range t.blocks {
		if b.Start <= to && b.End >= from {
			return true
		}
	}
	return false
}

// HasStubs reports whether an image stub lies in lines from..to.
func (t *DocText) HasStubs(from, to int) bool {
	for line := range t.stubs {
		if line >= from && line <= to {
			return true
		}
	}
	return false
}

// StubsAt returns the ids of the image stubs on line k, in order.
func (t *DocText) StubsAt(k int) []string { return t.stubs[k] }
