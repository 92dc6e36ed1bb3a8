package sqlitesectionindex

import (
	"sort"
	"strings"
	"unicode"

	"github.com/librarian/librarian/domain/passage"
	"github.com/librarian/librarian/ports/sectionindex"
)

// sectionText is what the ranked table holds of one section.
type sectionText struct {
	id         string
	start, end int
	title      string // the doc's title; a doc's first section's, its frontmatter's facts too
	heading    string // the heading path: ancestors' headings, then its own
	body       string // its own lines (before its first subsection), one per line from start
	code       string // the code identifiers of its own lines, whole and split
}

// sectionTexts cuts e's content into its sections' own texts. Frontmatter
// lines are blanked (they are not body text) but kept as empty lines, so
// the body's line i is the file's line start+i.
func sectionTexts(e sectionindex.Entry) []sectionText {
	lines := strings.Split(string(e.Content), "\n")
	secs := e.Structure.Sections
	out := make([]sectionText, 0, len(secs))
	for i, s := range secs {
		own := e.Structure.OwnEnd(i)
		var body strings.Builder
		for l := s.Start; l <= own && l <= len(lines); l++ {
			if l > s.Start {
				body.WriteByte('\n')
			}
			if l > e.Structure.FrontmatterEnd {
				body.WriteString(strings.TrimRight(lines[l-1], "\r"))
			}
		}
		var path []string
		for p := i; p >= 0; p = secs[p].Parent {
			if secs[p].Heading != "" {
				path = append([]string{secs[p].Heading}, path...)
			}
		}
		code := identifierForms(body.String())
		for _, n := range e.Names {
			if n.Line >= s.Start && n.Line <= own {
				code = append(code, n.Name)
				code = append(code, identifierForms(n.Name)...)
			}
		}
		// Every section is searched with its doc's title, its path's words
		// and its tags (a question names the part of the library it is
		// about: domain.Document.PathWords). A doc's first section holds its
		// frontmatter's facts too (a summary, a signature:
		// passage.FrontmatterFacts), which answers quote as its lines;
		// searched with the title, as a doc's own summary of itself, not in
		// the body, whose line i is the file's start+i.
		title := e.Doc.Title + "\n" + e.Doc.PathWords() + "\n" + strings.Join(e.Doc.Tags, " ")
		for _, l := range passage.FrontmatterFacts(lines, e.Structure.FrontmatterEnd, s.Start) {
			title += "\n" + strings.TrimSpace(lines[l-1])
		}
		// The title and heading columns hold a code name's parts beside its
		// whole form, as the code column does ("hookTimeout": hook timeout):
		// the unicode61 tokenizer reads "hookTimeout" or "fsModuleCachePath"
		// as one token, so a one-option page titled by its option's name
		// was found by its name's words only through the code column, at a
		// quarter of the heading's weight (PostgreSQL's heading vector has
		// the parts already: codeAware).
		heading := strings.Join(path, " / ")
		title = withIdentifierParts(title)
		heading = withIdentifierParts(heading)
		out = append(out, sectionText{id: s.ID, start: s.Start, end: s.End, title: title, heading: heading, body: body.String(), code: strings.Join(dedup(code), " ")})
	}
	return out
}

// withIdentifierParts is text with the camelCase parts of its words
// added on a line of their own ("hookTimeout": hook timeout), or text as
// it is when no word has such parts. Only camelCase: the tokenizer splits
// a word at hyphens, dots and underscores already ("no-param-reassign"
// is no, param, reassign), so those parts are searchable as they are.
func withIdentifierParts(text string) string {
	var parts []string
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return !isWordRune(r) }) {
		if !mayBeIdentifier(tok) {
			continue
		}
		if _, ps := splitIdentifier(tok); len(ps) > 1 {
			parts = append(parts, ps...)
		}
	}
	if len(parts) == 0 {
		return text
	}
	return text + "\n" + strings.Join(dedup(parts), " ")
}

func dedup(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// isJoiner tells the punctuation that holds a code identifier together
// (max_age, --radius-field, hono/adapter, os.Getenv, std::vector).
func isJoiner(r rune) bool {
	return r == '_' || r == '-' || r == '.' || r == '/' || r == ':' || r == '$'
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// identifierForms finds the code identifiers in text (words joined by
// isJoiner punctuation or written in camelCase) and gives, for each, its
// whole form with the punctuation removed ("radiusfield") and its parts
// ("radius field"), lower case. Plain words give nothing: the body column
// has them.
func identifierForms(text string) []string {
	var out []string
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return !isWordRune(r) && !isJoiner(r) }) {
		if !mayBeIdentifier(tok) {
			continue
		}
		whole, parts := splitIdentifier(tok)
		if len(parts) < 2 {
			continue
		}
		out = append(out, whole)
		out = append(out, parts...)
	}
	return out
}

// mayBeIdentifier is a cheap test that tok is more than a plain word: a
// joiner inside it, or an upper-case letter after its first. Most words of
// prose fail it, so they are never split.
func mayBeIdentifier(tok string) bool {
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= 0x80:
			return true // non-ASCII: let splitIdentifier decide
		case i > 0 && c >= 'A' && c <= 'Z':
			return true
		case i > 0 && i < len(tok)-1 && (c == '_' || c == '-' || c == '.' || c == '/' || c == ':' || c == '$'):
			return true
		}
	}
	return false
}

