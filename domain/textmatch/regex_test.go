package textmatch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode/utf8"
)

// regexPatterns exercise the plan: alternations, \b and \B, ^ and $ with
// and without (?m), bounded and unbounded repeats, folded k and s, non-ASCII
// literals, U+FFFD, top-level alternations and patterns with no proof.
var regexPatterns = []string{
	`(?i)\b(rotor|stator|turbine)\b[^.]{0,40}\b(voltage|current)\b`,
	`(?i)\bkey\b`, `(?i)ab.{0,3}cd`, `^abc`, `abc$`, `(?i)\Bxyz\B`, `é{1,2}kö`, `(?i)é{1,2}kö`, `(?i)(?:bar|baz)\s{0,2}qux`,
	`\bab`, `ab\b`, `(?i)work.stor`, `x[^.]{0,5}y`, `(?i)x[^.]{0,5}y`,
	`(?m)^key`, `(?m)key$`, `(?m)^\s*rotor\b.{0,10}$`, `(?i)^rotor`, `(?i)current$`, `(?i)\Arotor|current\z`,
	`(?i)rotor.*voltage`, `(?i)rotor.*voltage.{0,3}x`, `(?i)\w+ing\b`, `(?i)letofase\w*`, `(?i)(?:ab){2,}c`, `(?i)a(?:bc)+d`,
	`(?i)rotor|\bcurrent\b.{0,5}key|stator`, `rotor|[0-9]+`, `\d{3}`, `(?i)x?`, `(?i)(?:rotor|)voltage`,
	`(?i)skate`, `(?i)kelvin\b`, `(?i)\bss\b`, `(?i)k`, `(?i)(k|s).{0,2}(s|k)`, `(?i)rot(?-i:OR)`, `a\x{FFFD}b`, `(?i)\x{FFFD}x`,
	`(?i)日本.{0,4}語`, `日本`, `(?i)voltage\b.{1,30}\bcurrent\b.{1,30}\brotor`, `(?i)(?:ab|AB|aB)cd`,
	`(?i)(rotor)(?:\s+\w+){0,3}\s+(voltage)`, `(?s)rotor.{0,20}current`, `(?i)\b(?:a|b|c|d|e|f|g|h|i|j|k)\b.{0,3}z`,
	`(?i)key(?:\.{0,3}|x+)lock`, `(?U)(?i)ro+tor`, `(?i)[k]ey`, `(?i)\bwork\b`, `(?i)rotor\z`,
}

// regexWords make bodies for the patterns: their words in mixed case,
// the Kelvin sign and the long s, multi-byte and invalid bytes, line breaks.
var regexWords = []string{
	"rotor", "Stator", "TURBINE", "voltage", "current", "key", "\u212aey", "ab", "cd", "abc", "xyz", "é", "É", "kö", "kÖ",
	"bar", "baz", "qux", "work", "ſtor", "x", "y", ".", " ", "  ", "\n", "ü", "日本", "語", "_", "a", "z", "skate", "kelvin", "ss",
	"\u212aelvin", "ſſ", "letofase", "ing", "\xff", "\xe2\x82", "\xef\xbf\xbd", "b", "lock", "...", "rOtOr", "CuRReNT", "OR",
	"the quick brown fox jumps ", "with a long stretch of prose, ", "9", "123",
}

func randomBody(r *rand.Rand, n int) string {
	var b strings.Builder
	for ; n >= 0; n-- {
		w := regexWords[r.IntN(len(regexWords))]
		if r.IntN(4) == 0 {
			// Each ASCII letter's case at random.
			bs := []byte(w)
			for i, c := range bs {
				if ('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') && r.IntN(2) == 0 {
					bs[i] = c ^ 0x20
				}
			}
			w = string(bs)
		}
		b.WriteString(w)
	}
	return b.String()
}

// TestBodyMatchWindowsAreTheWholeMatch: matching by the plan answers as the
// whole-body match, for every pattern, on short and long random bodies.
func TestBodyMatchWindowsAreTheWholeMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, p := range regexPatterns {
		re := regexp.MustCompile(p)
		m := NewBodyMatcher(re)
		hits := 0
		for i := 0; i < 3000; i++ {
			n := r.IntN(40)
			if i%5 == 0 {
				n = 100 + r.IntN(400)
			}
			body := randomBody(r, n)
			got, want := m.Match(context.Background(), body), re.MatchString(body)
			if got != want {
				t.Fatalf("%s on %q: the plan says %v, the whole body %v", p, body, got, want)
			}
			if want {
				hits++
			}
		}
		t.Logf("%-60s %4d of 3000 match", p, hits)
	}
}

