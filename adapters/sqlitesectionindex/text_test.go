package sqlitesectionindex

import (
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
)

// A camelCase name in a title or heading is searched by its parts too, as
// the code column searches it: the tokenizer reads "hookTimeout" as one
// token, so a one-option page titled by its option's name was found by
// "hook" or "timeout" only at the code column's weight.
func TestSectionTextsTitleAndHeadingHoldCamelCaseParts(t *testing.T) {
	content := "---\ntitle: hookTimeout | Config\n---\n\n# hookTimeout\n\n- **Default:** `10_000`\n"
	e := sectionindex.Entry{
		Doc:     domain.Document{Path: "config/hooktimeout.md", Title: "hookTimeout | Config"},
		Content: []byte(content),
		Structure: domain.Structure{FrontmatterEnd: 3, Sections: []domain.Section{
			{ID: "hooktimeout", Heading: "hookTimeout", Level: 1, Start: 5, End: 7, Parent: -1, Depth: 1},
		}},
	}
	got := sectionTexts(e)
	if len(got) != 1 {
		t.Fatalf("sections: %d", len(got))
	}
	for name, col := range map[string]string{"title": got[0].title, "heading": got[0].heading} {
		if !strings.Contains(col, "hookTimeout") || !strings.Contains(col, "hook timeout") {
			t.Errorf("%s column %q: want the name whole and its parts", name, col)
		}
	}
}

// Only camelCase is split: the tokenizer splits at hyphens, dots and
// underscores itself, and a plain heading is left as it is.
func TestWithIdentifierParts(t *testing.T) {
	for in, want := range map[string]string{
		"Configure Plugins":          "Configure Plugins",
		"no-param-reassign":          "no-param-reassign",
		"otel.javaagent.enabled":     "otel.javaagent.enabled",
		"browser.connectTimeout":     "browser.connectTimeout\nconnect timeout",
		"fsModuleCachePath | Config": "fsModuleCachePath | Config\nfs module cache path",
		"HTTPServer / getRouterName": "HTTPServer / getRouterName\nhttp server get router name",
	} {
		if got := withIdentifierParts(in); got != want {
			t.Errorf("withIdentifierParts(%q) = %q, want %q", in, got, want)
		}
	}
}

// A version number is searched in its other spelling too ("Vue 2": v2;
// "v1.0": 1 0), as the tokenizer reads "v1" as one token; a number in a
// code span is a value, not a version.
func TestMatchTermsVersionForms(t *testing.T) {
	for q, want := range map[string]string{
		"When did support for Vue 2 end?": `"did" AND "support" AND "vue" AND ("2" OR "v2") AND "end"`,
		"released as version 1.0?":        `"released" AND "version" AND ("10" OR "1 0" OR "v1 0")`,
		"Since v11, is it faster?":        `"since" AND ("v11" OR "11") AND "faster"`,
		"allow `a = b = 0` but not 0.5":   `"allow" AND "b" AND "0" AND "but" AND "not" AND ("05" OR "0 5" OR "v0 5")`,
		"pnpm dlx":                        `"pnpm" AND "dlx"`,
	} {
		terms, _, _ := matchTerms(q)
		if got := strings.Join(terms, " AND "); got != want {
			t.Errorf("matchTerms(%q) = %s, want %s", q, got, want)
		}
	}
}
