package goldmarkmarkdown

import (
	"bytes"
	"sort"
)

// lineIndex maps byte offsets of one file to its 1-based line numbers, split
// on '\n' only (seed 000: "matching Read and grep"), so a lone '\r' never
// starts a line.
type lineIndex struct {
	newlines []int // offsets of every '\n', ascending
	count    int   // number of lines; a trailing '\n' does not start one
	size     int   // length of the file in bytes
}

func newLineIndex(src []byte) lineIndex {
	newlines := make([]int, 0, bytes.Count(src, newline))
	for i, c := range src {
		if c == '\n' {
			newlines = append(newlines, i)
		}
	}
	count := len(newlines)
	if len(src) > 0 && src[len(src)-1] != '\n' {
		count++
	}
	return lineIndex{newlines: newlines, count: count, size: len(src)}
}

var newline = []byte{'\n'}

// line returns the line holding the byte at offset, clamped to the file's
// lines so that an offset at end of file still names a real line.
func (x lineIndex) line(offset int) int {
	n := sort.SearchInts(x.newlines, offset) + 1
	return min(max(n, 1), max(x.count, 1))
}

// start returns the byte offset where line n (1-based) begins; the size of
// the file for a line past its end.
func (x lineIndex) start(n int) int {
	switch {
	case n <= 1:
		return 0
	case n-2 < len(x.newlines):
		return x.newlines[n-2] + 1
	default:
		return x.size
	}
}

// utf8BOM is the byte order mark some editors put at the start of a file.
var utf8BOM = []byte("\xef\xbb\xbf")

// frontmatterEnd returns the line of the line that closes a leading YAML
// frontmatter block, and the byte offset just past that line's content (before
// its '\n'); 0, 0 when the file has none. The block opens with a '---' line at
// line 1 (after an optional byte order mark) and closes at the next '---' or
// '...' line; trailing spaces, tabs and a '\r' on either line are allowed. An
// unclosed block is no frontmatter: the file is plain markdown.
func frontmatterEnd(src []byte, lines lineIndex) (line, end int) {
	rest := bytes.TrimPrefix(src, utf8BOM)
	first, rest, found := bytes.Cut(rest, newline)
	if !found || !isFrontmatterOpening(first) {
		return 0, 0
	}
	offset := len(src) - len(rest)
	for len(rest) > 0 {
		current, after, _ := bytes.Cut(rest, newline)
		if isFenceLine(current, "---") || isFenceLine(current, "...") {
			return lines.line(offset), offset + len(current)
		}
		offset += len(rest) - len(after)
		rest = after
	}
	return 0, 0
}

// isFrontmatterOpening reports whether line opens frontmatter: "---", or
// "---" and a language tag ("---yaml", "---js"), as the frontmatter index
// convention reads it. A "---js" block is metadata to skip, never code to
// run or body to show.
func isFrontmatterOpening(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte("---"))
	if !ok {
		return false
	}
	tag := bytes.TrimRight(rest, " \t\r")
	for _, c := range tag {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// isFenceLine reports whether line is marker followed only by spaces, tabs
// or a '\r'.
func isFenceLine(line []byte, marker string) bool {
	rest, ok := bytes.CutPrefix(line, []byte(marker))
	return ok && len(bytes.TrimRight(rest, " \t\r")) == 0
}

// blankPrefix returns src with the bytes before end replaced by spaces, except
// newlines, so that goldmark never sees frontmatter (or a byte order mark) but
// every offset and line number stays the file's own. It copies: the caller's
// bytes are never written.
func blankPrefix(src []byte, end int) []byte {
	out := make([]byte, len(src))
	copy(out, src)
	for i := range end {
		if out[i] != '\n' {
			out[i] = ' '
		}
	}
	return out
}

// isBlank reports whether b holds only spaces, tabs, '\r' and '\n'.
func isBlank(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}
