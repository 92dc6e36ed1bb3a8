package textmatch

import (
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// The plan of a whole-body regex (BodyMatcher): where in a body a match
// can lie, read off the regexp/syntax tree, so that most bodies need no
// regex run.
//
// The tree is split into branches (a top-level alternation's, through
// groups) and each branch into pieces (the factors of its concatenation,
// groups flattened). A piece may require a literal set (every match of the
// piece holds one of its literals, see required) and has a bound on the
// runes it spans (maxRunes). One piece per branch, the anchor, is the
// cheapest to scan for; each other piece with literals whose distance to
// the anchor is bounded (all the pieces between have a bound) is a near
// check: an occurrence of one of its literals must lie in the few runes
// before or after each occurrence of the anchor's, in order. Pieces past
// an unbounded one are far checks: one of their literals must occur
// somewhere on the right side. Only the windows around anchor occurrences
// that pass every check are matched with the regex, and a window spans the
// runes the branch's match can reach from the occurrences found (pre and
// post). Every proof is in runes, as the regexp package reads them (an
// invalid byte is one rune); byte positions come from a walk that over-
// estimates (runesBack, runesFwd), never from a guess.
//
// For the benchmark's (?i)\b(rotor|stator|turbine)\b[^.]{0,40}\b(voltage|current)\b
// the anchor is voltage|current; rotor|stator|turbine must lie within the
// 47 runes before an occurrence (its piece spans 7 runes at most, the gap
// 40, voltage's piece 7 with the 7 of the occurrence); a window runs from
// 7 runes before the end of the rotor found to 7 after the start of the
// voltage, a few dozen bytes, and most bodies have none.
//
// A literal is the longest run of a regex literal's runes that a match
// spells with their own bytes, up to the case of an ASCII letter: under
// (?i) no non-ASCII letter with other cases, and never U+FFFD, which an
// invalid byte matches too. Of the ASCII letters, k and s also match
// U+212A and U+017F: where such a literal is looked for, a body (or the
// stretch looked at) holding either is matched whole.

// maxBranches bounds the branches analysed one by one: a larger
// alternation is one piece, its literal set the union of its branches'.
const maxBranches = 8

// maxPieceLits bounds a piece's literal set: a larger set costs more
// scans than a match.
const maxPieceLits = 16

// maxSpan bounds the runes a plan reasons about: past it a piece counts
// as unbounded.
const maxSpan = 1 << 16

// maxNear and maxFar bound the checks of a branch (the nearest pieces
// are kept).
const (
	maxNear = 4
	maxFar  = 2
)

// bodyPlan is a regex's analysis. nil means no proof: every body is matched
// whole.
type bodyPlan struct {
	branches []planBranch
	// The empty-width assertions the regex holds, which decide where a
	// window may be cut (see cutLeft and cutRight).
	beginText, endText, beginLine, endLine, word bool
}

// planBranch is one alternative of the regex, as a concatenation of pieces.
type planBranch struct {
	pieces []planPiece
	anchor int         // the piece whose literals are scanned for over the whole body
	near   []planCheck // span >= 0
	far    []planCheck // span < 0
	// first and last are the outermost pieces of the anchor and its near
	// checks; pre bounds the runes from a match's start to the end of
	// piece first, post those from the start of piece last to the match's
	// end (-1: unbounded).
	first, last int
	pre, post   int
}

// planPiece is one factor of a branch's concatenation.
type planPiece struct {
	max  int       // runes a match of the piece spans at most; -1: unbounded
	lits []planLit // every match of the piece holds one; nil: none known
	ks   bool      // a literal has ks set
	cost int       // sum of the literals' costs
}

// planCheck is a piece other than the anchor that a match needs, on one side
// of the anchor: before or after it.
type planCheck struct {
	piece  int
	before bool
	// span bounds the runes covered by the anchor piece, the pieces between
	// and this one; -1: unbounded (a far check).
	span int
}

// planLit is a literal a piece's match holds, with how to scan for it.
type planLit struct {
	text  string // ASCII letters lowered when fold
	fold  bool   // an ASCII letter of text matches either case
	ks    bool   // fold, and text holds k or s, which U+212A and U+017F also match
	runes int    // runes of text
	// How a body is scanned for it: strings.IndexByte of the byte at
	// offset rare (in each of its cases, cases) or, for a literal without
	// folding, strings.Index; or, when swar (its bytes are too common for a
	// call per hit), indexSWAR, testing 8 places at a time at offsets rare
	// and rare2. A short stretch is always scanned the SWAR way.
	rare, rare2 int
	cases       string // the byte at rare, and its other case when fold makes it two
	c1, m1      uint64 // the byte at rare in every lane, and 0x20 in every lane when it is a folded letter
	c2, m2      uint64 // the same at rare2
	swar        bool
	cost        int // the expected scan time of 10,000 bytes of prose, in ns
}

// The cost model of a scan of 10,000 bytes of prose (ns, measured on this
// kind of machine): a vectorised strings.IndexByte pass, each hit of it (a
// call and a comparison), and a SWAR pass (indexSWAR). A folded literal whose
// rarest letter is q, x or z goes by IndexByte; one of v, k or commoner
// letters by SWAR.
const (
	scanCost = 625
	hitCost  = 28
	swarCost = 2600
)

func newBodyPlan(tree *syntax.Regexp) *bodyPlan {
	p := &bodyPlan{}
	p.noteAssertions(tree)
	alts := alternatives(tree, nil)
	if len(alts) > maxBranches {
		alts = []*syntax.Regexp{tree}
	}
	for _, alt := range alts {
		b, ok := newPlanBranch(factors(alt, nil))
		if !ok {
			return nil
		}
		p.branches = append(p.branches, b)
	}
	return p
}

func (p *bodyPlan) noteAssertions(re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpBeginText:
		p.beginText = true
	case syntax.OpEndText:
		p.endText = true
	case syntax.OpBeginLine:
		p.beginLine = true
	case syntax.OpEndLine:
		p.endLine = true
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		p.word = true
	}
	for _, sub := range re.Sub {
		p.noteAssertions(sub)
	}
}

