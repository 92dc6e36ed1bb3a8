package app

import (
	"context"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestTSRegexWindowsAreTheWholeMatch: matching in windows around literal
// occurrences answers as the whole-body match, for bounded patterns with
// assertions, folding (the Kelvin sign), multi-byte runes and matches
// spanning lines.
func TestTSRegexWindowsAreTheWholeMatch(t *testing.T) {
	patterns := []string{
		`(?i)\b(rotor|stator|turbine)\b[^.]{0,40}\b(voltage|current)\b`,
		`(?i)\bkey\b`, `(?i)ab.{0,3}cd`, `^abc`, `abc$`, `(?i)\Bxyz\B`, `é{1,2}kö`, `(?i)(?:bar|baz)\s{0,2}qux`,
		`\bab`, `ab\b`, `(?i)work.stor`, `x[^.]{0,5}y`,
	}
	words := []string{"rotor", "Stator", "TURBINE", "voltage", "current", "key", "\u212aey", "ab", "cd", "abc", "xyz", "é", "kö",
		"bar", "baz", "qux", "work", "ſtor", "x", "y", ".", " ", "\n", "ü", "日本", "_", "a", "z"}
	r := rand.New(rand.NewPCG(3, 4))
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		m := newTSRegexMatcher(re)
		for i := 0; i < 3000; i++ {
			var b strings.Builder
			for n := r.IntN(40); n >= 0; n-- {
				b.WriteString(words[r.IntN(len(words))])
			}
			body := b.String()
			if got, want := m.match(context.Background(), body), re.MatchString(body); got != want {
				t.Fatalf("%s on %q: windows say %v, the whole body %v", p, body, got, want)
			}
		}
	}
	if m := newTSRegexMatcher(regexp.MustCompile(`(?i)\b(rotor|stator|turbine)\b[^.]{0,40}\b(voltage|current)\b`)); m.maxLen < 0 || m.lits == nil {
		t.Errorf("the benchmark's regex is not windowed: maxLen %d, literals %v", m.maxLen, m.lits)
	}
}
