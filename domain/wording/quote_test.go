package wording

import (
	"strings"
	"testing"
)

func TestQuoteInput(t *testing.T) {
	long := strings.Repeat("é", 150)
	tests := []struct {
		in    string
		quote rune
		want  string
	}{
		{"backend/auth", '\'', "'backend/auth'"},
		{"", '\'', "''"},
		{`a\d "b"`, '"', `"a\d "b""`},
		{"\n0", '\'', `'\n0'`},
		{"tab\there\\", '\'', `'tab\there\\'`},
		{"nul\x00 del\x7f c1\u0085 ls\u2028", '\'', `'nul\x00 del\x7f c1\x85 ls\u2028'`},
		{"bad \xff byte", '\'', `'bad \xff byte'`},
		{"no quotes", 0, "no quotes"},
		{long, '\'', "'" + strings.Repeat("é", MaxQuoted) + "…' (300 bytes in all)"},
		{strings.Repeat("\n", 200), '"', `"` + strings.Repeat(`\n`, MaxQuoted) + `…" (200 bytes in all)`},
	}
	for _, tc := range tests {
		if got := QuoteInput(tc.in, tc.quote); got != tc.want {
			t.Errorf("QuoteInput(%q, %q) = %q, want %q", tc.in, tc.quote, got, tc.want)
		}
	}
}
