package goldmarkmarkdown

import (
	"bytes"
	"strings"

	"github.com/librarian/librarian/domain"
)

// scanStructure is the structure of a document too costly for goldmark
// (guard.go), found line by line in linear time: ATX headings ('#' to
// '######' after at most three columns of indent) and top-level fenced code
// blocks (``` or ~~~, closed by a run at least as long, unclosed ones
// running to the end of the file), frontmatter as in parse, and image stubs
// and standard images outside those fences (lineImages: inline images and
// <img> tags whole on one line). It does not see setext headings, fences
// inside list items or block quotes, inline code spans, HTML comments over
// several lines or reference-style images: seed 000's section rules apply
// to the headings it finds.
func scanStructure(src []byte) domain.Structure {
	lines := newLineIndex(src)
	fmLine, _ := frontmatterEnd(src, lines)
	bodyStart := fmLine + 1
	from := lines.start(bodyStart)

	var (
		headings []heading
		code     []domain.CodeBlock
		open     *domain.CodeBlock
		fence    fenceOpening
		standard []foundImage
	)
	n := bodyStart
	for at := from; at < len(src); n++ {
		end := bytes.IndexByte(src[at:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += at
		}
		lineStart := at
		if at == 0 && bytes.HasPrefix(src, utf8BOM) {
			lineStart = len(utf8BOM)
		}
		line := src[lineStart:end]
		at = end + 1

		if open != nil {
			if fence.closedBy(line) {
				open.End, open.Closed = n, true
				code = append(code, *open)
				open = nil
			}
			continue
		}
		if f, ok := openingFence(line); ok {
			_, rest := columns(line)
			marker := lineStart + len(line) - len(rest)
			info := bytes.Trim(rest[f.n:], " \t\r")
			open = &domain.CodeBlock{
				Fence:  string(rest[:f.n]),
				Indent: string(src[lineStart:marker]),
				Info:   string(info),
				Start:  n,
			}
			fence = f
			continue
		}
		if h, ok := atxHeading(line); ok {
			h.line = n
			headings = append(headings, h)
		}
		standard = append(standard, lineImages(line, lineStart)...)
	}
	if open != nil {
		open.End = max(lines.count, open.Start)
		code = append(code, *open)
	}

	firstHeading := lines.count + 1
	if len(headings) > 0 {
		firstHeading = headings[0].line
	}
	o := outline{
		lines:       lines.count,
		bodyStart:   bodyStart,
		preambleSet: !isBlank(src[from:lines.start(firstHeading)]),
	}
	return domain.Structure{
		Lines:          lines.count,
		FrontmatterEnd: fmLine,
		Sections:       buildSections(headings, o),
		CodeBlocks:     code,
		Images:         mergeImages(lines, imageStubs(src, from, lines, code, nil), standard),
		Version:        domain.StructureVersion,
	}
}

// atxHeading reads an ATX heading line: its level and its text without the
// optional closing run of '#', its escapes and character references
// decoded as goldmark's text is (no other inline markup is removed).
func atxHeading(line []byte) (heading, bool) {
	indent, rest := columns(line)
	if indent > 3 {
		return heading{}, false
	}
	level := 0
	for level < len(rest) && rest[level] == '#' {
		level++
	}
	if level == 0 || level > 6 {
		return heading{}, false
	}
	rest = rest[level:]
	if len(rest) > 0 && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '\r' {
		return heading{}, false
	}
	text := bytes.Trim(rest, " \t\r")
	if closing := bytes.TrimRight(text, "#"); len(closing) == 0 {
		text = nil
	} else if len(closing) < len(text) && (closing[len(closing)-1] == ' ' || closing[len(closing)-1] == '\t') {
		text = bytes.TrimRight(closing, " \t")
	}
	var b strings.Builder
	writeUnescaped(&b, text)
	return heading{level: level, text: b.String(), raw: string(text)}, true
}
