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

// imageStubs finds every `![[image:ID]]` in src from byte offset from on, in
// order, skipping those that start on a line of a fenced code block (code
// blocks in document order) or inside an inline code span (spans in
// document order). The ID is the text up to the first "]]" on the same
// line, trimmed of spaces and tabs; a stub without a closing "]]" on its line,
// or with an empty ID, is not a stub.
func imageStubs(src []byte, from int, lines lineIndex, code []domain.CodeBlock, codeSpans []span) []domain.ImageStub {
	var stubs []domain.ImageStub
	for at := from; at < len(src); {
		i := bytes.Index(src[at:], stubOpen)
		if i < 0 {
			break
		}
		open := at + i
		idStart := open + len(stubOpen)
		at = idStart

		lineEnd := bytes.IndexByte(src[idStart:], '\n')
		if lineEnd < 0 {
			lineEnd = len(src)
		} else {
			lineEnd += idStart
		}
		j := bytes.Index(src[idStart:lineEnd], stubClose)
		if j < 0 {
			continue
		}
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
			stubs = append(stubs, domain.ImageStub{ID: string(id), Line: line})
			at = idStart + j + len(stubClose)
		}
	}
	return stubs
}
