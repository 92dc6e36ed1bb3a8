package postgressectionindex

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/passage"
)

// fold maps every character of b to one representative of its Unicode
// simple-folding class (the class's smallest rune, lower-cased), so that a
// case-insensitive match in the original is an exact substring of the
// folded text: LIKE on folded text never misses what the caller's matcher
// finds. NUL (which PostgreSQL text cannot hold) and invalid UTF-8 become
// U+FFFD, as Go's regexp reads invalid bytes; a literal is folded the same
// way, so the mapping only ever adds candidates.
func fold(b []byte) string {
	var out strings.Builder
	out.Grow(len(b))
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		out.WriteRune(foldRune(r))
	}
	return out.String()
}

func foldString(s string) string { return fold([]byte(s)) }

func foldRune(r rune) rune {
	switch {
	case r == 0:
		return utf8.RuneError
	case r < utf8.RuneSelf:
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < least {
			least = f
		}
	}
	return unicode.ToLower(least)
}

// clean makes s acceptable as PostgreSQL text: valid UTF-8, no NUL.
func clean(s string) string {
	if utf8.ValidString(s) && !strings.ContainsRune(s, 0) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.ReplaceAll(s, "\x00", "\uFFFD")
}

// codeAware returns s with the parts of every code-like token appended
// after it: `getRuntimeKey` is followed by `get Runtime Key`,
// `hono/adapter` by `hono adapter`, `app.get` by `app get`. PostgreSQL's
// parser already splits snake_case and hyphenated words (keeping the
// hyphenated whole too) but keeps camelCase, paths and dotted names whole;
// with the parts beside them a token is found both by its whole form and
// by its parts. The same function prepares documents and queries.
//
// Angle brackets become spaces first: PostgreSQL's parser reads `<b>` as
// an XML tag, which it drops, and drops everything between `<script>` and
// `</script>` (or `<style>`), so a Svelte or Vue section that writes
// `<script setup>` in its prose lost its words, heading included.
func codeAware(s string) string {
	out, _ := codeAwareJoined(s)
	return out
}

// codeAwareJoined is codeAware, and how many joined forms of snake_case
// names (writeJoined) it wrote: a section's length, for BM25, leaves them
// out (SQLite's index holds them in a column of their own), so that a
// section naming many snake_case keys (an .editorconfig's) is not the
// longer for them. Counted as they are written: one pass over the text.
func codeAwareJoined(s string) (string, int) {
	s = untagged(s)
	joined := 0
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		tok := s[start:end]
		start = -1
		joined += writeJoined(&b, tok)
		b.WriteString(tok)
		if parts := splitCode(tok); len(parts) > 1 {
			for _, p := range parts {
				b.WriteByte(' ')
				b.WriteString(p)
			}
		}
	}
	for i, r := range s {
		if unicode.IsSpace(r) {
			flush(i)
			b.WriteRune(r)
			continue
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(s))
	return b.String(), joined
}

// writeJoined writes, each followed by a space, the joined form of every
// snake_case name in tok (`OTEL_SDK_DISABLED` is otelsdkdisabled): its
// parts in lower case, run together, as the SQLite index's whole form of a
// code name. PostgreSQL's parser splits snake_case into its words and keeps
// no whole (where a camelCase, dotted or hyphenated name has one), so a
// question naming an environment variable was searched by its common parts
// alone (otel, sdk, disabled): the sections holding them most, not the one
// naming the variable, came first. Written before the token, so that a
// question's word reads its joined form as its first lexeme (wordGroups).
// It returns how many it wrote.
func writeJoined(b *strings.Builder, tok string) int {
	forms := joinedForms(tok)
	for _, j := range forms {
		b.WriteString(j)
		b.WriteByte(' ')
	}
	return len(forms)
}

// joinedForms are the joined forms writeJoined writes for tok.
func joinedForms(tok string) []string {
	if !strings.Contains(tok, "_") {
		return nil
	}
	var out []string
	for _, name := range strings.FieldsFunc(tok, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '.' && r != '/' && r != ':' && r != '$'
	}) {
		if !strings.Contains(strings.Trim(name, "_"), "_") {
			continue
		}
		if parts := splitCode(name); len(parts) > 1 {
			out = append(out, strings.ToLower(strings.Join(parts, "")))
		}
	}
	return out
}