// alternatives appends the branches of re's top-level alternation,
// through groups: re matches where one of them does.
func alternatives(re *syntax.Regexp, out []*syntax.Regexp) []*syntax.Regexp {
	return flatten(re, syntax.OpAlternate, out)
}

// factors appends the factors of re's concatenation, through groups: a
// match of re is their matches, one after the other.
func factors(re *syntax.Regexp, out []*syntax.Regexp) []*syntax.Regexp {
	return flatten(re, syntax.OpConcat, out)
}

// flatten appends the operands of re's nested op nodes, through groups.
func flatten(re *syntax.Regexp, op syntax.Op, out []*syntax.Regexp) []*syntax.Regexp {
	switch re.Op {
	case syntax.OpCapture:
		return flatten(re.Sub[0], op, out)
	case op:
		for _, sub := range re.Sub {
			out = flatten(sub, op, out)
		}
		return out
	}
	return append(out, re)
}

func newPlanBranch(factors []*syntax.Regexp) (planBranch, bool) {
	b := planBranch{pieces: make([]planPiece, len(factors)), anchor: -1}
	for i, f := range factors {
		pc := planPiece{max: maxRunes(f), lits: distinct(required(f))}
		for _, l := range pc.lits {
			pc.ks = pc.ks || l.ks
			pc.cost += l.cost
		}
		b.pieces[i] = pc
		if pc.lits != nil && (b.anchor < 0 || pc.cost < b.pieces[b.anchor].cost) {
			b.anchor = i
		}
	}
	if b.anchor < 0 {
		return b, false
	}
	b.first, b.last = b.anchor, b.anchor
	for _, before := range []bool{true, false} {
		span, near, far := b.pieces[b.anchor].max, 0, 0
		for j := b.anchor; ; {
			if before {
				j--
			} else {
				j++
			}
			if j < 0 || j >= len(b.pieces) {
				break
			}
			pc := b.pieces[j]
			span = addSpan(span, pc.max)
			if pc.lits == nil {
				continue
			}
			c := planCheck{piece: j, before: before, span: span}
			switch {
			case span >= 0 && near < maxNear:
				b.near = append(b.near, c)
				near++
				b.first, b.last = min(b.first, j), max(b.last, j)
			case span < 0 && far < maxFar:
				b.far = append(b.far, c)
				far++
			}
		}
	}
	b.pre, b.post = 0, 0
	for j, pc := range b.pieces {
		if j <= b.first {
			b.pre = addSpan(b.pre, pc.max)
		}
		if j >= b.last {
			b.post = addSpan(b.post, pc.max)
		}
	}
	return b, true
}

