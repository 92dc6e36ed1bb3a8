package localretrieval_test

import (
	"strings"
	"testing"

	"github.com/librarian/librarian/domain/knowledge"
)

// A question asking a setting's value, answered by a guide that names the
// setting by a link to its own page, quotes the page's labelled default
// with the page's path; a question asking no value does not.
func TestAskQuotesLinkedDefault(t *testing.T) {
	lib := t.TempDir()
	write(t, lib, "api/hooks.md", "# Hooks\n\n## beforeEach\n\nRegisters a callback run before each test. Optionally pass a timeout defining how long to wait before terminating the beforeEach hook; it can be configured globally with [`hookTimeout`](/config/hooktimeout).\n")
	write(t, lib, "config/hooktimeout.md", "---\ntitle: hookTimeout\n---\n\n# hookTimeout\n\n- **Type:** `number`\n- **Default:** `10_000` in Node.js, `30_000` in the browser\n\nThe limit of a hook in milliseconds.\n")
	eng := newLocal(t, lib)
	a, err := eng.Ask(ctx, knowledge.AskQuery{Query: "how long can a beforeEach hook wait before terminating?", Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.Text, "(config/hooktimeout.md): - **Default:** `10_000` in Node.js, `30_000` in the browser") {
		t.Errorf("the linked setting's default is not quoted with its path:\n%s", a.Text)
	}
	b, err := eng.Ask(ctx, knowledge.AskQuery{Query: "why register a beforeEach hook before terminating?", Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.Text, "(config/hooktimeout.md)") {
		t.Errorf("a question asking no value quotes the linked default:\n%s", b.Text)
	}
}
