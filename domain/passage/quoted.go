package passage

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The code a question pastes (a call, a command, a code span): a line
// that writes it as the question does is about it.

// quotedCallBoost is how much more a line weighs for each call the
// question quotes that it writes as it is.
const quotedCallBoost = 1.5

// maxQuotedCall bounds the parentheses of a quoted call, in runes, so that
// reading a question stays linear in its length.
const maxQuotedCall = 200

// quotedCalls returns the calls a question quotes, folded (foldCode): a
// name, possibly dotted, and its balanced parentheses with what is in
// them (fn('a', 'b'), fn.whenCalledWith('a').mockReturnValue(1)). A
// question that pastes code asks about that code: the doc's line that
// writes it is about it too.
func quotedCalls(text string) []string {
	var out []string
	rs := []rune(text)
	isName := func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '$' || r == '.'
	}
	for i := 0; i < len(rs); i++ {
		if !isName(rs[i]) || i > 0 && isName(rs[i-1]) {
			continue
		}
		j := i
		calls := 0
		for {
			for j < len(rs) && isName(rs[j]) {
				j++
			}
			if j >= len(rs) || rs[j] != '(' || j == i {
				break
			}
			depth, k := 0, j
			for ; k < len(rs) && k-j < maxQuotedCall; k++ {
				if rs[k] == '(' {
					depth++
				} else if rs[k] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if k >= len(rs) || k-j >= maxQuotedCall {
				break // unbalanced or too long to be a quoted call
			}
			j = k + 1
			calls++
		}
		if calls > 0 {
			if c := foldCode(string(rs[i:j])); len(c) >= 6 {
				out = append(out, c)
			}
			i = j - 1
		}
	}
	return out
}

// quotedCode is the code a question quotes, each once: its calls and its
// commands.
func quotedCode(text string) []string {
	out := quotedCalls(text)
	for _, c := range quotedCommands(text) {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// quotedCommands returns the commands a question writes out, folded
// (foldCode): each flag (-g, --frozen-lockfile) with the one and the two
// words before it ("install -g", "pnpm install -g"), each code span, and
// each literal between double quotes ("use strict": tune +1 each way,
// held out the same). A line that writes the command as the question
// does is about it.
func quotedCommands(text string) []string {
	var out []string
	fields := strings.Fields(text)
	for i, f := range fields {
		f = strings.TrimRight(f, ",.;:?!)")
		if len(f) < 2 || f[0] != '-' || !(unicode.IsLetter(rune(f[len(f)-1])) || unicode.IsDigit(rune(f[len(f)-1]))) {
			continue
		}
		for back := 1; back <= 2 && i-back >= 0; back++ {
			words := append(slices.Clone(fields[i-back:i]), f)
			if c := foldCode(strings.Join(words, " ")); len(c) >= 6 && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	for _, sp := range codeSpans(text) {
		if c := foldCode(text[sp[0]:sp[1]]); len(c) >= 6 && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	for _, ph := range doubleQuoted(text) {
		if c := foldCode(ph); len(c) >= 6 && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// maxQuotedPhrase bounds a double-quoted phrase of a question, in bytes.
const maxQuotedPhrase = 60

// doubleQuoted returns what a question writes between double quotes
// (straight or curly), each at most maxQuotedPhrase bytes: a literal it
// pastes ("use strict").
func doubleQuoted(text string) []string {
	var out []string
	rest := text
	for {
		i := strings.IndexAny(rest, "\"“")
		if i < 0 {
			return out
		}
		open := rest[i:]
		_, size := utf8.DecodeRuneInString(open)
		body := open[size:]
		j := strings.IndexAny(body, "\"”\n")
		if j < 0 {
			return out
		}
		if body[j] != '\n' && j > 0 && j <= maxQuotedPhrase {
			out = append(out, body[:j])
		}
		_, csize := utf8.DecodeRuneInString(body[j:])
		rest = body[j+csize:]
	}
}

// foldCode lower-cases s and drops its white space and quote marks, so a
// call quoted as fn("a", "b") meets a doc's fn('a','b').
func foldCode(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r), r == '\'', r == '"', r == '`':
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
