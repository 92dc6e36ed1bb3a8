package passage

import (
	"reflect"
	"testing"

	"github.com/librarian/librarian/domain"
)

// OptionLinks: links whose text is a code name, to another doc of the
// library, resolved from the site's root or from the page; web addresses,
// anchors of the page itself, prose links and paths above the root are
// left out.
func TestOptionLinks(t *testing.T) {
	for _, c := range []struct {
		doc, line string
		want      []OptionLink
	}{
		{"api/hooks.md", "The default is 10 seconds, and can be configured globally with [`hookTimeout`](/config/hooktimeout).",
			[]OptionLink{{Paths: []string{"config/hooktimeout.md", "config/hooktimeout/index.md"}, Name: "hookTimeout"}}},
		{"api/browser/locators.md", "using [`browser.screenshotDirectory`](/config/browser/screenshotdirectory) (`__screenshot__` by default), and [`locator.screenshot()`](/api/browser/locators.html#Screenshot)",
			[]OptionLink{
				{Paths: []string{"config/browser/screenshotdirectory.md", "config/browser/screenshotdirectory/index.md"}, Name: "browser.screenshotDirectory"},
			}},
		{"guide/a.md", "see [`typecheck.include`](../config/typecheck.md#typecheck-include) and [`x`](./b)",
			[]OptionLink{
				{Paths: []string{"config/typecheck.md", "config/typecheck/index.md"}, Anchor: "typecheck-include", Name: "typecheck.include"},
				{Paths: []string{"guide/b.md", "guide/b/index.md"}, Name: "x"},
			}},
		{"guide/a.md", "a [prose link](/config/hooktimeout), [`web`](https://example.com/x), [`here`](#options), [`up`](../../x)", nil},
	} {
		if got := OptionLinks(c.doc, c.line); !reflect.DeepEqual(got, c.want) {
			t.Errorf("OptionLinks(%q, %q) =\n %+v, want\n %+v", c.doc, c.line, got, c.want)
		}
	}
}

// LinkedDefault: the labelled default of a setting's own page (under its
// title) or of the section a link's anchor names, never one in code.
func TestLinkedDefault(t *testing.T) {
	page := []string{
		"---", "title: hookTimeout", "---", // 1-3
		"# hookTimeout",        // 4
		"",                     // 5
		"- **Type:** `number`", // 6
		"- **Default:** `10_000` in Node.js, `30_000` if `browser.enabled` is `true`", // 7
		"",                           // 8
		"Default timeout of a hook.", // 9
		"## typecheck.include",       // 10
		"```js",                      // 11
		"// Default: not this one",   // 12
		"```",                        // 13
		"- **Default:** `['**/*.{test,spec}-d']`", // 14
	}
	st := domain.Structure{Lines: len(page), FrontmatterEnd: 3, Sections: []domain.Section{
		{ID: "_intro", Heading: "hookTimeout", Level: 1, Start: 4, End: 14},
		{ID: "typecheckinclude", Heading: "typecheck.include", Level: 2, Start: 10, End: 14, Parent: 0},
	}}
	for _, c := range []struct {
		anchor string
		want   int
	}{{"", 7}, {"typecheck-include", 14}, {"no-such-heading", 0}} {
		if got := LinkedDefault(st, page, c.anchor); got != c.want {
			t.Errorf("LinkedDefault(anchor %q) = %d, want %d", c.anchor, got, c.want)
		}
	}
}

// NameAsked counts the question's own words a code name's parts hold;
// AsksSetting reads "where" questions as asking for a setting's value.
func TestNameAskedAndAsksSetting(t *testing.T) {
	q := NewQuestion("Where does Vitest browser mode save screenshots when I haven't configured a folder?")
	if got := q.NameAsked("browser.screenshotDirectory"); got != 2 {
		t.Errorf("NameAsked(browser.screenshotDirectory) = %d, want 2", got)
	}
	if got := q.NameAsked("api"); got != 0 {
		t.Errorf("NameAsked(api) = %d, want 0", got)
	}
	if !q.AsksSetting() {
		t.Error("a where question asks for a setting's value")
	}
	if NewQuestion("why does my test fail after an upgrade?").AsksSetting() {
		t.Error("a why question asks for no setting")
	}
}
