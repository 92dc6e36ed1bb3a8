package textmatch

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// Matcher is one compiled query. It is read-only once built, so the scan
// workers share it.
//
// Four ways to find hit lines, picked per doc:
//   - literals: bytes.Index of each of lits over the content (or over its
//     ASCII-lowered copy when folding), taking the nearest, and jumping to
//     the next line after each hit. When exact, a Literal hit is a hit;
//     otherwise each line holding one is checked with lineRe (the lits are
//     then a prefilter: every match contains one of them).
//   - bytes: with no Literal, a set of bytes every match holds one of
//     (digits for \d{4}); each line holding one is checked with lineRe.
//   - scan: one leftmost-first pass of scanRe, the query in (?m) mode, over
//     the whole content from each line start; a match that crosses a line
//     break is checked again on its first line alone with lineRe.
//   - per line: lineRe on each line (only for \A or \z, which scanRe would
//     read as the start or end of the whole text).
type Matcher struct {
	regex    bool
	caseSens bool

	lits     []Literal // every match contains one; nil when no such set is known
	anyByte  *byteSet  // without lits: every match holds one of these bytes; nil: none known
	litExact bool      // a line holding the Literal is a hit (string mode)
	// foldLit is the query of a case-insensitive string search: lines are
	// checked with IndexFold, never a regexp.
	foldLit string
	// multi finds many literals at once (Aho-Corasick), for a Literal set
	// too large for lits; exact when a line holding one is a hit.
	multi *multiLiteral

	lineRe *regexp.Regexp // the query on one line alone: the truth (nil for a string)
	scanRe *regexp.Regexp // the query in (?m) mode over whole content; nil: per line
}

// Literal is a string every match (or, in a set, some match) contains.
type Literal struct {
	Text []byte
	Fold bool // Text is ASCII-lowered and looked for in the lowered copy
	KS   bool // Fold, and Text holds k or s, which U+212A and U+017F also fold to
}

// maxLiterals bounds a prefilter set: past it, the regex scan is cheaper.
const maxLiterals = 8

// Compile builds the matcher of query: a Literal string, or (regex) a Go
// RE2 regular expression matched within one line; caseSensitive turns off
// Unicode simple folding. A string is never compiled as a regex (an 8 MB
// query once cost 2.4 GB that way): bytes.Index finds it, over the
// ASCII-lowered copy when folding, and IndexFold decides a line where the
// copy cannot. A regex Go refuses is a *SyntaxError; one too large to run
// over every line a *TooLargeError. The caller bounds the query's length
// and checks it is valid UTF-8 and, for a string, a single line.
func Compile(query string, regex, caseSensitive bool) (*Matcher, error) {
	m := &Matcher{regex: regex, caseSens: caseSensitive}
	if !regex {
		if lit, whole, ok := newLiteral([]rune(query), !caseSensitive); ok {
			// A part of the query is only a prefilter: lineFind decides.
			m.lits, m.litExact = []Literal{lit}, whole
		}
		if !caseSensitive {
			m.foldLit = query
		}
		return m, nil
	}
	flags := ""
	if !caseSensitive {
		flags = "(?i)"
	}
	// Compile the query as given first, so an error quotes it as written.
	if _, err := regexp.Compile(query); err != nil {
		return nil, &SyntaxError{Err: err}
	}
	expr := query
	tree, err := syntax.Parse(flags+expr, syntax.Perl)
	if err != nil {
		return nil, &SyntaxError{Err: err}
	}
	if set := literalAlternatives(tree); set != nil {
		// Nothing but literals (words joined by |): a line holding one is
		// a hit, found without running the regex over the lines.
		if len(set) <= maxLiterals {
			// A literal holding a line break is on no line, so it is no
			// hit; left in, it would hide a hit on the line it starts on
			// (B\s|B on "B\nA" found "B\n" first and skipped the line).
			// None left: the query matches no line.
			lits := make([]Literal, 0, len(set))
			for _, l := range set {
				if bytes.IndexByte(l.Text, '\n') < 0 {
					lits = append(lits, l)
				}
			}
			m.lits, m.litExact = lits, true
		} else {
			m.multi = newMultiLiteral(set, true) // nil when too large for one
		}
	}
	if m.lits == nil && m.multi == nil {
		if err := checkProgram(tree); err != nil {
			return nil, err
		}
		lits := RequiredLiterals(tree)
		if len(lits) > maxLiterals {
			m.multi = newMultiLiteral(lits, false)
		} else {
			m.lits = lits
		}
		if m.lits == nil && m.multi == nil {
			if set := requiredBytes(tree); set != nil {
				// A line holds no '\n': a match needing one can only
				// span lines, which no hit does.
				set['\n'] = false
				if set.count() <= maxByteSet {
					m.anyByte = set
				}
			}
		}
	}
	if m.lineRe, err = regexp.Compile(flags + expr); err != nil {
		return nil, &SyntaxError{Err: err}
	}
	if tree, err := syntax.Parse("(?m)"+flags+expr, syntax.Perl); err == nil && !hasTextAnchor(tree) {
		if m.scanRe, err = regexp.Compile("(?m)" + flags + expr); err != nil {
			return nil, &SyntaxError{Err: err}
		}
	}
	return m, nil
}

// Literals returns a set of literals every match holds one of (each
// ASCII-lowered when Fold), nil when none is known: what a trigram index
// can narrow the candidate texts by.
func (m *Matcher) Literals() []Literal { return m.lits }

