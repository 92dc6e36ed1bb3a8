package app

import (
	"bytes"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/librarian/librarian/domain"
)

// matcher is one compiled query. It is read-only once built, so the scan
// workers share it.
//
// Four ways to find hit lines, picked per doc:
//   - literals: bytes.Index of each of lits over the content (or over its
//     ASCII-lowered copy when folding), taking the nearest, and jumping to
//     the next line after each hit. When exact, a literal hit is a hit;
//     otherwise each line holding one is checked with lineRe (the lits are
//     then a prefilter: every match contains one of them).
//   - bytes: with no literal, a set of bytes every match holds one of
//     (digits for \d{4}); each line holding one is checked with lineRe.
//   - scan: one leftmost-first pass of scanRe, the query in (?m) mode, over
//     the whole content from each line start; a match that crosses a line
//     break is checked again on its first line alone with lineRe.
//   - per line: lineRe on each line (only for \A or \z, which scanRe would
//     read as the start or end of the whole text).
type matcher struct {
	mode     string
	caseSens bool

	lits     []literal // every match contains one; nil when no such set is known
	anyByte  *byteSet  // without lits: every match holds one of these bytes; nil: none known
	litExact bool      // a line holding the literal is a hit (string mode)
	// foldLit is the query of a case-insensitive string search: lines are
	// checked with domain.IndexFold, never a regexp.
	foldLit string

	lineRe *regexp.Regexp // the query on one line alone: the truth
	scanRe *regexp.Regexp // the query in (?m) mode over whole content; nil: per line
}

// literal is a string every match (or, in a set, some match) contains.
type literal struct {
	text []byte
	fold bool // text is ASCII-lowered and looked for in the lowered copy
	ks   bool // fold, and text holds k or s, which U+212A and U+017F also fold to
}

// maxLiterals bounds a prefilter set: past it, the regex scan is cheaper.
const maxLiterals = 8

func newMatcher(req SearchRequest) (*matcher, error) {
	mode := req.Mode
	if mode == "" {
		mode = SearchString
	}
	if mode != SearchString && mode != SearchRegex {
		return nil, fmt.Errorf("%w: 'mode' must be \"string\", \"regex\" or \"ranked\", got %q", domain.ErrInvalidArgument, req.Mode)
	}
	if req.Query == "" {
		return nil, fmt.Errorf("%w: 'query' is empty: give a string or a regex to look for", domain.ErrInvalidArgument)
	}
	invalid := func(err error) error {
		if limits := domain.RE2Limits(req.Query); limits != "" {
			return fmt.Errorf("%w: invalid regex %s: %v; %s", domain.ErrInvalidArgument, quoteQuery(req.Query), err, limits)
		}
		return fmt.Errorf("%w: invalid regex %s: %v", domain.ErrInvalidArgument, quoteQuery(req.Query), err)
	}
	m := &matcher{mode: mode, caseSens: req.CaseSensitive}
	flags := ""
	if !req.CaseSensitive {
		flags = "(?i)"
	}
	var expr string
	switch mode {
	case SearchString:
		if strings.ContainsAny(req.Query, "\n") {
			return nil, fmt.Errorf("%w: 'query' %s holds a line break, but search matches within one line", domain.ErrInvalidArgument, quoteQuery(req.Query))
		}
		expr = regexp.QuoteMeta(req.Query)
		if lit, whole, ok := newLiteral([]rune(req.Query), !req.CaseSensitive); ok {
			// A part of the query is only a prefilter: lineRe decides.
			m.lits, m.litExact = []literal{lit}, whole
		}
		if !req.CaseSensitive {
			m.foldLit = req.Query
		}
	case SearchRegex:
		// Compile the query as given first, so an error quotes it as written.
		if _, err := regexp.Compile(req.Query); err != nil {
			return nil, invalid(err)
		}
		expr = req.Query
		tree, err := syntax.Parse(flags+expr, syntax.Perl)
		if err != nil {
			return nil, invalid(err)
		}
		m.lits = requiredLiterals(tree)
		if m.lits == nil {
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
	var err error
	if m.lineRe, err = regexp.Compile(flags + expr); err != nil {
		return nil, invalid(err)
	}
	if tree, err := syntax.Parse("(?m)"+flags+expr, syntax.Perl); err == nil && !hasTextAnchor(tree) {
		if m.scanRe, err = regexp.Compile("(?m)" + flags + expr); err != nil {
			return nil, invalid(err)
		}
	}
	return m, nil
}

// newLiteral makes a prefilter literal of runes, matched with folding when
// fold is set. The lowered copy only folds A-Z, so a folded literal with
// other letters keeps only its longest ASCII run (whole is then false):
// any line holding the literal holds that run. ok is false when nothing is
// left.
func newLiteral(runes []rune, fold bool) (lit literal, whole, ok bool) {
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
		return literal{}, false, false
	}
	if !fold {
		return literal{text: text}, whole, true
	}
	lower := lowerASCII(text)
	return literal{text: lower, fold: true, ks: bytes.ContainsAny(lower, "ks")}, whole, true
}

// describe says how the query was matched, for the answer's first line.
func (m *matcher) describe() string {
	if m.caseSens {
		return m.mode + ", case-sensitive"
	}
	return m.mode + ", case-insensitive"
}

// requiredLiterals finds a set of literals such that every match of re
// contains one of them, or nil. A literal is required by a concatenation
// holding it, through groups and repetitions of at least one; an
// alternation requires the union of its branches' sets. Of several
// candidate sets the one whose shortest literal is longest wins (fewer
// false candidates), then the smaller set.
func requiredLiterals(re *syntax.Regexp) []literal {
	switch re.Op {
	case syntax.OpLiteral:
		if lit, _, ok := newLiteral(re.Rune, re.Flags&syntax.FoldCase != 0); ok {
			return []literal{lit}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []literal
		for _, sub := range re.Sub {
			if set := requiredLiterals(sub); set != nil && betterLiterals(set, best) {
				best = set
			}
		}
		return best
	case syntax.OpAlternate:
		var union []literal
		for _, sub := range re.Sub {
			set := requiredLiterals(sub)
			if set == nil || len(union)+len(set) > maxLiterals {
				return nil
			}
			union = append(union, set...)
		}
		return union
	}
	return nil
}

func betterLiterals(a, b []literal) bool {
	if b == nil {
		return true
	}
	if sa, sb := shortest(a), shortest(b); sa != sb {
		return sa > sb
	}
	return len(a) < len(b)
}

func shortest(set []literal) int {
	n := -1
	for _, l := range set {
		if n < 0 || len(l.text) < n {
			n = len(l.text)
		}
	}
	return n
}

// byteSet is a set of bytes, as a prefilter for regexes with no literal.
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
// least one of them, or nil: a character class's bytes, or a literal's
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
