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
