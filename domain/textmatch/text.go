package textmatch

import (
	"bytes"
	"sync"
)

// Text is what a scan needs of a text beyond its bytes, built once per
// version of the text and kept by the caller beside it: the offset of every
// line start, and (built on the first case-insensitive scan) an
// ASCII-lowered copy of the content, the same length, so an offset in one
// is an offset in the other. It does not hold the content: every method
// that needs it takes it, and it must be the content Text was made of.
// Safe for concurrent use.
type Text struct {
	starts []int // starts[i] is the byte offset of line i+1

	lowerOnce sync.Once
	lower     []byte // content with A-Z lowered; content itself when it has none
	special   bool   // content holds U+212A (Kelvin) or U+017F (long s)
}

// NewText indexes the lines of content.
func NewText(content []byte) *Text {
	return &Text{starts: LineStarts(content)}
}

// Lines is the number of lines of the text.
func (v *Text) Lines() int { return len(v.starts) }

// Starts returns the offset of each line's first byte (see LineStarts); the
// caller must not change it.
func (v *Text) Starts() []int { return v.starts }

// LineStarts returns the offset of each line's first byte. Lines split on
// '\n' only, and a trailing '\n' does not start another line.
func LineStarts(content []byte) []int {
	if len(content) == 0 {
		return nil
	}
	starts := make([]int, 1, bytes.Count(content, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(content[off:], '\n')
		if i < 0 || off+i+1 >= len(content) {
			return starts
		}
		off += i + 1
		starts = append(starts, off)
	}
}

// lineOf returns the 1-based line holding byte off, which lies at or after
// the start of line from+1 (hits come in order: from is the line of the
// previous one). It gallops forward from there, then bisects, so a run of
// hits on nearby lines costs a few comparisons each.
func (v *Text) lineOf(off, from int) int {
	s := v.starts
	i, step := from, 1
	for i+step < len(s) && s[i+step] <= off {
		i += step
		step *= 2
	}
	lo, hi := i, min(i+step, len(s)) // s[lo] <= off, and s[hi] > off when hi < len(s)
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if s[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}

// Bounds returns the byte range of a line of content, without its '\n'.
func (v *Text) Bounds(line int, content []byte) (start, end int) {
	start = v.starts[line-1]
	if line < len(v.starts) {
		return start, v.starts[line] - 1
	}
	end = len(content)
	if end > start && content[end-1] == '\n' {
		end--
	}
	return start, end
}

// Line returns the bytes of a line, without its '\n'.
func (v *Text) Line(content []byte, line int) []byte {
	s, e := v.Bounds(line, content)
	return content[s:e]
}

// lowered returns the ASCII-lowered copy, making it on first use.
func (v *Text) lowered(content []byte) []byte {
	v.lowerOnce.Do(func() { v.lower, v.special = lowerCopy(content) })
	return v.lower
}

// lowerCopy lowers A-Z, keeping every other byte, so offsets are kept. It
// returns content itself when there is nothing to lower, and whether the
// content holds one of the two non-ASCII runes that fold to ASCII letters.
func lowerCopy(content []byte) ([]byte, bool) {
	special := bytes.Contains(content, []byte("\u212a")) || bytes.Contains(content, []byte("\u017f"))
	i := bytes.IndexFunc(content, func(r rune) bool { return 'A' <= r && r <= 'Z' })
	if i < 0 {
		return content, special
	}
	return lowerASCII(content), special
}

func lowerASCII(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
