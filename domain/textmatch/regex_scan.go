package textmatch

import (
	"math/bits"
	"strings"
)

// Finding a plan's literals in a body in place, without a lowered copy:
// strings.IndexByte (vectorised) for a literal's rarest byte in each of its
// cases, when that byte is rare, else a SWAR pass testing two of its bytes
// at 8 places at a time; then a comparison folding ASCII letters only.

// occurrence is an occurrence of a literal: body[start:end], runes long.
type occurrence struct{ start, end, runes int }

// shortHay is the length of a stretch up to which index scans the SWAR
// way whatever the literal: a few words, against calls of IndexByte.
const shortHay = 256

// appendAll appends to dst the occurrences of l wholly inside s[from:to],
// in no particular order. ok is false past limit occurrences in dst.
func (l *planLit) appendAll(dst []occurrence, s string, from, to, limit int) (_ []occurrence, ok bool) {
	n := len(l.text)
	if l.swar {
		for p := l.indexSWAR(s, from, to); p >= 0; p = l.indexSWAR(s, p+1, to) {
			if dst = append(dst, occurrence{p, p + n, l.runes}); len(dst) > limit {
				return dst, false
			}
		}
		return dst, true
	}
	if !l.fold {
		for from+n <= to {
			i := strings.Index(s[from:to], l.text)
			if i < 0 {
				break
			}
			if dst = append(dst, occurrence{from + i, from + i + n, l.runes}); len(dst) > limit {
				return dst, false
			}
			from += i + 1
		}
		return dst, true
	}
	for k := 0; k < len(l.cases); k++ {
		c := l.cases[k]
		// The rare byte of an occurrence p is at p+l.rare, and p+n <= to.
		lo, hi := from+l.rare, to-n+l.rare+1
		for lo < hi {
			i := strings.IndexByte(s[lo:hi], c)
			if i < 0 {
				break
			}
			p := lo + i - l.rare
			if foldEq(s[p:p+n], l.text) {
				if dst = append(dst, occurrence{p, p + n, l.runes}); len(dst) > limit {
					return dst, false
				}
			}
			lo += i + 1
		}
	}
	return dst, true
}

// index returns the start of the first occurrence of l wholly inside
// s[from:to], or -1.
func (l *planLit) index(s string, from, to int) int {
	n := len(l.text)
	if to-from < n {
		return -1
	}
	if l.swar || to-from <= shortHay {
		return l.indexSWAR(s, from, to)
	}
	if !l.fold {
		if i := strings.Index(s[from:to], l.text); i >= 0 {
			return from + i
		}
		return -1
	}
	best := -1
	for k := 0; k < len(l.cases); k++ {
		c := l.cases[k]
		lo, hi := from+l.rare, to-n+l.rare+1
		if best >= 0 {
			hi = min(hi, best+l.rare) // only an earlier one counts
		}
		for lo < hi {
			i := strings.IndexByte(s[lo:hi], c)
			if i < 0 {
				break
			}
			if p := lo + i - l.rare; foldEq(s[p:p+n], l.text) {
				best = p
				break
			}
			lo += i + 1
		}
	}
	return best
}

// indexSWAR is index testing the places p = i..i+7 at once, in one word
// each of the bytes at p+rare and at p+rare2 (a folded letter's two cases
// made one by OR 0x20): a byte of z is zero where both match. The classic
// zero-byte test flags the lowest zero byte exactly and may flag more
// above it, so each flagged place is compared in full.
func (l *planLit) indexSWAR(s string, from, to int) int {
	n := len(l.text)
	last := to - n // the last place an occurrence can start
	p := from
	if last-from >= 7 {
		// w1[j:j+8] holds the bytes at offset rare of places from+j..from+j+7,
		// w2 those at rare2; both lie inside s[from:to].
		w1 := s[from+l.rare : last+l.rare+1]
		w2 := s[from+l.rare2 : last+l.rare2+1]
		j := 0
		for {
			var t uint64
			if j, t = swarNext(w1, w2, j, l); t == 0 {
				break
			}
			for ; t != 0; t &= t - 1 {
				if q := from + j + bits.TrailingZeros64(t)>>3; l.at(s[q : q+n]) {
					return q
				}
			}
			j += 8
		}
		p = from + j
	}
	for ; p <= last; p++ {
		if l.at(s[p : p+n]) {
			return p
		}
	}
	return -1
}

// at reports whether s, of len(l.text) bytes, is an occurrence of l.
func (l *planLit) at(s string) bool {
	if l.fold {
		return foldEq(s, l.text)
	}
	return s == l.text
}

