package domain

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Case-insensitive comparison as Go's (?i) does it: Unicode simple folding,
// rune by rune (K, k and the Kelvin sign are one; s, S and the long s are
// one), an invalid byte read as U+FFFD. A literal needs no regexp for it.

// FoldRune is one representative of r's simple-folding orbit (the least
// rune in it): two runes fold equal exactly when (?i) matches one with the
// other.
func FoldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			return r - ('a' - 'A')
		}
		return r
	}
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < least {
			least = f
		}
	}
	return least
}

// Fold maps every rune of b to FoldRune of it (invalid bytes to U+FFFD), so
// that a literal occurs in a text under (?i) exactly when Fold of it occurs
// in Fold of the text.
func Fold(b []byte) string {
	var out strings.Builder
	out.Grow(len(b))
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		out.WriteRune(FoldRune(r))
		i += n
	}
	return out.String()
}

// IndexFold finds the leftmost occurrence of lit in s under simple folding
// and returns its byte offsets in s, or -1, -1: what (?i) with lit quoted
// would match, found without a regexp.
func IndexFold(s []byte, lit string) (start, end int) {
	if lit == "" {
		return 0, 0
	}
	want := make([]rune, 0, len(lit))
	for _, r := range lit {
		want = append(want, FoldRune(r))
	}
	first := want[0]
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRune(s[i:])
		if FoldRune(r) == first {
			j, k := i+n, 1
			for k < len(want) && j < len(s) {
				r2, n2 := utf8.DecodeRune(s[j:])
				if FoldRune(r2) != want[k] {
					break
				}
				j += n2
				k++
			}
			if k == len(want) {
				return i, j
			}
		}
		i += n
	}
	return -1, -1
}

// ContainsFold reports whether lit occurs in s under simple folding
// (IndexFold's rules, on a string without copying it).
func ContainsFold(s, lit string) bool {
	if lit == "" {
		return true
	}
	want := make([]rune, 0, len(lit))
	for _, r := range lit {
		want = append(want, FoldRune(r))
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if FoldRune(r) == want[0] {
			j, k := i+n, 1
			for k < len(want) && j < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[j:])
				if FoldRune(r2) != want[k] {
					break
				}
				j += n2
				k++
			}
			if k == len(want) {
				return true
			}
		}
		i += n
	}
	return false
}
