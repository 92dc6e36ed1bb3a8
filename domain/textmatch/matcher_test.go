package textmatch

import (
	"context"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// The query modes of the tests: a literal string, or a regex.
const (
	modeString = "string"
	modeRegex  = "regex"
)

// TestMatcherAgainstReference compares the scan strategies with a plain
// per-line reference over awkward content: no trailing newline, CRLF,
// frontmatter, empty lines, the two non-ASCII runes that fold to k and s.
func TestMatcherAgainstReference(t *testing.T) {
	docs := []struct {
		content string
		fm      int
	}{
		{"", 0},
		{"\n", 0},
		{"\n\n\n", 0},
		{"abc\nABC\r\nxyz", 0},
		{"---\ntoken: x\n---\ntoken\nTOKEN here\n", 3},
		{"---\ntitle: x\n---", 3},
		{"\u212Aelvin kelvin\nſtop stop\nKELVIN\nSTOP\n", 0},
		{"Café crème\nCAFÉ\nécole ÉCOLE\n", 0},
		{"refresh\ntoken\nrefresh token\nrefresh  \t token_id\n", 0},
		{"a b\nab\nb a\n\nend", 0},
		{strings.Repeat("the quick brown fox jumps over the lazy dog; ", 50) + "\nshort\n" + strings.Repeat("x", 1000) + "token\n", 0},
	}
	type q struct {
		query string
		mode  string
		cs    bool
	}
	var queries []q
	for _, s := range []string{"token", "Token", "k", "s", "kelvin", "STOP", "é", "É", "café", "x", " ", "ab", "the", "\r", "fox jumps"} {
		queries = append(queries, q{s, modeString, false}, q{s, modeString, true})
	}
	for _, s := range []string{`^token$`, `\Atoken`, `token\z`, `\s+`, `(?s)a.*b`, `refresh\s+token`, `^$`, `a*`, `\btok\w*`,
		`(?i)KELVIN`, `k`, `[kK]elvin`, `x\ny`, `(foo|token)s?`, `$`, `^`, `\w+_id\b`, `T(oken)+`, `(?-m)^ab$`, `é+`, `caf.`, `o\r$`, `x{3,}token`,
		`token|stop`, `caf|kelvin`, `ab|ba`, `é|x`, `(?-i:Token)|here`, `re(fresh|token)`,
		`\d+`, `[0-9]{2}`, `[-;]`, `x|[0-9]`, `[é0-9]`, `\s\S`, `[^a-z ]`, `\n`, `x|\n`, `[\n\r]`,
		// More than maxLiterals alternatives: the multi-literal matcher,
		// exact (plain words) or as a prefilter (a word with a non-ASCII
		// letter under folding, a word boundary around them).
		`token|stop|kelvin|here|fox|lazy|id|ab|x|short`, `token|stop|kelvin|here|crème|fox|lazy|id|ab|x`,
		`(?-i:Token)|here|stop|[kK]elvin|fox|lazy|ab|x|é|short`, `\b(token|stop|kelvin|here|fox|lazy|id|ab|x|short)\b`,
		`x\ny|token|stop|kelvin|here|fox|lazy|id|ab|short`, `(re|ab)(fresh|c)|token|sto?p|[kK]elvin|x|y|z|w|v|u`} {
		queries = append(queries, q{s, modeRegex, false}, q{s, modeRegex, true})
	}
	defer func(w int) { regexWindow = w }(regexWindow)
	for _, window := range []int{1, 3, 40, 1024} {
		regexWindow = window
		for _, d := range docs {
			content, fm := []byte(d.content), d.fm
			for _, qq := range queries {
				m, err := Compile(qq.query, qq.mode == modeRegex, qq.cs)
				if err != nil {
					t.Fatalf("newMatcher(%q): %v", qq.query, err)
				}
				var hits []Hit
				v := NewText(content)
				n := m.Scan(context.Background(), content, v, fm, -1, &hits)
				var got []int
				for _, h := range hits {
					got = append(got, h.Line)
					line := v.Line(content, h.Line)
					if h.Start < 0 || h.End > len(line) || h.Start > h.End {
						t.Errorf("%q in %q: hit %+v outside its line %q", qq.query, d.content, h, line)
					} else if !referenceRegex(qq.query, qq.mode, qq.cs).Match(line[h.Start:]) {
						t.Errorf("%q in %q: hit %+v does not start a match in %q", qq.query, d.content, h, line)
					}
				}
				want := referenceLines(d.content, d.fm, qq.query, qq.mode, qq.cs)
				if n != len(got) || !slices.Equal(got, want) {
					t.Errorf("%s %q (case-sensitive %v, window %d) in %q: got lines %v (count %d), want %v", qq.mode, qq.query, qq.cs, window, d.content, got, n, want)
				}
				if len(want) > 1 {
					var first []Hit
					if k := m.Scan(context.Background(), content, NewText(content), fm, 1, &first); k != 1 || first[0].Line != want[0] {
						t.Errorf("%q in %q with limit 1: got %d hits %+v, want line %d", qq.query, d.content, k, first, want[0])
					}
				}
			}
		}
	}
}

// referenceRegex is the query as a regex, for checking where hits start.
func referenceRegex(query, mode string, caseSensitive bool) *regexp.Regexp {
	if mode == modeString {
		query = regexp.QuoteMeta(query)
	}
	if !caseSensitive {
		query = "(?i)" + query
	}
	return regexp.MustCompile(query)
}

// referenceLines is the slow, obvious search: split the lines, and test
// each one alone (a string by folding every substring, a regex on the
// line).
func referenceLines(content string, fm int, query, mode string, caseSensitive bool) []int {
	if content == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	var re *regexp.Regexp
	if mode == modeRegex {
		expr := query
		if !caseSensitive {
			expr = "(?i)" + expr
		}
		re = regexp.MustCompile(expr)
	}
	var out []int
	for i, line := range lines {
		if i+1 <= fm {
			continue
		}
		var ok bool
		switch {
		case re != nil:
			ok = re.MatchString(line)
		case caseSensitive:
			ok = strings.Contains(line, query)
		default:
			for s := 0; s < len(line) && !ok; s++ {
				for e := s + 1; e <= len(line); e++ {
					if strings.EqualFold(line[s:e], query) {
						ok = true
						break
					}
				}
			}
		}
		if ok {
			out = append(out, i+1)
		}
	}
	return out
}

func TestMatcherRandomized(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	alphabet := []string{"a", "b", "A", "B", "k", "K", "\u212A", "ſ", "s", " ", "-", "\n", "\n", "\n\n", "\r\n", "ab", "é", "É"}
	queries := []struct{ query, mode string }{
		{"a", modeString}, {"ab", modeString}, {"AB", modeString}, {"k", modeString}, {"s", modeString},
		{"é", modeString}, {"a b", modeString}, {"-", modeString},
		{`a+b`, modeRegex}, {`^a`, modeRegex}, {`b$`, modeRegex}, {`\bk\b`, modeRegex}, {`(?s)a.b`, modeRegex},
		{`a\s+b`, modeRegex}, {`\Ab`, modeRegex}, {`[ks]{2}`, modeRegex}, {`^$`, modeRegex}, {`é|É`, modeRegex},
		{`ab|ba`, modeRegex}, {`k|s`, modeRegex}, {`a b|-`, modeRegex}, {`(?-i:A)|b`, modeRegex},
		{`[ab]`, modeRegex}, {`\s`, modeRegex}, {`[-\r]`, modeRegex}, {`[é-]`, modeRegex}, {`-|[ab]{2}`, modeRegex},
		{`a|b|k|s|ab|ba|-|a b|bb|aa`, modeRegex}, {`(?-i:A)|B|k|s|ab|ba|-|ks|sk|kk`, modeRegex},
		{`[ab]k|s[ks]|a|-|bb|b a|kk|ss|ab|ba`, modeRegex}, {`é|a|b|k|s|ab|ba|-|aa|bb`, modeRegex},
		{`\ba|b|k|s|ab|ba|-|aa|bb|ss`, modeRegex}, {`ſ|K|ab|ba|-|aa|bb|b a|a b|bab`, modeRegex},
	}
	defer func(w int) { regexWindow = w }(regexWindow)
	for iter := 0; iter < 300; iter++ {
		// Small regex windows, so window edges fall everywhere.
		regexWindow = []int{1, 5, 16, 1024}[iter%4]
		var b strings.Builder
		for n := rng.IntN(200); n > 0; n-- {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		content := b.String()
		fm := 0
		if lines := strings.Count(content, "\n"); lines > 0 {
			fm = rng.IntN(lines + 1)
		}
		text := []byte(content)
		for _, q := range queries {
			for _, cs := range []bool{false, true} {
				m, err := Compile(q.query, q.mode == modeRegex, cs)
				if err != nil {
					t.Fatal(err)
				}
				var hits []Hit
				m.Scan(context.Background(), text, NewText(text), fm, -1, &hits)
				var got []int
				for _, h := range hits {
					got = append(got, h.Line)
				}
				if want := referenceLines(content, fm, q.query, q.mode, cs); !slices.Equal(got, want) {
					t.Fatalf("%s %q (case-sensitive %v, frontmatter to L%d) in %q: got lines %v, want %v", q.mode, q.query, cs, fm, content, got, want)
				}
			}
		}
	}
}

func TestRequiredLiterals(t *testing.T) {
	tests := []struct {
		expr string
		want string // the set's texts joined by |, folded ones marked with ~; "" for none
	}{
		{`token`, "token"},
		{`(?i)Token`, "~token"},
		{`\w+_token_id\b`, "_token_id"},
		{`(?i)\w+_Token_ID\b`, "~_token_id"},
		{`refresh|rotation`, "efresh|otation"},
		{`(?i)refresh|rotation`, "~efresh|~otation"},
		{`foo|[0-9]+`, ""},
		{`colou?r`, "colo"},
		{`(ab)+c?`, "ab"},
		{`(ab)*c`, "c"},
		{`x{0,3}yz`, "yz"},
		{`[a-z]+-[0-9]{4}`, "-"},
		{`\b[0-9]{4}\b`, ""},
		{`(?i)café`, "~caf"},
		{`(?i)école`, "~cole"},
		{`(?i)é`, ""},
		{`a|b|c|d|e|f|g|h|i`, ""},
	}
	for _, tc := range tests {
		tree, err := syntax.Parse(tc.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, l := range RequiredLiterals(tree) {
			mark := ""
			if l.Fold {
				mark = "~"
			}
			parts = append(parts, mark+string(l.Text))
		}
		if got := strings.Join(parts, "|"); got != tc.want {
			t.Errorf("RequiredLiterals(%s) = %q, want %q", tc.expr, got, tc.want)
		}
	}
}

func TestRequiredBytes(t *testing.T) {
	tests := []struct {
		expr string
		want string // the set's bytes, "" for none; \x80 stands for all of 0x80-0xff
	}{
		{`\d{4}`, "0123456789"},
		{`\b[0-9]{4}\b`, "0123456789"},
		{`(?i)\b[0-9]{4}\b`, "0123456789"},
		{`[a-c]+-?x`, "x"},
		{`x|[0-9]`, "0123456789x"},
		{`(?i)k`, "Kk\x80"},
		{`[é-]`, "-\x80"},
		{`\s`, "\t\n\f\r "},
		{`.`, ""},
		{`a*`, ""},
		{`x|.`, ""},
	}
	for _, tc := range tests {
		tree, err := syntax.Parse(tc.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if set := requiredBytes(tree); set != nil {
			var b strings.Builder
			for c := 0; c < 0x80; c++ {
				if set[c] {
					b.WriteByte(byte(c))
				}
			}
			if set[0x80] {
				b.WriteString("\x80")
				for c := 0x80; c <= 0xff; c++ {
					if !set[c] {
						t.Errorf("requiredBytes(%s) holds 0x80 but not %#x", tc.expr, c)
					}
				}
			}
			got = b.String()
		}
		if got != tc.want {
			t.Errorf("requiredBytes(%s) = %q, want %q", tc.expr, got, tc.want)
		}
	}
}

// TestCompileKeepsStringsLiteral: a string is found as a literal, never
// compiled as a regex, however long (an 8 MB query once cost 2.4 GB as one).
func TestCompileKeepsStringsLiteral(t *testing.T) {
	for _, cs := range []bool{false, true} {
		m, err := Compile(strings.Repeat("quillwort ", 6000), false, cs)
		if err != nil {
			t.Fatal(err)
		}
		if m.lineRe != nil || m.scanRe != nil {
			t.Errorf("case-sensitive %v: a string query was compiled as a regex", cs)
		}
	}
}

// TestTextLowered: the lowered copy folds A-Z only, keeps every offset, is
// the content itself when nothing is upper case, and notes the two runes
// that fold to ASCII letters without being lowered.
func TestTextLowered(t *testing.T) {
	for _, tc := range []struct {
		content, want string
		same, special bool
	}{
		{"# A\n\nSome Text\n", "# a\n\nsome text\n", false, false},
		{"all lower\n", "all lower\n", true, false},
		{"\u212Aelvin ÉCOLE\n", "\u212Aelvin École\n", false, true},
	} {
		content := []byte(tc.content)
		v := NewText(content)
		got := v.lowered(content)
		if string(got) != tc.want || (&got[0] == &content[0]) != tc.same || v.special != tc.special {
			t.Errorf("%q: lowered %q (same bytes %v, special %v), want %q (%v, %v)", tc.content, got, &got[0] == &content[0], v.special, tc.want, tc.same, tc.special)
		}
	}
}

// FuzzMatcherScan: on any text and any query the Matcher compiles, Scan
// finds exactly the lines the obvious per-line search finds, after any
// frontmatter line, with and without case folding.
func FuzzMatcherScan(f *testing.F) {
	f.Add("refresh token\nTOKEN here\n\u212Aelvin\n", "token", false, false, 0)
	f.Add("a b\nab\n---\nb a\n", `a\s?b|ba`, true, false, 1)
	f.Add("Café\nCAFÉ crème\n", "café", false, true, 0)
	f.Fuzz(func(t *testing.T, content, query string, regex, caseSensitive bool, fm int) {
		if !utf8.ValidString(content) || !utf8.ValidString(query) || query == "" || len(query) > 64 || len(content) > 512 {
			t.Skip()
		}
		if !regex && strings.Contains(query, "\n") {
			t.Skip() // refused before matching: a string hit is within one line
		}
		m, err := Compile(query, regex, caseSensitive)
		if err != nil {
			t.Skip() // an invalid or too large regex
		}
		mode := modeString
		if regex {
			mode = modeRegex
		}
		text := []byte(content)
		fm = min(max(fm, 0), strings.Count(content, "\n"))
		var hits []Hit
		n := m.Scan(context.Background(), text, NewText(text), fm, -1, &hits)
		var got []int
		for _, h := range hits {
			got = append(got, h.Line)
		}
		if want := referenceLines(content, fm, query, mode, caseSensitive); n != len(got) || !slices.Equal(got, want) {
			t.Fatalf("%s %q (case-sensitive %v, frontmatter to L%d) in %q: got lines %v (count %d), want %v", mode, query, caseSensitive, fm, content, got, n, want)
		}
	})
}
