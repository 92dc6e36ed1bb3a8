package textmatch

import (
	"regexp"
	"strings"
	"testing"
)

func TestRE2Limits(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		want    string // substring; "" = no explanation
	}{
		{`(?<=token )\w+`, "RE2 (Go's regex syntax) has neither lookbehind nor backreferences, so the lookbehind `(?<=` cannot be used"},
		{`(?<!un)safe`, "lookbehind `(?<!`"},
		{`(\w+) \1`, "has neither lookbehind nor backreferences, so the backreference `\\1` cannot be used"},
		{`(?<w>a)\k<w>`, "backreference `\\k<`"},
		{`(?<=a)(b)\1`, "so the lookbehind `(?<=` and the backreference `\\1` cannot be used"},
		{`foo(?=bar)`, "RE2 has no lookahead `(?=`"},
		{`foo(?!bar)`, "RE2 has no lookahead `(?!`"},
		{`(?>a+)b`, "no atomic groups or possessive quantifiers (`(?>`)"},
		{`a++b`, "possessive quantifiers (`++`)"},
		{`a(`, ""},          // an ordinary mistake: Go's message says it all
		{`\(?<=x`, ""},      // escaped: a literal '(' then an optional '<'... RE2 reads it fine
		{`[(?<=]x`, ""},     // inside a character class
		{`[\]\1]`, ""},      // escapes inside a class are not backreferences
		{`[]\1]`, ""},       // a leading ']' is literal in a class
		{`(?<name>a)`, ""},  // named groups RE2 has
		{`a\\1`, ""},        // an escaped backslash, then a literal 1
		{`x{2}+`, "(`}+`)"}, // possessive after a counted repetition
		{`(?i)Token`, ""},   // flags RE2 has
	} {
		got := RE2Limits(tc.pattern)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("RE2Limits(%q) = %q, want %q", tc.pattern, got, tc.want)
		}
		// Every pattern explained is one Go refuses.
		if _, err := regexp.Compile(tc.pattern); got != "" && err == nil {
			t.Errorf("RE2Limits(%q) explains a pattern Go accepts", tc.pattern)
		}
	}
}
