package frontmatterindex

import (
	"bytes"
	"regexp"
	"strings"
)

// firstHeading returns the text of the first non-empty heading of a
// markdown body (ATX "# Title" or setext "Title\n====="), outside fenced and
// indented code, with inline markup stripped; "" when there is none.
//
// This is a deliberately small scanner, not a CommonMark parser: the title
// only needs the first heading, and parsing every file of a large library
// with goldmark on each change would cost far more than the title is worth.
// It follows CommonMark where titles are decided: up to three spaces of
// indent, fences of ``` or ~~~, a closing run of '#', '=' or '-' underlines
// under a paragraph.
func firstHeading(src []byte) string {
	var fence string // the open fence's marker run, "" outside a fence
	var para []string
	for len(src) > 0 {
		var raw []byte
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			raw, src = src[:i], src[i+1:]
		} else {
			raw, src = src, nil
		}
		line := strings.TrimRight(string(raw), " \t\r")
		indent := indentWidth(line)
		text := strings.TrimLeft(line, " \t")
		if fence != "" {
			if indent < 4 && strings.HasPrefix(text, fence) && strings.Trim(text, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if text == "" {
			para = nil
			continue
		}
		if indent >= 4 {
			if len(para) > 0 {
				para = append(para, text) // a lazy continuation line
			}
			continue
		}
		if marker := fenceOpening(text); marker != "" {
			fence, para = marker, nil
			continue
		}
		if title, ok := atxHeading(text); ok {
			if title != "" {
				return title
			}
			para = nil
			continue
		}
		if len(para) > 0 && isSetextUnderline(text) {
			if title := cleanInline(strings.Join(para, " ")); title != "" {
				return title
			}
			para = nil
			continue
		}
		if startsBlock(text) {
			para = nil
			continue
		}
		para = append(para, text)
	}
	return ""
}

func indentWidth(line string) int {
	w := 0
	for _, c := range line {
		switch c {
		case ' ':
			w++
		case '\t':
			w += 4 - w%4
		default:
			return w
		}
	}
	return w
}

// fenceOpening returns the marker run of a code fence opening ("```",
// "~~~~"), or "".
func fenceOpening(text string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(text) && text[n] == c {
			n++
		}
		if n >= 3 {
			if c == '`' && strings.ContainsRune(text[n:], '`') {
				return "" // inline code, not a fence
			}
			return text[:n]
		}
	}
	return ""
}

// atxHeading reads "## Title ##": ok when text is an ATX heading line.
func atxHeading(text string) (string, bool) {
	n := 0
	for n < len(text) && text[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(text) && text[n] != ' ' && text[n] != '\t') {
		return "", false
	}
	rest := strings.TrimSpace(text[n:])
	// A closing run of '#' preceded by a space is not part of the title.
	if trimmed := strings.TrimRight(rest, "#"); trimmed == "" || strings.HasSuffix(trimmed, " ") || strings.HasSuffix(trimmed, "\t") {
		rest = strings.TrimSpace(trimmed)
	}
	return cleanInline(rest), true
}

func isSetextUnderline(text string) bool {
	return strings.Trim(text, "=") == "" || strings.Trim(text, "-") == ""
}

// startsBlock reports whether a line opens a block that is not a paragraph
// (list item, quote, HTML, table, thematic break), so a following "---"
// underlines no heading.
func startsBlock(text string) bool {
	switch text[0] {
	case '>', '<', '|':
		return true
	case '-', '*', '+':
		return len(text) == 1 || text[1] == ' ' || text[1] == '\t' || strings.Trim(strings.ReplaceAll(text, " ", ""), text[:1]) == ""
	}
	i := 0
	for i < len(text) && i < 9 && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(text) && (text[i] == '.' || text[i] == ')') && (text[i+1] == ' ' || text[i+1] == '\t')
}

var (
	inlineImage = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	inlineLink  = regexp.MustCompile(`\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])`)
	emphasis    = strings.NewReplacer("**", "", "__", "", "~~", "", "`", "", "*", "")
	escapes     = regexp.MustCompile(`\\([!-/:-@\[-` + "`" + `{-~])`)
)

// cleanInline strips the inline markup a title may carry: links and images
// keep their text, emphasis and code marks go, backslash escapes resolve.
// A single '_' stays, as in snake_case names.
func cleanInline(s string) string {
	if strings.ContainsAny(s, "[]!*_~`\\") {
		s = inlineImage.ReplaceAllString(s, "$1")
		s = inlineLink.ReplaceAllString(s, "$1")
		s = emphasis.Replace(s)
		s = escapes.ReplaceAllString(s, "$1")
	}
	return oneLine(s)
}
