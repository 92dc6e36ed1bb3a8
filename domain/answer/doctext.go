package answer

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/wording"
)

// DocText is an opened doc with what answering from its lines needs: its
// bytes split into lines, its code blocks in line order and its images by
// line, each standard image resolved against the doc's folder. Line numbers are 1-based, as in Structure.
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
	images     map[int][]ImageRef // by line, in order of appearance
}

// ImageRef is one image on a doc's line as an answer places it: a stub of
// the image index (ID), or a standard image (ID "") and where it points.
type ImageRef struct {
	// ID is the image index id of an `![[image:ID]]` stub.
	ID string
	// Src is a standard image's destination as written, Caption its alt
	// text (else its title), Target where it points (domain.ResolveImage,
	// against the doc's own folder).
	Src     string
	Caption string
	Target  domain.ImageTarget
}

// Local reports whether the reference is a standard image naming a file
// of the library.
func (r ImageRef) Local() bool { return r.ID == "" && r.Target.Kind == domain.ImageLocal }

// key names the picture within an answer: two references with the same
// key send it once per doc. Index ids and library paths never meet (a NUL
// starts no id).
func (r ImageRef) key() string {
	if r.ID != "" {
		return r.ID
	}
	return "\x00" + r.Target.Path
}

// name is how placeholders name the picture: its index id, its library
// path, its URL, or (refused) the destination as written, quoted.
func (r ImageRef) name() string {
	switch {
	case r.ID != "":
		return r.ID
	case r.Target.Kind == domain.ImageLocal:
		return r.Target.Path
	case r.Target.Kind == domain.ImageRemote, r.Target.Kind == domain.ImageData:
		return wording.OneLine(r.Target.URL, 300)
	}
	return wording.QuoteInput(r.Src, '\'')
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
		t.images = map[int][]ImageRef{}
		for _, im := range s.Images {
			ref := ImageRef{ID: im.ID}
			if im.Standard() {
				ref = ImageRef{Src: im.Src, Caption: im.Caption(), Target: domain.ResolveImage(d.Path, im.Src)}
			}
			t.images[im.Line] = append(t.images[im.Line], ref)
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

// HasStubs reports whether an image, a stub of the image index or a
// standard image, lies in lines from..to.
func (t *DocText) HasStubs(from, to int) bool {
	for line := range t.images {
		if line >= from && line <= to {
			return true
		}
	}
	return false
}

// hasIndexStubs reports whether a stub of the image index lies in lines
// from..to.
func (t *DocText) hasIndexStubs(from, to int) bool {
	for line, refs := range t.images {
		if line >= from && line <= to {
			for _, r := range refs {
				if r.ID != "" {
					return true
				}
			}
		}
	}
	return false
}

// StubsAt returns the ids of the image index stubs on line k, in order.
func (t *DocText) StubsAt(k int) []string {
	var ids []string
	for _, r := range t.images[k] {
		if r.ID != "" {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// ImagesAt returns the images on line k, both kinds, in order.
func (t *DocText) ImagesAt(k int) []ImageRef { return t.images[k] }