// splitIdentifier gives tok's whole form (word runes only, lower case) and
// its parts: split at joiners and at camelCase and letter-digit bounds.
func splitIdentifier(tok string) (string, []string) {
	var whole strings.Builder
	var parts []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			parts = append(parts, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(tok)
	for i, r := range rs {
		if !isWordRune(r) {
			flush()
			continue
		}
		whole.WriteRune(unicode.ToLower(r))
		if len(cur) > 0 {
			prev := cur[len(cur)-1]
			lowerToUpper := unicode.IsLower(prev) && unicode.IsUpper(r)
			// "HTTPServer": the S starts a word when a lower case follows.
			acronymEnd := unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if lowerToUpper || acronymEnd {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return whole.String(), parts
}

// matchExpression turns a question in words into an FTS5 expression: each
// word a quoted string (so no search syntax is ever interpreted), code
// identifiers as their whole form or the phrase of their parts, all joined
// by OR so bm25 ranks sections holding more and rarer words first. parts
// are the lower-case words searched for, for picking lines.
func matchExpression(text string) (expr string, parts []string) {
	terms, parts, _ := matchTerms(text)
	return strings.Join(terms, " OR "), parts
}

// matchTerms is matchExpression's terms, one per word: any of them
// matching matches the question (OR), all of them a section holding every
// word (AND). near are the question's pairs of adjacent plain words (not
// code, not a code name's parts), lower-case, for telling which sections
// hold two of its words together (nearScore, proximity.Share).
func matchTerms(text string) (terms, parts []string, near [][2]string) {
	type word struct {
		whole string
		parts []string
		code  bool // in a code span: `a = b = 0`
	}
	var words, stops []word
	// Between backticks (odd pieces) is code.
	for i, piece := range strings.Split(text, "`") {
		for _, tok := range strings.FieldsFunc(piece, func(r rune) bool { return !isWordRune(r) && !isJoiner(r) }) {
			whole, ps := splitIdentifier(tok)
			if len(ps) == 0 {
				continue
			}
			w := word{whole, ps, i%2 == 1}
			if len(ps) == 1 && passage.QueryStopword(whole) {
				stops = append(stops, w)
				continue
			}
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		words = stops
	}
	quote := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	for i := 1; i < len(words); i++ {
		a, b := words[i-1], words[i]
		if len(a.parts) != 1 || len(b.parts) != 1 || a.code || b.code || a.whole == b.whole {
			continue
		}
		near = append(near, [2]string{a.parts[0], b.parts[0]})
	}
	for _, w := range words {
		parts = append(parts, w.parts...)
		alts := []string{quote(w.whole)}
		if len(w.parts) > 1 {
			alts = append(alts, quote(strings.Join(w.parts, " ")))
		}
		// A number in code is a value (`a = b = 0`), not a version.
		if v, ok := versionForm(w.parts); ok && !w.code {
			alts = append(alts, quote(v))
		}
		if len(alts) == 1 {
			terms = append(terms, alts[0])
			continue
		}
		terms = append(terms, "("+strings.Join(alts, " OR ")+")")
	}
	return terms, parts, near
}

// versionForm is a version number's other spelling, as the tokenizer
// reads it: "1.0" as "v1 0" and "v1.0" as "1 0", "11" as "v11" and
// "v11" as "11". Docs write a version either way ("versioned to v1.0",
// "pnpm 11"), and unicode61 reads "v1" as one token that "1" does not
// meet.
func versionForm(parts []string) (string, bool) {
	first := parts[0]
	rest := strings.Join(parts[1:], " ")
	join := func(head string) string {
		if rest == "" {
			return head
		}
		return head + " " + rest
	}
	switch {
	case allDigits(first):
		return join("v" + first), true
	case len(first) > 1 && first[0] == 'v' && allDigits(first[1:]):
		return join(first[1:]), true
	}
	return "", false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// bestLines picks up to three lines of a section from its body as
// highlight() marked it (\x01 before each matched token): most marks
// first, then in order. With no mark (the match was in the title, heading
// path or code column), lines holding a query part are taken, and failing
// that the section's first line.
func bestLines(marked string, start int, parts []string) []int {
	type scored struct{ line, n int }
	var ls []scored
	for i, l := range strings.Split(marked, "\n") {
		if n := strings.Count(l, "\x01"); n > 0 {
			ls = append(ls, scored{start + i, n})
		}
	}
	if len(ls) == 0 {
		for i, l := range strings.Split(strings.ToLower(marked), "\n") {
			n := 0
			for _, p := range parts {
				n += strings.Count(l, p)
			}
			if n > 0 {
				ls = append(ls, scored{start + i, n})
			}
		}
	}
	if len(ls) == 0 {
		return []int{start}
	}
	// Most marks first, ties in line order.
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].n > ls[j].n })
	out := make([]int, 0, 3)
	for _, s := range ls {
		if len(out) == 3 {
			break
		}
		out = append(out, s.line)
	}
	return out
}
