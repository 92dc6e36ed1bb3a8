package goldmarkmarkdown

import (
	"bytes"

	"github.com/librarian/librarian/domain"
)

var (
	stubOpen  = []byte("![[image:")
	stubClose = []byte("]]")
)

// span is a half-open byte range [start, stop).
type span struct{ start, stop int }

// foundImage is an image reference and the byte offset its markup starts
// at, by which references of both kinds are merged into document order.
type foundImage struct {
	off  int
	stub domain.ImageStub
}

// imageStubs finds every `![[image:ID]]` in src from byte offset from on, in
// order, skipping those that start on a line of a fenced code block (code
// blocks in document order) or inside an inline code span (spans in
// document order). The ID is the text up to the first "]]" on the same
// line, trimmed of spaces and tabs; a stub without a closing "]]" on its line,
// or with an empty ID, is not a stub.
func imageStubs(src []byte, from int, lines lineIndex, code []domain.CodeBlock, codeSpans []span) []foundImage {
	var stubs []foundImage
	// The end of the stub's line and the first "]]" from its id on: stubs
	// start further and further on, so both searches only move forward and
	// a line of 400,000 unclosed stubs is one pass, not 400,000 (a minute).
	// len(src) stands for "none".
	lineEnd, closeAt := -1, -1
	for at := from; at < len(src); {
		i := bytes.Index(src[at:], stubOpen)
		if i < 0 {
			break
		}
		open := at + i
		idStart := open + len(stubOpen)
		at = idStart

		if lineEnd < idStart {
			lineEnd = len(src)
			if e := bytes.IndexByte(src[idStart:], '\n'); e >= 0 {
				lineEnd = idStart + e
			}
		}
		if closeAt < idStart {
			closeAt = len(src)
			if c := bytes.Index(src[idStart:], stubClose); c >= 0 {
				closeAt = idStart + c
			}
		}
		if closeAt+len(stubClose) > lineEnd {
			continue
		}
		j := closeAt - idStart
		id := bytes.Trim(src[idStart:idStart+j], " \t")
		line := lines.line(open)
		for len(code) > 0 && code[0].End < line {
			code = code[1:]
		}
		for len(codeSpans) > 0 && codeSpans[0].stop <= open {
			codeSpans = codeSpans[1:]
		}
		switch {
		case len(id) == 0:
		case len(code) > 0 && code[0].Start <= line:
		case len(codeSpans) > 0 && codeSpans[0].start <= open:
		default:
			stubs = append(stubs, foundImage{off: open, stub: domain.ImageStub{ID: string(id), Line: line}})
			at = idStart + j + len(stubClose)
		}
	}
	return stubs
}