// distinct drops the literals of set found twice ((?i)ab|AB).
func distinct(set []planLit) []planLit {
	out := set[:0]
	for _, l := range set {
		if !slices.ContainsFunc(out, func(o planLit) bool { return o.text == l.text && o.fold == l.fold }) {
			out = append(out, l)
		}
	}
	return out
}

// addSpan adds two rune bounds, -1 (unbounded) absorbing.
func addSpan(a, b int) int {
	if a < 0 || b < 0 || a+b > maxSpan {
		return -1
	}
	return a + b
}

// maxRunes bounds the runes a match of re spans, or -1 when unbounded.
// A literal's rune matches one rune whatever its case, a class one rune;
// the regexp package reads an invalid byte as one rune too.
func maxRunes(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpNoMatch:
		return 0
	case syntax.OpLiteral:
		return addSpan(0, len(re.Rune))
	case syntax.OpCharClass, syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return 1
	case syntax.OpCapture, syntax.OpQuest:
		return maxRunes(re.Sub[0])
	case syntax.OpRepeat:
		n := maxRunes(re.Sub[0])
		if re.Max < 0 || n < 0 || (n > 0 && re.Max > maxSpan/n) {
			return -1
		}
		return n * re.Max
	case syntax.OpConcat:
		sum := 0
		for _, sub := range re.Sub {
			sum = addSpan(sum, maxRunes(sub))
		}
		return sum
	case syntax.OpAlternate:
		most := 0
		for _, sub := range re.Sub {
			n := maxRunes(sub)
			if n < 0 {
				return -1
			}
			most = max(most, n)
		}
		return most
	}
	return -1
}