// untagged is s with '<' and '>' as spaces.
func untagged(s string) string {
	if !strings.ContainsAny(s, "<>") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '<' || r == '>' {
			return ' '
		}
		return r
	}, s)
}

// splitCode splits a token at separators (/ . : _ - and other punctuation)
// and at camelCase boundaries (`getHTTPResponse` → get HTTP Response).
// A plain word gives one part.
func splitCode(tok string) []string {
	var parts []string
	rs := []rune(tok)
	start := -1
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			if start >= 0 {
				parts = append(parts, string(rs[start:i]))
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		boundary := unicode.IsLower(prev) && unicode.IsUpper(r) ||
			unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if boundary {
			parts = append(parts, string(rs[start:i]))
			start = i
		}
	}
	if start >= 0 {
		parts = append(parts, string(rs[start:]))
	}
	return parts
}

// sectionText is what a section contributes to ranked search.
type sectionText struct {
	heading string // the doc title and the section's heading path
	code    string // code blocks and the identifiers the doc defines there
	body    string // the rest of its own lines
	// joined: how many joined forms of snake_case names the three hold
	// (codeAwareJoined), which the section's length leaves out.
	joined int
}

// sectionTexts splits a document into the texts of its sections. A section
// owns its lines up to the next section's start (its subsections rank on
// their own), frontmatter excluded.
func sectionTexts(e entryView) []sectionText {
	lines := splitLines(e.content)
	secs := e.structure.Sections
	inCode := make([]bool, len(lines)+2)
	for _, cb := range e.structure.CodeBlocks {
		for l := cb.Start; l <= cb.End && l <= len(lines); l++ {
			if l >= 1 {
				inCode[l] = true
			}
		}
	}
	out := make([]sectionText, len(secs))
	for i, s := range secs {
		var heading []string
		if e.title != "" {
			heading = append(heading, e.title)
		}
		if e.pathWords != "" {
			heading = append(heading, e.pathWords)
		}
		if e.tags != "" {
			heading = append(heading, e.tags)
		}
		var path []string
		// Parents come before their children; the bound keeps a
		// malformed parent index from looping.
		for p, steps := i, 0; p >= 0 && p < len(secs) && steps <= len(secs); p, steps = secs[p].Parent, steps+1 {
			if secs[p].Heading != "" {
				path = append(path, secs[p].Heading)
			}
		}
		for j := len(path) - 1; j >= 0; j-- {
			heading = append(heading, path[j])
		}
		end := e.structure.OwnEnd(i)
		var code, body strings.Builder
		// A doc's first section holds its frontmatter's facts (a summary,
		// a signature), which answers quote as its lines.
		for _, l := range passage.FrontmatterFacts(lines, e.structure.FrontmatterEnd, s.Start) {
			body.WriteString(lines[l-1])
			body.WriteByte('\n')
		}
		for l := max(s.Start, e.structure.FrontmatterEnd+1); l <= end && l <= len(lines); l++ {
			if l == s.Start && s.Heading != "" {
				continue // the heading is in the heading column
			}
			w := &body
			if inCode[l] {
				w = &code
			}
			w.WriteString(lines[l-1])
			w.WriteByte('\n')
		}
		for _, n := range e.names {
			if n.Kind != domain.NameHeading && n.Line >= s.Start && n.Line <= end {
				code.WriteString(n.Name)
				code.WriteByte('\n')
			}
		}
		h, inHeading := codeAwareJoined(strings.Join(heading, "\n"))
		c, inCode := codeAwareJoined(code.String())
		t, inBody := codeAwareJoined(body.String())
		out[i] = sectionText{
			heading: clean(h),
			code:    clean(c),
			body:    clean(t),
			joined:  inHeading + inCode + inBody,
		}
	}
	return out
}

// entryView is the part of an entry sectionTexts reads.
type entryView struct {
	title     string
	pathWords string // domain.Document.PathWords, searched with the title
	tags      string // the doc's tags, space-separated, searched with the title
	content   []byte
	structure domain.Structure
	names     []domain.Name
}

// splitLines splits on '\n' only; a trailing '\n' starts no line.
func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := string(b)
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}
