package passage

import (
	"slices"
	"strings"
)

// What of a doc's frontmatter an answer may quote. Some doc sets keep facts
// there that the body never restates: Hugo's function pages hold their
// summary (`description: Returns the given string, truncating it ...`), their
// return type and their signatures only in frontmatter. A doc's first section
// is quoted with those lines, as if they opened it; its title, tags and
// other keys that place or lay out the page are not facts, and are never
// quoted.

// layoutKeys are frontmatter keys that name, place or lay out a page, in
// the doc tools' spellings (Hugo, Docusaurus, VitePress, Jekyll, 11ty):
// their lines state nothing a question asks about the page's subject, and
// the answer names the doc already.
var layoutKeys = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`title titletemplate linktitle id slug url permalink aliases tags categories
		keywords weight order nav_order sidebar sidebar_label sidebar_position sidebar_class_name outline layout
		theme page pageclass footer aside returntotop prev next eleventynavigation menu menus toc draft date lastmod
		publishdate expirydate type template editlink lang head hero features source further_reading
		hide_title hide_table_of_contents pagination_label pagination_next pagination_prev image cover author
		authors navbar search comments parent has_children nav_exclude`) {
		layoutKeys[k] = true
	}
}

// WithFrontmatter returns what a section spanning start.. of a doc is
// quoted from: when it opens the doc's body, the doc's lines with the
// frontmatter's facts kept (FrontmatterFacts) and the rest of the
// frontmatter blank, and the first fact's line as the section's first
// line; otherwise lines and start as they are. lines is not changed: the
// lines returned are a copy when they differ.
func WithFrontmatter(lines []string, frontmatterEnd, start int) ([]string, int) {
	// A spell checker's word list (`cSpell:ignore: otelc toolexec`) is
	// searched with the section (the page's rare words find it) but is no
	// line to quote: it states nothing.
	facts := slices.DeleteFunc(FrontmatterFacts(lines, frontmatterEnd, start), func(k int) bool {
		return strings.EqualFold(frontmatterKey(strings.TrimSpace(lines[k-1])), "cspell")
	})
	if len(facts) == 0 {
		return lines, start
	}
	out := make([]string, len(lines))
	copy(out, lines)
	for k := 1; k <= frontmatterEnd; k++ {
		out[k-1] = ""
	}
	for _, k := range facts {
		out[k-1] = lines[k-1]
	}
	return out, facts[0]
}

// FrontmatterFacts returns the lines of a doc's frontmatter (lines
// 1..frontmatterEnd) that state facts, when the section starting at start
// opens the doc's body (nothing but blank lines between them), else none:
// a `key: value` or `key = value` line, or a line nested under one, whose
// top-level key is not a layout key and whose value holds at least
// frontmatterFactWords words. The section index searches them as the
// section's, and answers quote them as its lines (WithFrontmatter).
func FrontmatterFacts(lines []string, frontmatterEnd, start int) []int {
	if frontmatterEnd < 3 || start <= frontmatterEnd || frontmatterEnd > len(lines) {
		return nil
	}
	for k := frontmatterEnd + 1; k < start && k <= len(lines); k++ {
		if strings.TrimSpace(lines[k-1]) != "" {
			return nil
		}
	}
	var facts []int
	key := ""
	for k := 2; k < frontmatterEnd; k++ {
		line := strings.TrimRight(lines[k-1], "\r")
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		nested := line[0] == ' ' || line[0] == '\t' || strings.HasPrefix(t, "- ")
		if !nested {
			key = strings.ToLower(frontmatterKey(t))
		}
		if key == "" || layoutKeys[key] || len(strings.Fields(frontmatterValue(t))) < frontmatterFactWords {
			continue
		}
		facts = append(facts, k)
	}
	return facts
}

// frontmatterKey is a top-level frontmatter line's key: what comes before
// its `:` (YAML) or `=` (TOML), "" when it has neither.
func frontmatterKey(t string) string {
	i := strings.IndexAny(t, ":=")
	if i <= 0 {
		return ""
	}
	return strings.Trim(strings.TrimSpace(t[:i]), `"'`)
}

// frontmatterFactWords is how many words a frontmatter line's value holds
// at least to state a fact: a summary or a signature, not a one-word
// setting (`rule_type: suggestion`, a related rule's name), whose key's
// words would match questions about the subject of the doc.
const frontmatterFactWords = 3

// frontmatterValue is a frontmatter line's value: what follows its key's
// `:` or `=`, or a list item's text (a block scalar's line, nested, has
// no key: all of it).
func frontmatterValue(t string) string {
	if item, ok := strings.CutPrefix(t, "- "); ok {
		return item
	}
	if i := strings.IndexAny(t, ":="); i > 0 && !strings.ContainsAny(strings.TrimSpace(t[:i]), " \t") {
		return t[i+1:]
	}
	return t
}
