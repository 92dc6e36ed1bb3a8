package textmatch

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
	if asciiFoldable(s, lit) {
		return containsFoldASCII(s, lit)
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

// asciiFoldable reports whether lit is ASCII and no rune of s outside
// ASCII can fold to one of lit's: only the Kelvin sign (k) and the long s
// (s) do. Then a match is ASCII bytes of lit's length, compared ignoring
// ASCII case.
func asciiFoldable(s, lit string) bool {
	for i := 0; i < len(lit); i++ {
		if lit[i] >= utf8.RuneSelf {
			return false
		}
	}
	if strings.ContainsAny(lit, "kKsS") && (strings.Contains(s, "\u212a") || strings.Contains(s, "\u017f")) {
		return false
	}
	return true
}

// containsFoldASCII finds lit's first byte in either case, then compares.
func containsFoldASCII(s, lit string) bool {
	lower, upper := lit[0], lit[0]
	if 'a' <= lower && lower <= 'z' {
		upper = lower - ('a' - 'A')
	} else if 'A' <= lower && lower <= 'Z' {
		lower = upper + ('a' - 'A')
	}
	// Next occurrences of each case of the first byte, each looked up
	// again only once passed, so the scan stays linear.
	nextLower, nextUpper := -2, -2
	next := func(c byte, at, from int) int {
		if at >= from || at == -1 {
			return at
		}
		if k := strings.IndexByte(s[from:], c); k >= 0 {
			return from + k
		}
		return -1
	}
	for i := 0; i+len(lit) <= len(s); {
		nextLower = next(lower, nextLower, i)
		j := nextLower
		if upper != lower {
			nextUpper = next(upper, nextUpper, i)
			if nextUpper >= 0 && (j < 0 || nextUpper < j) {
				j = nextUpper
			}
		}
		if j < 0 || j+len(lit) > len(s) {
			return false
		}
		if equalFoldASCII(s[j:j+len(lit)], lit) {
			return true
		}
		i = j + 1
	}
	return false
}

func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