// swarNext returns the first j' >= j (by 8) whose word of places has a
// candidate, with its flags (the top bit of each candidate's byte), or
// t == 0 at the end of w1.
func swarNext(w1, w2 string, j int, l *planLit) (_ int, t uint64) {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	c1, m1, c2, m2 := l.c1, l.m1, l.c2, l.m2
	w2 = w2[:len(w1)]
	for ; j+8 <= len(w1); j += 8 {
		z := ((load64(w1[j:j+8]) | m1) ^ c1) | ((load64(w2[j:j+8]) | m2) ^ c2)
		if t = (z - lo) &^ z & hi; t != 0 {
			return j, t
		}
	}
	return j, 0
}

// appendAll appends to dst the occurrences of the piece's literals in s,
// in no particular order; ok is false past limit occurrences in dst. The
// literals scanned the SWAR way go by two in one pass (appendSWAR2).
func (pc *planPiece) appendAll(dst []occurrence, s string, limit int) (_ []occurrence, ok bool) {
	pending := -1 // a SWAR literal waiting for a second
	for i := range pc.lits {
		l := &pc.lits[i]
		switch {
		case !l.swar:
			dst, ok = l.appendAll(dst, s, 0, len(s), limit)
		case pending < 0:
			pending, ok = i, true
		default:
			dst, ok = appendSWAR2(dst, s, &pc.lits[pending], l, limit)
			pending = -1
		}
		if !ok {
			return dst, false
		}
	}
	if pending >= 0 {
		return pc.lits[pending].appendAll(dst, s, 0, len(s), limit)
	}
	return dst, true
}

// appendSWAR2 appends the occurrences in s of two literals, scanned the
// SWAR way in one pass: their words share the loop.
func appendSWAR2(dst []occurrence, s string, a, b *planLit, limit int) (_ []occurrence, ok bool) {
	na, nb := len(a.text), len(b.text)
	n := max(na, nb)
	last := len(s) - n // the last place both can start
	if m := a.m1; last < 7 || a.m2 != m || b.m1 != m || b.m2 != m {
		// Short, or the four bytes do not all fold alike: one by one.
		if dst, ok = a.appendAll(dst, s, 0, len(s), limit); !ok {
			return dst, false
		}
		return b.appendAll(dst, s, 0, len(s), limit)
	}
	w := [4]string{
		s[a.rare : last+a.rare+1], s[a.rare2 : last+a.rare2+1],
		s[b.rare : last+b.rare+1], s[b.rare2 : last+b.rare2+1],
	}
	j := 0
	for {
		if j = swarNext2(&w, j, a, b); j+8 > len(w[0]) {
			break
		}
		ta, tb := swarWord(w[0], w[1], j, a), swarWord(w[2], w[3], j, b)
		for ; ta != 0; ta &= ta - 1 {
			if q := j + bits.TrailingZeros64(ta)>>3; a.at(s[q : q+na]) {
				if dst = append(dst, occurrence{q, q + na, a.runes}); len(dst) > limit {
					return dst, false
				}
			}
		}
		for ; tb != 0; tb &= tb - 1 {
			if q := j + bits.TrailingZeros64(tb)>>3; b.at(s[q : q+nb]) {
				if dst = append(dst, occurrence{q, q + nb, b.runes}); len(dst) > limit {
					return dst, false
				}
			}
		}
		j += 8
	}
	// The places from j on, for each.
	for _, l := range [2]*planLit{a, b} {
		for p := l.indexSWAR(s, j, len(s)); p >= 0; p = l.indexSWAR(s, p+1, len(s)) {
			if dst = append(dst, occurrence{p, p + len(l.text), l.runes}); len(dst) > limit {
				return dst, false
			}
		}
	}
	return dst, true
}

// swarNext2 is swarNext for two literals at once, w their four
// stretches (a's at rare and rare2, then b's), all of one length, whose
// bytes fold alike (one mask, so that the loop's values fit in
// registers): it returns the first j' >= j (by 8) whose word of places has
// a candidate of either, or the first past the last whole word; swarWord
// then tells which.
func swarNext2(w *[4]string, j int, a, b *planLit) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	m, a1, a2, b1, b2 := a.m1, a.c1, a.c2, b.c1, b.c2
	w0, w1, w2, w3 := w[0], w[1], w[2], w[3]
	w1, w2, w3 = w1[:len(w0)], w2[:len(w0)], w3[:len(w0)]
	for ; j+8 <= len(w0); j += 8 {
		za := ((load64(w0[j:j+8]) | m) ^ a1) | ((load64(w1[j:j+8]) | m) ^ a2)
		zb := ((load64(w2[j:j+8]) | m) ^ b1) | ((load64(w3[j:j+8]) | m) ^ b2)
		if ((za-lo)&^za|(zb-lo)&^zb)&hi != 0 {
			return j
		}
	}
	return j
}

