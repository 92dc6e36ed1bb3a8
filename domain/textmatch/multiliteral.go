package textmatch

import (
	"bytes"
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// The multi-Literal Matcher: a regex of plain words joined by | (10 or
// 3,000 of them) is a set of literals, found in one pass over a doc by an
// Aho-Corasick automaton instead of a regex scan whose cost grows with the
// number of words (100 words over 50 MB took RE2 143 s; the automaton
// reads each byte once, whatever their number). A larger Literal set that
// only prefilters a regex (every match holds one) is found the same way.

// maxMultiLiterals bounds a Literal set (an alternation expanded, or a
// prefilter): past it the regex scan, under the time limit, decides.
const maxMultiLiterals = 10000

// maxAutomatonCells bounds the automaton's transition table (states × byte
// classes, 4 bytes each: 16 MiB). 3,000 lowercase words need about 1 MiB.
const maxAutomatonCells = 4 << 20

// multiLiteral finds the literals of a set: one automaton for those looked
// for in the content as it is, one for the folded ones, looked for in the
// doc's ASCII-lowered copy.
type multiLiteral struct {
	exact  bool // a line holding a Literal is a hit; else lineFind decides
	plain  *automaton
	folded *automaton
	ks     bool // a folded Literal holds k or s (see Literal.ks)
}

// newMultiLiteral builds the Matcher of lits, nil when the set is too large
// or holds an empty Literal (which every line holds).
func newMultiLiteral(lits []Literal, exact bool) *multiLiteral {
	if len(lits) > maxMultiLiterals {
		return nil
	}
	var plain, folded [][]byte
	m := &multiLiteral{exact: exact}
	for _, l := range lits {
		if len(l.Text) == 0 {
			return nil
		}
		if bytes.IndexByte(l.Text, '\n') >= 0 {
			continue // no line holds it, so no hit line does
		}
		if l.Fold {
			folded = append(folded, l.Text)
			m.ks = m.ks || l.KS
		} else {
			plain = append(plain, l.Text)
		}
	}
	var ok bool
	if m.plain, ok = newAutomaton(plain); !ok {
		return nil
	}
	if m.folded, ok = newAutomaton(folded); !ok {
		return nil
	}
	return m
}

// usable reports whether the lowered copy can stand in for folding in this
// doc (see Matcher.literalsUsable).
func (m *multiLiteral) usable(v *Text, content []byte) bool {
	if m.folded != nil {
		v.lowered(content)
		if m.ks && v.special {
			return false
		}
	}
	return true
}

// automaton is an Aho-Corasick automaton over byte classes, as a full
// transition table, one row of classes entries per state: from the row at
// offset s, byte b leads to next[s+class[b]], the offset of the next
// state's row, negated minus one when a Literal ends in that state (so the
// scan loop does one load and one sign test a byte); out[state] is the
// length of the longest Literal ending there, so a match is reported at its
// end, with its start.
type automaton struct {
	class   [256]uint8
	classes int
	next    []int32
	out     []int32
}

// newAutomaton builds the automaton of lits (nil for none); ok is false
// when its table would be over maxAutomatonCells.
func newAutomaton(lits [][]byte) (*automaton, bool) {
	if len(lits) == 0 {
		return nil, true
	}
	a := &automaton{}
	// Bytes that occur in no Literal share class 0.
	var used [256]bool
	states := 1
	for _, l := range lits {
		states += len(l)
		for _, c := range l {
			used[c] = true
		}
	}
	n := 0
	for _, u := range used {
		if u {
			n++
		}
	}
	if n == 256 {
		for c := range a.class {
			a.class[c] = uint8(c)
		}
		a.classes = 256
	} else {
		a.classes = 1
		for c := range used {
			if used[c] {
				a.class[c] = uint8(a.classes)
				a.classes++
			}
		}
	}
	if states*a.classes > maxAutomatonCells {
		return nil, false
	}
	// The trie: -1 is "no edge yet".
	goto_ := make([]int32, a.classes, states*a.classes)
	for i := range goto_ {
		goto_[i] = -1
	}
	out := []int32{0}
	for _, l := range lits {
		s := int32(0)
		for _, c := range l {
			k := int(s)*a.classes + int(a.class[c])
			if goto_[k] < 0 {
				goto_[k] = int32(len(out))
				out = append(out, 0)
				for range a.classes {
					goto_ = append(goto_, -1)
				}
			}
			s = goto_[k]
		}
		out[s] = max(out[s], int32(len(l)))
	}
	// Breadth first, each state's missing edges become its failure
	// state's, and its output the longer of its own and its failure's.
	fail := make([]int32, len(out))
	queue := make([]int32, 0, len(out))
	for c := 0; c < a.classes; c++ {
		if t := goto_[c]; t < 0 {
			goto_[c] = 0
		} else {
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if out[s] == 0 {
			out[s] = out[fail[s]]
		}
		for c := 0; c < a.classes; c++ {
			k := int(s)*a.classes + c
			t := goto_[k]
			f := goto_[int(fail[s])*a.classes+c]
			if t < 0 {
				goto_[k] = f
				continue
			}
			fail[t] = f
			queue = append(queue, t)
		}
	}
	for k, t := range goto_ {
		off := t * int32(a.classes)
		if out[t] > 0 {
			off = -off - 1
		}
		goto_[k] = off
	}
	a.next, a.out = goto_, out
	return a, true
}

// find returns the start and length of the first Literal occurrence that
// ends earliest in hay at or after pos (the longest of those ending
// there), or -1.
func (a *automaton) find(hay []byte, pos int) (start, width int) {
	next, class := a.next, &a.class
	s := int32(0)
	for i := pos; i < len(hay); i++ {
		if s = next[s+int32(class[hay[i]])]; s < 0 {
			n := int(a.out[int(-s-1)/a.classes])
			return i + 1 - n, n
		}
	}
	return -1, 0
}

// literalAlternatives returns the finite set of strings re matches, as
// literals the scan looks for exactly, when re is only literals,
// concatenations, alternations, groups, small character classes and
// optional parts (words joined by |, colou?r, gr[ae]y); nil otherwise, or
// when the set would be over maxMultiLiterals or hold the empty string.
// Under case folding, an ASCII letter is looked for in the lowered copy
// and a character without case as itself; a string mixing a folded letter
// with a non-ASCII letter or a case-sensitive one has no such Literal.
func literalAlternatives(re *syntax.Regexp) []Literal {
	strs, ok := expandLiterals(re)
	if !ok || len(strs) == 0 {
		return nil
	}
	out := make([]Literal, 0, len(strs))
	for _, s := range strs {
		if len(s) == 0 {
			return nil
		}
		lit, ok := exactLiteral(s)
		if !ok {
			return nil
		}
		out = append(out, lit)
	}
	return out
}

// foldRune is one character of an expanded Literal: fold means any case of
// it (the regex's (?i), or a class holding all its cases).
type foldRune struct {
	r    rune
	fold bool
}

// maxExpandedRunes bounds the characters of an expansion (the query is at
// bounded by its caller, 64 KiB for search_documents, but a product of
// classes grows fast).
const maxExpandedRunes = 256 << 10

func expandLiterals(re *syntax.Regexp) ([][]foldRune, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return [][]foldRune{nil}, true
	case syntax.OpLiteral:
		s := make([]foldRune, len(re.Rune))
		for i, r := range re.Rune {
			s[i] = foldRune{r: r, fold: re.Flags&syntax.FoldCase != 0 && unicode.SimpleFold(r) != r}
		}
		return [][]foldRune{s}, true
	case syntax.OpCharClass:
		return expandClass(re.Rune)
	case syntax.OpCapture:
		return expandLiterals(re.Sub[0])
	case syntax.OpQuest:
		sub, ok := expandLiterals(re.Sub[0])
		if !ok || len(sub)+1 > maxMultiLiterals {
			return nil, false
		}
		return append([][]foldRune{nil}, sub...), true
	case syntax.OpAlternate:
		var all [][]foldRune
		for _, sub := range re.Sub {
			set, ok := expandLiterals(sub)
			if !ok || len(all)+len(set) > maxMultiLiterals {
				return nil, false
			}
			all = append(all, set...)
		}
		return all, true
	case syntax.OpConcat:
		acc := [][]foldRune{nil}
		for _, sub := range re.Sub {
			set, ok := expandLiterals(sub)
			if !ok || len(acc)*len(set) > maxMultiLiterals {
				return nil, false
			}
			var next [][]foldRune
			size := 0
			for _, a := range acc {
				for _, s := range set {
					joined := make([]foldRune, 0, len(a)+len(s))
					next = append(next, append(append(joined, a...), s...))
					size += len(a) + len(s)
				}
			}
			if size > maxExpandedRunes {
				return nil, false
			}
			acc = next
		}
		return acc, true
	}
	return nil, false
}

// maxClassRunes bounds a character class expanded into its characters.
const maxClassRunes = 64

// expandClass turns a class (ranges lo, hi, ...) into one-character
// strings: a character whose every case is in the class once, folded; any
// other character as itself.
func expandClass(ranges []rune) ([][]foldRune, bool) {
	in := func(r rune) bool {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= r && r <= ranges[i+1] {
				return true
			}
		}
		return false
	}
	count := 0
	for i := 0; i+1 < len(ranges); i += 2 {
		count += int(ranges[i+1]-ranges[i]) + 1
		if count > 2*maxClassRunes {
			return nil, false
		}
	}
	var out [][]foldRune
	seen := map[rune]bool{}
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			if seen[r] {
				continue
			}
			whole, cased := true, false
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				cased = true
				whole = whole && in(f)
			}
			if cased && whole {
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					seen[f] = true
				}
				out = append(out, []foldRune{{r: r, fold: true}})
			} else {
				out = append(out, []foldRune{{r: r}})
			}
			seen[r] = true
		}
	}
	if len(out) > maxClassRunes {
		return nil, false
	}
	return out, true
}

// exactLiteral is the Literal the scan looks for to find s exactly: as its
// bytes when no character of s is folded; in the lowered copy when every
// folded character is an ASCII letter and no other is an ASCII letter of
// one case (which the lowered copy would lose or fake; other bytes are the
// same in both).
func exactLiteral(s []foldRune) (Literal, bool) {
	folds := false
	for _, c := range s {
		folds = folds || c.fold
	}
	var b []byte
	for _, c := range s {
		switch {
		case !folds:
		case c.fold && c.r < utf8.RuneSelf:
		case c.fold:
			return Literal{}, false // a non-ASCII letter in any case
		case 'a' <= c.r|0x20 && c.r|0x20 <= 'z':
			return Literal{}, false // one case of an ASCII letter, among folded ones
		}
		b = utf8.AppendRune(b, c.r)
	}
	if !folds {
		return Literal{Text: b}, true
	}
	lower := lowerASCII(b)
	return Literal{Text: lower, Fold: true, KS: bytes.ContainsAny(lower, "ks")}, true
}