// TestBodyMatchPlan: what the analysis proves of each pattern, and where it
// proves nothing (every body matched whole).
func TestBodyMatchPlan(t *testing.T) {
	cases := []struct{ pattern, want string }{
		// The benchmark's: voltage|current scanned for, rotor|stator|turbine
		// within 47 runes before (54 less the anchor's 7), a match from 7
		// runes before the end of the first to 7 after the start of the last.
		{`(?i)\b(rotor|stator|turbine)\b[^.]{0,40}\b(voltage|current)\b`,
			`[anchor voltage|current near(before 54 rotor|stator|turbine) pre 7 post 7] \b`},
		{`(?i)\bkey\b`, `[anchor key pre 3 post 3] \b`},
		{`abc`, `[anchor =abc pre 3 post 3]`},
		{`(?i)ab.{0,3}cd`, `[anchor ab near(after 7 cd) pre 2 post 2]`},
		{`^abc`, `[anchor =abc pre 3 post 3] \A`},
		{`(?m)^abc$`, `[anchor =abc pre 3 post 3] ^ $`},
		{`abc\z`, `[anchor =abc pre 3 post 3] \z`},
		// Unbounded: a far check, and the window runs to the body's end.
		{`(?i)rotor.*voltage`, `[anchor rotor far(after voltage) pre 5 post -1]`},
		{`(?i)letofase\w*`, `[anchor letofase pre 8 post -1]`},
		{`(?i)(?:ab){2,}c`, `[anchor ab far(after c) pre -1 post -1]`},
		// A top-level alternation: one branch each.
		{`(?i)rotor|\bcurrent\b.{0,5}key|stator`, `[anchor rotor pre 5 post 5] [anchor current near(after 15 key) pre 7 post 3] [anchor stator pre 6 post 6] \b`},
		// The longest plainly matched run of a literal: not é under (?i), nor
		// U+FFFD, which an invalid byte matches too.
		{`(?i)é{1,2}kö`, `[anchor k pre 4 post 2]`},
		{`é{1,2}kö`, `[anchor =é near(after 4 =kö) pre 2 post 2]`},
		{`a\x{FFFD}bc`, `[anchor =bc pre 4 post 4]`},
		{`(?i)日本.{0,4}語`, `[anchor 日本 near(after 7 語) pre 2 post 1]`},
		{`(?i)(?:ab|AB|aB)cd`, `[anchor ab near(after 4 cd) pre 2 post 2]`},
		{`(?i)rot(?-i:OR)`, `[anchor =OR near(before 5 rot) pre 3 post 2]`},
		// No literal in a branch, or none at all: no plan.
		{`\d{3}`, `none`},
		{`rotor|[0-9]+`, `none`},
		{`(?i)x?`, `none`},
		{`(?i)(?:rotor|)voltage`, `[anchor voltage pre 12 post 7]`},
		{`(?i)é`, `none`},
	}
	for _, c := range cases {
		tree, err := syntax.Parse(c.pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := describeTSPlan(newBodyPlan(tree)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.pattern, got, c.want)
		}
	}
}

func describeTSPlan(p *bodyPlan) string {
	if p == nil {
		return "none"
	}
	lits := func(pc planPiece) string {
		var s []string
		for _, l := range pc.lits {
			if l.fold {
				s = append(s, l.text)
			} else {
				s = append(s, "="+l.text)
			}
		}
		return strings.Join(s, "|")
	}
	var out []string
	for _, b := range p.branches {
		s := "[anchor " + lits(b.pieces[b.anchor])
		for _, c := range b.near {
			side := "after"
			if c.before {
				side = "before"
			}
			s += fmt.Sprintf(" near(%s %d %s)", side, c.span, lits(b.pieces[c.piece]))
		}
		for _, c := range b.far {
			side := "after"
			if c.before {
				side = "before"
			}
			s += fmt.Sprintf(" far(%s %s)", side, lits(b.pieces[c.piece]))
		}
		out = append(out, s+fmt.Sprintf(" pre %d post %d]", b.pre, b.post))
	}
	for _, e := range []struct {
		on   bool
		name string
	}{{p.beginText, `\A`}, {p.beginLine, `^`}, {p.endLine, `$`}, {p.endText, `\z`}, {p.word, `\b`}} {
		if e.on {
			out = append(out, e.name)
		}
	}
	return strings.Join(out, " ")
}

