package textmatch

import "strings"

// RE2Limits explains, for a regex that Go's regexp package refused, the
// features of other regex dialects it uses that RE2 (Go's syntax: linear
// time, no backtracking) does not have, and what to write instead; "" when
// it uses none. Go's own message can mislead here (a lookbehind `(?<=a)`
// is refused as an "invalid named capture"), so search errors add this.
//
//	RE2 (Go's regex syntax) has neither lookbehind nor backreferences: `(?<=` cannot be used; match the text before as part of the pattern instead
func RE2Limits(pattern string) string {
	found := re2Features(pattern)
	var parts []string
	if found.lookbehind || found.backreference {
		var used []string
		if found.lookbehind {
			used = append(used, "lookbehind `"+found.lookbehindAt+"`")
		}
		if found.backreference {
			used = append(used, "backreference `"+found.backreferenceAt+"`")
		}
		parts = append(parts, "RE2 (Go's regex syntax) has neither lookbehind nor backreferences, so the "+
			strings.Join(used, " and the ")+" cannot be used: match the text itself as part of the pattern instead")
	}
	if found.lookahead {
		parts = append(parts, "RE2 has no lookahead `"+found.lookaheadAt+"`: match the text that follows as part of the pattern instead")
	}
	if found.atomic {
		parts = append(parts, "RE2 has no atomic groups or possessive quantifiers (`"+found.atomicAt+"`): drop them, RE2 never backtracks")
	}
	return strings.Join(parts, "; ")
}

// re2Found records the first use of each feature RE2 lacks.
type re2Found struct {
	lookbehind, lookahead, backreference, atomic         bool
	lookbehindAt, lookaheadAt, backreferenceAt, atomicAt string
}

// re2Features scans pattern outside character classes, skipping escaped
// characters, for the constructs of PCRE, JavaScript and .NET regexes
// that RE2 refuses.
func re2Features(p string) re2Found {
	var f re2Found
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			next := p[i+1]
			if !inClass && next >= '1' && next <= '9' && !f.backreference {
				f.backreference, f.backreferenceAt = true, p[i:i+2]
			}
			if !inClass && next == 'k' && i+2 < len(p) && (p[i+2] == '<' || p[i+2] == '{' || p[i+2] == '\'') && !f.backreference {
				f.backreference, f.backreferenceAt = true, p[i:i+3]
			}
			i++ // the escaped character is literal
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
			if strings.HasPrefix(p[i+1:], "]") || strings.HasPrefix(p[i+1:], "^]") { // a ']' first in a class is literal
				i += strings.IndexByte(p[i+1:], ']') + 1
			}
		case strings.HasPrefix(p[i:], "(?<=") || strings.HasPrefix(p[i:], "(?<!"):
			if !f.lookbehind {
				f.lookbehind, f.lookbehindAt = true, p[i:i+4]
			}
		case strings.HasPrefix(p[i:], "(?=") || strings.HasPrefix(p[i:], "(?!"):
			if !f.lookahead {
				f.lookahead, f.lookaheadAt = true, p[i:i+3]
			}
		case strings.HasPrefix(p[i:], "(?>"):
			if !f.atomic {
				f.atomic, f.atomicAt = true, "(?>"
			}
		case (c == '*' || c == '+' || c == '?' || c == '}') && i+1 < len(p) && p[i+1] == '+' && i > 0:
			if !f.atomic {
				f.atomic, f.atomicAt = true, p[i:i+2]
			}
		}
	}
	return f
}
