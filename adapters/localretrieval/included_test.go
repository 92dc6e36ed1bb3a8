package localretrieval_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain/knowledge"
)

// A section whose body is an include line quotes the included file's
// lines, with its path; an include naming a file outside the library (a
// `..` escape, a symlink out of the root) quotes nothing of it.
func TestAskQuotesIncludedLines(t *testing.T) {
	root := t.TempDir()
	lib := filepath.Join(root, "docs")
	write(t, lib, "languages/go/tracing.md", "# Tracing in Go\n\n## Set span status\n\n{{% include \"span-status-preamble.md\" %}}\n\n## Record errors\n\nCall RecordError on the span.\n")
	write(t, lib, "languages/_includes/span-status-preamble.md", "A status can be set on a span.\n\nBy default, all spans are `Unset`, which means a span completed without error.\n")
	write(t, lib, "guide/escape.md", "# Escape\n\n## Secret status\n\n<!--@include: ../../outside.md-->\n\n## Linked status\n\n<!--@include: ./linked.md-->\n")
	write(t, root, "outside.md", "The secret span status is `Leaked`.\n")
	if err := os.Symlink(filepath.Join(root, "outside.md"), filepath.Join(lib, "guide", "linked.md")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	eng := newLocal(t, lib)
	a, err := eng.Ask(ctx, knowledge.AskQuery{Query: "tracing in Go: set span status, which by default is?", Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.Text, "(languages/_includes/span-status-preamble.md): By default, all spans are `Unset`") {
		t.Errorf("the included line is not quoted with its path:\n%s", a.Text)
	}
	if strings.Contains(a.Text, "{{% include") {
		t.Errorf("the include line is quoted, not what it includes:\n%s", a.Text)
	}
	b, err := eng.Ask(ctx, knowledge.AskQuery{Query: "what is the secret span status?", Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.Text, "Leaked") {
		t.Errorf("a file outside the library is quoted:\n%s", b.Text)
	}
}