// swarWord returns the candidate flags of l's word of places at j of
// its stretches w1 (at rare) and w2 (at rare2).
func swarWord(w1, w2 string, j int, l *planLit) uint64 {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	z := ((load64(w1[j:j+8]) | l.m1) ^ l.c1) | ((load64(w2[j:j+8]) | l.m2) ^ l.c2)
	return (z - lo) &^ z & hi
}

// load64 reads the 8 bytes of w as a little-endian word (one load).
func load64(w string) uint64 {
	_ = w[7]
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
}

// foldEq reports whether s is text (ASCII-lowered) up to the case of
// ASCII letters; len(s) == len(text).
func foldEq(s, text string) bool {
	for i := 0; i < len(text); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != text[i] {
			return false
		}
	}
	return true
}

// hasSpecial reports whether s holds U+212A or U+017F, which (?i) folds
// to k and s but the in-place scan does not see.
func hasSpecial(s string) bool {
	// Most bodies are ASCII: a word-wide test of the top bits is cheaper
	// than two vector scans.
	const hi = 0x8080808080808080
	i := 0
	for ; i+32 <= len(s); i += 32 {
		w := s[i : i+32]
		if (load64(w[:8])|load64(w[8:16])|load64(w[16:24])|load64(w[24:32]))&hi != 0 {
			break
		}
	}
	for ; i < len(s) && s[i] < 0x80; i++ {
	}
	if i == len(s) {
		return false
	}
	s = s[i:]
	return strings.Contains(s, "\u212a") || strings.Contains(s, "\u017f")
}

// runesBack returns a position at or before the start of the n runes
// (as the regexp package decodes them) that end at i, a rune boundary, or
// 0: an ASCII byte is one rune, and a rune of other bytes is at most 4.
func runesBack(s string, i, n int) int {
	for ; n > 0 && i > 0; n-- {
		if s[i-1] < 0x80 {
			i--
		} else {
			i -= 4
		}
	}
	return max(i, 0)
}

// runesFwd returns a position at or after the end of the n runes that
// start at i, a rune boundary, or len(s).
func runesFwd(s string, i, n int) int {
	for ; n > 0 && i < len(s); n-- {
		if s[i] < 0x80 {
			i++
		} else {
			i += 4
		}
	}
	return min(i, len(s))
}

func wordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// A window body[lo:hi] is matched with the regex as a text of its own: at
// its edges the regex's empty-width assertions see the text's start and
// end where the body has more runes. cutLeft and cutRight move a cut out
// to where the two look the same to every assertion the regex holds, so
// the window's matches are exactly the body's matches inside it:
//   - a cut is at a rune's first byte, so the window decodes as the body;
//   - \b and \B see no word character beyond the window's edge: the
//     body's rune there must not be one ([0-9A-Za-z_]; a non-ASCII rune or
//     an invalid byte is none);
//   - (?m)^ and (?m)$ hold at the window's edges: the body's rune beyond
//     must be '\n';
//   - \A and \z (^ and $ without (?m)) hold at the edges only in the body
//     itself: the cut must be the body's start or end.

func (p *bodyPlan) cutLeft(s string, lo int) int {
	if p.beginText {
		return 0
	}
	for lo > 0 {
		if lo < len(s) && !startsRune(s[lo]) {
			lo--
			continue
		}
		prev := s[lo-1]
		switch {
		case p.beginLine:
			if prev == '\n' {
				return lo
			}
			lo = strings.LastIndexByte(s[:lo], '\n') + 1
		case p.word && wordByte(prev):
			lo--
		default:
			return lo
		}
	}
	return 0
}

func (p *bodyPlan) cutRight(s string, hi int) int {
	if p.endText {
		return len(s)
	}
	for hi < len(s) {
		c := s[hi]
		switch {
		case !startsRune(c):
			hi++
		case p.endLine:
			if c == '\n' {
				return hi
			}
			i := strings.IndexByte(s[hi:], '\n')
			if i < 0 {
				return len(s)
			}
			hi += i
		case p.word && wordByte(c):
			hi++
		default:
			return hi
		}
	}
	return len(s)
}
