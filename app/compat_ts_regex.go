package app

import (
	"bytes"
	"context"
	"regexp"
	"regexp/syntax"
)

// searchDocuments' regexes match whole bodies (no 'm' flag, as in the
// original), so Go's regexp meets 5 KB inputs, too long for its fast
// backtracker: it falls back to the NFA, about a millisecond a doc. Most
// patterns have a bounded match length and a required literal set (see
// requiredLiterals), so a match lies within maxLen bytes of an occurrence
// of a literal: the regex is run on small windows around those only.
// Empty-width assertions (\b, ^, $) read one rune beyond a match, so a
// match touching a window's cut edge proves nothing: the body is then
// matched whole, as are patterns without a bound or literals.

// tsWindowMargin is the context kept beyond a window's possible matches:
// one UTF-8 rune, what an assertion looks at.
const tsWindowMargin = 4

// tsMaxWindows bounds the windows tried per body: past it (a common
// literal), one whole-body match is cheaper.
const tsMaxWindows = 64

// tsRegexMatcher tests bodies against a searchDocuments regex.
type tsRegexMatcher struct {
	re     *regexp.Regexp
	lits   []literal
	maxLen int // bytes; -1 when unbounded
}

func newTSRegexMatcher(re *regexp.Regexp) *tsRegexMatcher {
	m := &tsRegexMatcher{re: re, maxLen: -1}
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return m
	}
	m.lits = requiredLiterals(tree)
	m.maxLen = maxMatchBytes(tree.Simplify())
	return m
}

// match reports whether body holds a match, as re.MatchString(body).
func (m *tsRegexMatcher) match(ctx context.Context, body string) bool {
	if m.lits == nil || m.maxLen < 0 {
		return m.whole(ctx, body)
	}
	raw := []byte(body)
	lowered, special := []byte(nil), false
	var starts []int
	for _, l := range m.lits {
		hay := raw
		if l.fold {
			if lowered == nil {
				lowered, special = lowerCopy(raw)
			}
			if l.ks && special {
				return m.whole(ctx, body) // U+212A or U+017F: the lowered copy misses them
			}
			hay = lowered
		}
		for from := 0; ; {
			i := bytes.Index(hay[from:], l.text)
			if i < 0 {
				break
			}
			starts = append(starts, from+i)
			if len(starts) > tsMaxWindows {
				return m.whole(ctx, body)
			}
			from += i + 1
		}
	}
	inconclusive := false
	for _, p := range starts {
		lo := max(0, p-m.maxLen-tsWindowMargin)
		hi := min(len(body), p+m.maxLen+tsWindowMargin)
		// Whole runes only, so the window's text decodes as the body's.
		for lo > 0 && !startsRune(body[lo]) {
			lo--
		}
		for hi < len(body) && !startsRune(body[hi]) {
			hi++
		}
		win := body[lo:hi]
		for _, loc := range m.re.FindAllStringIndex(win, -1) {
			if (loc[0] > 0 || lo == 0) && (loc[1] < len(win) || hi == len(body)) {
				return true
			}
			inconclusive = true // a match at a cut edge: its assertions saw the cut
		}
	}
	if inconclusive {
		return m.whole(ctx, body)
	}
	return false
}

func startsRune(b byte) bool { return b&0xC0 != 0x80 }

// maxMatchBytes is an upper bound of the bytes a match of re spans (4 per
// rune), or -1 when matches are unbounded.
func maxMatchBytes(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpNoMatch:
		return 0
	case syntax.OpLiteral:
		return 4 * len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return 4
	case syntax.OpCapture:
		return maxMatchBytes(re.Sub[0])
	case syntax.OpQuest:
		return maxMatchBytes(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		return -1
	case syntax.OpRepeat:
		if re.Max < 0 {
			return -1
		}
		n := maxMatchBytes(re.Sub[0])
		if n < 0 {
			return -1
		}
		return n * re.Max
	case syntax.OpConcat:
		sum := 0
		for _, s := range re.Sub {
			n := maxMatchBytes(s)
			if n < 0 {
				return -1
			}
			sum += n
		}
		return sum
	case syntax.OpAlternate:
		most := 0
		for _, s := range re.Sub {
			n := maxMatchBytes(s)
			if n < 0 {
				return -1
			}
			most = max(most, n)
		}
		return most
	}
	return -1
}

// whole matches the regex over the whole body; a long body is read through
// a reader that stops when ctx ends (a long body can take RE2 minutes).
func (m *tsRegexMatcher) whole(ctx context.Context, body string) bool {
	if len(body) >= longInput {
		return findIndex(ctx, m.re, []byte(body)) != nil
	}
	return m.re.MatchString(body)
}