// TestBodyMatchScan: the in-place scans (IndexByte, SWAR, two SWAR literals in
// one pass) find exactly the occurrences a plain search of the ASCII-lowered
// text does, at every alignment and near both ends.
func TestBodyMatchScan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", "A", "b", "B", "c", "C", "k", "K", " ", "s", "S", ".", "\n", "é", "\xff", "_", "日", "本", "\xe6"}
	texts := []string{"a", "ab", "abc", "kas", "b.c", "aaaa", "abé", "abcabcab", "s", "cab ab", "é", "日本", "xé", "本"}
	for i := 0; i < 4000; i++ {
		n := r.IntN(60)
		var sb strings.Builder
		for ; n > 0; n-- {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		s := sb.String()
		fold := r.IntN(3) > 0
		a, okA := newPlanLit([]rune(texts[r.IntN(len(texts))]), fold)
		b, okB := newPlanLit([]rune(texts[r.IntN(len(texts))]), fold)
		if !okA || !okB {
			continue // é under (?i): no plainly matched run
		}
		for _, swar := range []bool{false, true} {
			a.swar, b.swar = swar, swar
			from := r.IntN(len(s) + 1)
			to := from + r.IntN(len(s)-from+1)
			want := naiveIndex(s, a, from, to)
			if got := a.index(s, from, to); got != want {
				t.Fatalf("%q in %q[%d:%d] (fold %v, swar %v): index %d, want %d", a.text, s, from, to, fold, swar, got, want)
			}
			occs, _ := a.appendAll(nil, s, from, to, 1000)
			if got, want := starts(occs), sortedStarts(naiveAll(s, a, from, to)); got != want {
				t.Fatalf("%q in %q[%d:%d] (fold %v, swar %v): appendAll %s, want %s", a.text, s, from, to, fold, swar, got, want)
			}
			pc := planPiece{lits: []planLit{a, b}}
			occs, _ = pc.appendAll(nil, s, 1000)
			want2 := naiveAll(s, a, 0, len(s)) + naiveAll(s, b, 0, len(s))
			if got := starts(occs); got != sortedStarts(want2) {
				t.Fatalf("%q and %q in %q (fold %v, swar %v): %s, want %s", a.text, b.text, s, fold, swar, got, sortedStarts(want2))
			}
		}
	}
}

func naiveIndex(s string, l planLit, from, to int) int {
	for p := from; p+len(l.text) <= to; p++ {
		if l.at(s[p : p+len(l.text)]) {
			return p
		}
	}
	return -1
}

func naiveAll(s string, l planLit, from, to int) string {
	out := ""
	for p := from; p+len(l.text) <= to; p++ {
		if l.at(s[p : p+len(l.text)]) {
			out += fmt.Sprintf("%d,", p)
		}
	}
	return out
}

func starts(occs []occurrence) string {
	out := ""
	for _, o := range occs {
		out += fmt.Sprintf("%d,", o.start)
	}
	return sortedStarts(out)
}

func sortedStarts(list string) string {
	var n []int
	for _, f := range strings.Split(strings.TrimSuffix(list, ","), ",") {
		var v int
		if _, err := fmt.Sscan(f, &v); err == nil {
			n = append(n, v)
		}
	}
	for i := range n {
		for j := i + 1; j < len(n); j++ {
			if n[j] < n[i] {
				n[i], n[j] = n[j], n[i]
			}
		}
	}
	return fmt.Sprint(n)
}

// TestBodyMatchRuneWalks: the walks that turn rune bounds into byte
// positions never fall short of the runes the regexp package reads, invalid
// bytes included.
func TestBodyMatchRuneWalks(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	parts := []string{"a", "é", "日", "😀", "\xff", "\xe2\x82", "\x80", "\n"}
	for i := 0; i < 2000; i++ {
		var sb strings.Builder
		for n := r.IntN(30); n > 0; n-- {
			sb.WriteString(parts[r.IntN(len(parts))])
		}
		s := sb.String()
		// The boundaries the regexp package steps through.
		var bounds []int
		for p := 0; ; {
			bounds = append(bounds, p)
			if p == len(s) {
				break
			}
			_, w := utf8.DecodeRuneInString(s[p:])
			p += w
		}
		for a := range bounds {
			for n := 0; a+n < len(bounds); n++ {
				if got := runesFwd(s, bounds[a], n); got < bounds[a+n] {
					t.Fatalf("%q: %d runes from %d end at %d, the walk says %d", s, n, bounds[a], bounds[a+n], got)
				}
				if got := runesBack(s, bounds[a+n], n); got > bounds[a] {
					t.Fatalf("%q: %d runes before %d start at %d, the walk says %d", s, n, bounds[a+n], bounds[a], got)
				}
			}
		}
	}
}

// FuzzBodyMatch: match is re.MatchString for any regex and body.
func FuzzBodyMatch(f *testing.F) {
	r := rand.New(rand.NewPCG(9, 10))
	for i, p := range regexPatterns {
		f.Add(p, randomBody(r, 20+i%30), false)
	}
	f.Add(`\b(rotor|stator|turbine)\b[^.]{0,40}\b(voltage|current)\b`, "The rotor of the voltage. A stator current.", false)
	f.Add(`(?m)^key$`, "a\nkey\nb", true)
	f.Add(`kelvin`, "\u212aelvin", false)
	f.Fuzz(func(t *testing.T, pattern, body string, caseSensitive bool) {
		if len(pattern) > 200 {
			return
		}
		flags := "(?i)"
		if caseSensitive {
			flags = ""
		}
		re, err := regexp.Compile(flags + pattern)
		if err != nil {
			return
		}
		if got, want := NewBodyMatcher(re).Match(context.Background(), body), re.MatchString(body); got != want {
			t.Fatalf("%s on %q: the plan says %v, the whole body %v", re, body, got, want)
		}
	})
}
