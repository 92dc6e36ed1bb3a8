package goldmarkmarkdown

import (
	"strings"
	"unicode"
)

// explicitAnchor splits a heading's text into its words and the anchor the
// heading sets for itself: `{#id}` at its end, as VitePress, Docusaurus,
// Hugo, Pandoc and markdown-it-attrs read it ("Options {#opts}" is the
// heading "Options" at the anchor "opts"). Sites built from such docs link
// to that anchor (`config#opts`), so the section's slug is the anchor's,
// and the braces are no words of the heading. A heading with no such
// block, or nothing before it, is returned as it is, with no anchor; so
// is one whose source (raw) does not end with the block, as when it is
// the text of a code span (Svelte's `{#if}` block named in a heading).
func explicitAnchor(text, raw string) (words, anchor string) {
	if !strings.HasSuffix(text, "}") {
		return text, ""
	}
	open := strings.LastIndex(text, "{#")
	if open <= 0 {
		return text, ""
	}
	id := text[open+2 : len(text)-1]
	words = strings.TrimRight(text[:open], " \t")
	if id == "" || words == "" || len(words) == open {
		return text, "" // no id, nothing before it, or no space before the brace
	}
	for _, r := range id {
		if !isAnchorRune(r) {
			return text, ""
		}
	}
	if !strings.HasSuffix(strings.TrimRight(raw, " \t\r"), "{#"+id+"}") {
		return text, ""
	}
	return words, id
}

// isAnchorRune tells the characters an explicit anchor's id is made of:
// letters, digits, '-' and '_', and the '.' and ':' HTML ids may hold.
func isAnchorRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.' || r == ':'
}
