package domain_test

import (
	"testing"

	"github.com/librarian/librarian/domain"
)

func TestPathWords(t *testing.T) {
	for path, want := range map[string]string{
		"demo/kubernetes-deployment.md":    "demo kubernetes deployment",
		"zero-code/java/agent/_index.md":   "zero code java agent index",
		"config/browser/connectTimeout.md": "config browser connectTimeout",
		"guide.md":                         "guide",
		"api/v2.1/notes.md":                "api v2 1 notes",
		"docs/My Guide/first_steps.md":     "docs My Guide first steps",
	} {
		if got := (domain.Document{Path: path}).PathWords(); got != want {
			t.Errorf("PathWords(%q) = %q, want %q", path, got, want)
		}
	}
}

// The hash changes with what a doc is searched by beyond its file (title,
// tags and their order, a tag moved into the title) and only with that.
func TestDescriptionHash(t *testing.T) {
	base := domain.Document{Path: "a.md", Title: "Guide", Tags: []string{"alpha", "beta"}, Summary: "one"}
	same := base
	same.Summary, same.Tokens, same.Stamp = "two", 9, domain.Stamp{Size: 3}
	if base.DescriptionHash() != same.DescriptionHash() {
		t.Error("the hash changed with the summary, tokens or stamp, which no index searches a doc by")
	}
	seen := map[uint64]string{base.DescriptionHash(): "base"}
	for name, d := range map[string]domain.Document{
		"title":        {Title: "Guides", Tags: []string{"alpha", "beta"}},
		"a tag":        {Title: "Guide", Tags: []string{"alpha", "gamma"}},
		"tag order":    {Title: "Guide", Tags: []string{"beta", "alpha"}},
		"no tags":      {Title: "Guide"},
		"tags joined":  {Title: "Guide", Tags: []string{"alphabeta"}},
		"tag in title": {Title: "Guidealpha", Tags: []string{"beta"}},
		"an empty tag": {Title: "Guide", Tags: []string{"alpha", "beta", ""}},
	} {
		h := d.DescriptionHash()
		if other, ok := seen[h]; ok {
			t.Errorf("%s: the same hash as %s", name, other)
		}
		seen[h] = name
	}
}
