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