// newLiteral makes a prefilter Literal of runes, matched with folding when
// fold is set. The lowered copy only folds A-Z, so a folded Literal with
// other letters keeps only its longest ASCII run (whole is then false):
// any line holding the Literal holds that run. ok is false when nothing is
// left.
func newLiteral(runes []rune, fold bool) (lit Literal, whole, ok bool) {
	whole = true
	if fold {
		best, start := runes[:0], 0
		for i := 0; i <= len(runes); i++ {
			if i == len(runes) || runes[i] >= utf8.RuneSelf {
				if i-start > len(best) {
					best = runes[start:i]
				}
				start = i + 1
			}
		}
		whole = len(best) == len(runes)
		runes = best
	}
	text := []byte(string(runes))
	if len(text) == 0 {
		return Literal{}, false, false
	}
	if !fold {
		return Literal{Text: text}, whole, true
	}
	lower := lowerASCII(text)
	return Literal{Text: lower, Fold: true, KS: bytes.ContainsAny(lower, "ks")}, whole, true
}

// RequiredLiterals finds a set of literals such that every match of re
// contains one of them, or nil. A Literal is required by a concatenation
// holding it, through groups and repetitions of at least one; an
// alternation requires the union of its branches' sets. Of several
// candidate sets the one whose shortest Literal is longest wins (fewer
// false candidates), then the smaller set.
func RequiredLiterals(re *syntax.Regexp) []Literal {
	switch re.Op {
	case syntax.OpLiteral:
		if lit, _, ok := newLiteral(re.Rune, re.Flags&syntax.FoldCase != 0); ok {
			return []Literal{lit}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return RequiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return RequiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []Literal
		for _, sub := range re.Sub {
			if set := RequiredLiterals(sub); set != nil && betterLiterals(set, best) {
				best = set
			}
		}
		return best
	case syntax.OpAlternate:
		var union []Literal
		for _, sub := range re.Sub {
			set := RequiredLiterals(sub)
			if set == nil || len(union)+len(set) > maxMultiLiterals {
				return nil
			}
			union = append(union, set...)
		}
		return union
	}
	return nil
}

func betterLiterals(a, b []Literal) bool {
	if b == nil {
		return true
	}
	if sa, sb := shortest(a), shortest(b); sa != sb {
		return sa > sb
	}
	return len(a) < len(b)
}

func shortest(set []Literal) int {
	n := -1
	for _, l := range set {
		if n < 0 || len(l.Text) < n {
			n = len(l.Text)
		}
	}
	return n
}

// byteSet is a set of bytes, as a prefilter for regexes with no Literal.
type byteSet [256]bool

// maxByteSet: a larger set (letters, say) would pass nearly every line.
const maxByteSet = 16

func (b *byteSet) count() int {
	n := 0
	for _, in := range b {
		if in {
			n++
		}
	}
	return n
}

// index returns the offset of the first byte of s in the set, or -1.
func (b *byteSet) index(s []byte) int {
	for i, c := range s {
		if b[c] {
			return i
		}
	}
	return -1
}

// addRune adds the bytes that show rune r is on a line: its first byte
// when ASCII, else every byte from 0x80 (a non-ASCII rune's bytes, and an
// invalid byte, which the regexp package reads as U+FFFD, are all there).
func (b *byteSet) addRune(r rune) {
	if r < utf8.RuneSelf {
		b[r] = true
		return
	}
	for c := 0x80; c <= 0xff; c++ {
		b[c] = true
	}
}

// requiredBytes finds a set of bytes such that every match of re holds at
// least one of them, or nil: a character class's bytes, or a Literal's
// first rune (with its case folds), through groups and repetitions of at
// least one; the smallest set a concatenation requires; the union of an
// alternation's.
func requiredBytes(re *syntax.Regexp) *byteSet {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return nil
		}
		set := new(byteSet)
		r := re.Rune[0]
		set.addRune(r)
		if re.Flags&syntax.FoldCase != 0 {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				set.addRune(f)
			}
		}
		return set
	case syntax.OpCharClass:
		set := new(byteSet)
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
				set[r] = true
			}
			if hi >= utf8.RuneSelf {
				set.addRune(hi)
			}
		}
		return set
	case syntax.OpCapture, syntax.OpPlus:
		return requiredBytes(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredBytes(re.Sub[0])
		}
	case syntax.OpConcat:
		var best *byteSet
		for _, sub := range re.Sub {
			if set := requiredBytes(sub); set != nil && (best == nil || set.count() < best.count()) {
				best = set
			}
		}
		return best
	case syntax.OpAlternate:
		union := new(byteSet)
		for _, sub := range re.Sub {
			set := requiredBytes(sub)
			if set == nil {
				return nil
			}
			for c, in := range set {
				union[c] = union[c] || in
			}
		}
		return union
	}
	return nil
}

// hasTextAnchor reports whether re uses \A or \z (or ^ and $ under (?-m)),
// which mean the start and end of each line to a per-line search but of the
// whole content to a scan.
func hasTextAnchor(re *syntax.Regexp) bool {
	if re.Op == syntax.OpBeginText || re.Op == syntax.OpEndText {
		return true
	}
	for _, sub := range re.Sub {
		if hasTextAnchor(sub) {
			return true
		}
	}
	return false
}