// required finds a set of literals such that every match of re holds one
// of them, or nil: a literal's longest run of plainly matched runes (see
// plainRune), through groups and repetitions of at least one; a
// concatenation's cheapest set; the union of an alternation's.
func required(re *syntax.Regexp) []planLit {
	switch re.Op {
	case syntax.OpLiteral:
		if l, ok := newPlanLit(re.Rune, re.Flags&syntax.FoldCase != 0); ok {
			return []planLit{l}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []planLit
		for _, sub := range re.Sub {
			if set := required(sub); set != nil && (best == nil || betterSet(set, best)) {
				best = set
			}
		}
		return best
	case syntax.OpAlternate:
		var union []planLit
		for _, sub := range re.Sub {
			set := required(sub)
			if set == nil || len(union)+len(set) > maxPieceLits {
				return nil
			}
			union = append(union, set...)
		}
		return union
	}
	return nil
}

// betterSet: the cheaper scan, then the longer shortest literal (fewer
// false candidates).
func betterSet(a, b []planLit) bool {
	ca, cb := 0, 0
	for _, l := range a {
		ca += l.cost
	}
	for _, l := range b {
		cb += l.cost
	}
	if ca != cb {
		return ca < cb
	}
	return shortestPlanLit(a) > shortestPlanLit(b)
}

func shortestPlanLit(set []planLit) int {
	n := -1
	for _, l := range set {
		if n < 0 || len(l.text) < n {
			n = len(l.text)
		}
	}
	return n
}

// plainRune reports whether a match of r (under (?i) when fold) is r's
// own UTF-8 bytes, up to the case of an ASCII letter: not U+FFFD, which
// an invalid byte also matches, nor a non-ASCII rune with other cases. Of
// the ASCII letters, k and s also match U+212A and U+017F (see planLit.ks).
func plainRune(r rune, fold bool) bool {
	if r == utf8.RuneError || !utf8.ValidRune(r) {
		return false
	}
	return !fold || r < utf8.RuneSelf || unicode.SimpleFold(r) == r
}

// newPlanLit makes the literal of a regex literal's runes: its longest run
// (in bytes) of plain runes. ok is false when there is none.
func newPlanLit(runes []rune, fold bool) (planLit, bool) {
	var best []rune
	start := 0
	for i := 0; i <= len(runes); i++ {
		if i == len(runes) || !plainRune(runes[i], fold) {
			if run := runes[start:i]; len(string(run)) > len(string(best)) {
				best = run
			}
			start = i + 1
		}
	}
	if len(best) == 0 {
		return planLit{}, false
	}
	text := []byte(string(best))
	l := planLit{fold: fold, runes: len(best)}
	if fold {
		for i, c := range text {
			if 'A' <= c && c <= 'Z' {
				text[i] = c + 'a' - 'A'
			}
			l.ks = l.ks || text[i] == 'k' || text[i] == 's'
		}
	}
	l.text = string(text)
	// freq is how often a byte of text is a candidate, in either case
	// when folded.
	freq := func(c byte) int {
		if fold && 'a' <= c && c <= 'z' {
			return int(byteFreq[c]) + int(byteFreq[c-'a'+'A'])
		}
		return int(byteFreq[c])
	}
	l.rare, l.rare2 = 0, -1
	for i := 1; i < len(text); i++ {
		if freq(text[i]) < freq(text[l.rare]) {
			l.rare = i
		}
	}
	for i := 0; i < len(text); i++ {
		if i != l.rare && (l.rare2 < 0 || freq(text[i]) < freq(text[l.rare2])) {
			l.rare2 = i
		}
	}
	if l.rare2 < 0 {
		l.rare2 = l.rare
	}
	c := text[l.rare]
	l.cases = string([]byte{c})
	if fold && 'a' <= c && c <= 'z' {
		l.cases = string([]byte{c, c - 'a' + 'A'})
	}
	if fold {
		l.cost = len(l.cases)*scanCost + freq(c)*hitCost
	} else {
		l.cost = scanCost + freq(text[0])*hitCost // strings.Index looks for the first byte
	}
	if l.cost > swarCost {
		l.swar, l.cost = true, swarCost
	}
	l.c1, l.m1 = lanes(text[l.rare], fold)
	l.c2, l.m2 = lanes(text[l.rare2], fold)
	return l, true
}

// lanes returns c in every byte of a word, and, when c is a folded
// letter, the mask that folds its two cases together (0x20 in every
// byte): b|0x20 is c only for c and its upper case.
func lanes(c byte, fold bool) (lanes, mask uint64) {
	const ones = 0x0101010101010101
	lanes = uint64(c) * ones
	if fold && 'a' <= c && c <= 'z' {
		mask = 0x20 * ones
	}
	return lanes, mask
}

// byteFreq is how often a byte occurs in English prose, markdown and
// code, per 10,000 bytes (roughly): what picks the byte a literal is
// scanned for.
var byteFreq = func() (f [256]uint16) {
	for c := range f {
		switch {
		case c < 0x20:
			f[c] = 1
		case c >= 0x80:
			f[c] = 10
		default:
			f[c] = 20
		}
	}
	lower := map[byte]uint16{
		'e': 1000, 't': 750, 'a': 650, 'o': 650, 'i': 600, 'n': 600, 's': 550, 'h': 500, 'r': 500,
		'd': 350, 'l': 330, 'c': 250, 'u': 240, 'm': 200, 'w': 180, 'f': 180, 'g': 160, 'y': 160,
		'p': 150, 'b': 120, 'v': 80, 'k': 60, 'x': 15, 'j': 10, 'q': 8, 'z': 6,
	}
	for c, n := range lower {
		f[c] = n
		f[c-'a'+'A'] = max(n/16, 2)
	}
	for c := byte('0'); c <= '9'; c++ {
		f[c] = 40
	}
	f[' '], f['\n'], f['.'], f[','], f['-'], f['\t'] = 1700, 200, 120, 110, 40, 20
	return f
}()
