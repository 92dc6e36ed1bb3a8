package wording

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Excerpt shortens a long line to at most maxRunes runes around the match
// [start, end) (byte offsets), up to 1/before of them before it and the
// rest after, marking each cut with '…'; when the line's end is in view
// the whole window goes before it. A trailing '\r' (CRLF files) is
// dropped. A line no longer than maxRunes is returned whole.
func Excerpt(line []byte, start, end, maxRunes, before int) string {
	maxHitRunes := maxRunes
	before = max(before, 1)
	line = bytes.TrimSuffix(line, []byte("\r"))
	if utf8.RuneCount(line) <= maxHitRunes {
		return string(line)
	}
	start = min(max(start, 0), len(line))
	end = min(max(end, start), len(line))
	// Up to a share of the window before the match, the rest after it.
	lo := start
	for n := 0; lo > 0 && n < maxHitRunes/before; n++ {
		_, size := utf8.DecodeLastRune(line[:lo])
		lo -= size
	}
	hi := lo
	for n := 0; hi < len(line) && n < maxHitRunes; n++ {
		_, size := utf8.DecodeRune(line[hi:])
		hi += size
	}
	if hi == len(line) {
		// The end of the line is in view: spend the window before the match.
		lo = hi
		for n := 0; lo > 0 && n < maxHitRunes; n++ {
			_, size := utf8.DecodeLastRune(line[:lo])
			lo -= size
		}
	}
	var b strings.Builder
	if lo > 0 {
		b.WriteString("…")
	}
	b.Write(line[lo:hi])
	if hi < len(line) {
		b.WriteString("…")
	}
	return b.String()
}
