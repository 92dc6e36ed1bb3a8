package textmatch

import (
	"regexp"
	"testing"
)

// FuzzIndexFold checks IndexFold against the regexp it replaces.
func FuzzIndexFold(f *testing.F) {
	for _, seed := range [][2]string{{"Temperature in \u212aelvin", "KELVIN"}, {"ſecret", "SECRET"}, {"ΣΊΣΥΦΟΣ", "σίσυφος"},
		{"bad \xff byte", "\ufffd"}, {"ǅemal", "ǆEMAL"}, {"abc", ""}, {"", "a"}, {"aaab", "aab"}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, s, lit string) {
		re, err := regexp.Compile("(?i)" + regexp.QuoteMeta(lit))
		if err != nil {
			return // lit is not UTF-8: callers refuse it first
		}
		want := re.FindStringIndex(s)
		if got := ContainsFold(s, lit); got != (want != nil) {
			t.Fatalf("ContainsFold(%q, %q) = %v; regexp %v", s, lit, got, want)
		}
		start, end := IndexFold([]byte(s), lit)
		if want == nil {
			if start != -1 {
				t.Fatalf("IndexFold(%q, %q) = %d,%d; regexp finds nothing", s, lit, start, end)
			}
			return
		}
		if start != want[0] || end != want[1] {
			t.Fatalf("IndexFold(%q, %q) = %d,%d; regexp %v", s, lit, start, end, want)
		}
	})
}
