package goldmarkmarkdown

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// headingText is a heading's plain text as GitHub renders it: the text of
// its inline children (emphasis, code spans, link text, autolinks) with
// backslash escapes and character references resolved; raw HTML tags and
// images (whose alt text is not text content) leave nothing. Line breaks of
// a multi-line setext heading, and any '\r' or '\n' left inside, become
// spaces; the result is trimmed.
func headingText(h *ast.Heading, src []byte) string {
	var b strings.Builder
	writeInlineText(&b, h, src)
	text := strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' {
			return ' '
		}
		return r
	}, b.String())
	return strings.TrimSpace(text)
}

func writeInlineText(b *strings.Builder, parent ast.Node, src []byte) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Text:
			value := n.Segment.Value(src)
			if n.IsRaw() {
				b.Write(value)
			} else {
				writeUnescaped(b, value)
			}
			if n.SoftLineBreak() || n.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			if n.IsRaw() || n.IsCode() {
				b.Write(n.Value)
			} else {
				writeUnescaped(b, n.Value)
			}
		case *ast.CodeSpan:
			// Code span text is literal: no escapes, no references.
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				switch c := c.(type) {
				case *ast.Text:
					b.Write(c.Segment.Value(src))
				case *ast.String:
					b.Write(c.Value)
				}
			}
		case *ast.AutoLink:
			b.Write(n.Label(src))
		case *ast.RawHTML, *ast.Image:
		default:
			writeInlineText(b, n, src)
		}
	}
}

// writeUnescaped writes text the way goldmark's HTML renderer reads it: a
// backslash before ASCII punctuation is dropped, and entity and numeric
// character references become their characters.
func writeUnescaped(b *strings.Builder, text []byte) {
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\\' && i+1 < len(text) && util.IsPunct(text[i+1]):
			i++
			b.WriteByte(text[i])
		case c == '&':
			if r, n := characterReference(text[i:]); n > 0 {
				b.WriteString(r)
				i += n - 1
			} else {
				b.WriteByte(c)
			}
		default:
			b.WriteByte(c)
		}
	}
}

// characterReference decodes the reference at the start of text ("&amp;",
// "&#35;", "&#x23;") and returns its characters and length; 0 when text does
// not start with one.
func characterReference(text []byte) (string, int) {
	end := 1
	for end < len(text) && end <= 40 && text[end] != ';' {
		end++
	}
	if end >= len(text) || text[end] != ';' || end < 2 {
		return "", 0
	}
	name := string(text[1:end])
	if digits, ok := strings.CutPrefix(name, "#"); ok {
		base := 10
		if rest, hex := strings.CutPrefix(digits, "x"); hex {
			digits, base = rest, 16
		} else if rest, hex := strings.CutPrefix(digits, "X"); hex {
			digits, base = rest, 16
		}
		if digits == "" || len(digits) > 7 {
			return "", 0
		}
		v, err := strconv.ParseUint(digits, base, 32)
		if err != nil {
			return "", 0
		}
		return string(util.ToValidRune(rune(v))), end + 1
	}
	entity, ok := util.LookUpHTML5EntityByName(name)
	if !ok {
		return "", 0
	}
	return string(entity.Characters), end + 1
}

// emptySlug stands in for a heading whose text has no character a slug
// keeps ("#", "## !!!"), so that every section id has a non-empty last element.
const emptySlug = "section"

// slugify turns heading text into GitHub's anchor: lowercase, every
// character that is not a letter, mark, number, connector punctuation ('_'),
// space or '-' dropped, then each space replaced by '-'. Spaces are not
// collapsed: "a  b" is "a--b", as on GitHub.
func slugify(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-',
			unicode.IsLetter(r), unicode.IsMark(r), unicode.IsNumber(r),
			unicode.Is(unicode.Pc, r):
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return emptySlug
	}
	return b.String()
}
