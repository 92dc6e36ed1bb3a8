package localretrieval

import (
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/passage"
	"github.com/librarian/librarian/ports/sectionindex"
)

// A parent's defining line longer than a quote is cut where the question's
// words meet, as every quoted line is (quotedText), not at its start: a
// rule's Options line names its option first and states what it does last
// ("If `"props"` is set to `true`, this rule warns against ...").
func TestDefinitionQuotedWhereTheQuestionsWordsMeet(t *testing.T) {
	def := "This rule takes one option, an object, with a boolean property `\"props\"`, and arrays `\"ignoreNames\"` and `\"ignoreNamesRegex\"`. " +
		"`\"props\"` is `false` by default. If `\"props\"` is set to `true`, this rule warns against the modification of parameter properties " +
		"unless they're included in `\"ignoreNames\"` or `\"ignoreNamesRegex\"`, which is an empty array by default."
	lines := []string{"# rule", "", "## Options", "", def, "", "### props", "", "Examples of code for `{ \"props\": true }`:"}
	ent := sectionindex.Entry{Doc: domain.Document{ID: "rule"}, Structure: domain.Structure{Sections: []domain.Section{
		{ID: "rule", Heading: "rule", Level: 1, Start: 1, End: 9, Parent: -1},
		{ID: "rule/options", Heading: "Options", Level: 2, Start: 3, End: 9, Parent: 0},
		{ID: "rule/options/props", Heading: "props", Level: 3, Start: 7, End: 9, Parent: 1},
	}}}
	p := quotedSection{SectionID: "rule/options/props"}
	q := passage.NewQuestion("will the rule warn about the modification of parameter properties when props is on?")
	withDefinition(&p, ent, lines, q, map[int]bool{})
	if p.Definition == nil || p.Definition.N != 5 {
		t.Fatalf("want line 5 as props' definition, got %+v", p.Definition)
	}
	if !strings.Contains(p.Definition.Text, "warns against the modification of parameter properties") {
		t.Errorf("want the definition cut where the question's words meet, got %q", p.Definition.Text)
	}
}
