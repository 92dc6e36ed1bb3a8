package frontmatterindex

import (
	"strings"
	"testing"
)

// FuzzParseMeta: any file's head is read without a panic, into one-line
// fields and one-line problems (they are shown on an answer's lines), and
// the same bytes give the same meta (it is cached by stamp).
func FuzzParseMeta(f *testing.F) {
	for _, seed := range []string{
		"---\ntitle: {#await ...}\ntags: template-await\n---\nBody\n",
		"---\ntitle: bind:\n---\n",
		"---\ntitle: ok\ntags: [a, b\n---\n# H\n",
		"---\nsummary:\n  - [a\n---\n",
		"---\n- a\n---\n",
		"\ufeff---\ntitle: x\n---\n",
		"---js\n{}\n---\n",
		"# Just a heading\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m := parseMeta(src)
		for _, s := range append([]string{m.title, m.summary}, m.problems...) {
			if strings.ContainsAny(s, "\n\r") {
				t.Fatalf("a field or problem spans lines: %q", s)
			}
		}
		again := parseMeta(src)
		if again.title != m.title || again.summary != m.summary || strings.Join(again.tags, "\x00") != strings.Join(m.tags, "\x00") {
			t.Fatalf("two reads differ: %+v, %+v", m, again)
		}
	})
}
