package wording

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxQuoted is how many characters of an input (a doc name, a selector, a
// query) a note or an error quotes: enough to recognise it, never the 50 MB
// a hostile caller sent.
const MaxQuoted = 100

// QuoteInput renders text that came from the caller for a note or an
// error: between quote marks (none when quote is 0), on one line, and at
// most MaxQuoted characters, a longer text ending in '…' inside the quotes
// and followed by its full size, "'aaaa…' (52428800 bytes in all)". Text
// that is short, valid UTF-8 and free of control characters is quoted as
// it is; otherwise line breaks, tabs, other control characters, invalid
// bytes and backslashes are escaped Go-style (\n, \t, \x00, \\), so a name
// holding a line break cannot break a Notes block across lines.
func QuoteInput(s string, quote rune) string {
	var b strings.Builder
	if quote != 0 {
		b.WriteRune(quote)
	}
	escape := needsEscape(s)
	n := 0
	cut := false
	for i := 0; i < len(s); {
		if n == MaxQuoted {
			cut = true
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case !escape:
			b.WriteString(s[i : i+size])
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case isControl(r):
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
		n++
	}
	if cut {
		b.WriteString("…")
	}
	if quote != 0 {
		b.WriteRune(quote)
	}
	if cut {
		fmt.Fprintf(&b, " (%d bytes in all)", len(s))
	}
	return b.String()
}

// needsEscape reports whether s holds an invalid byte or a character that
// would not show as itself on one line.
func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || isControl(r) {
			return true
		}
		i += size
	}
	return false
}

// isControl: C0, DEL, C1, and the Unicode line and paragraph separators.
func isControl(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}
