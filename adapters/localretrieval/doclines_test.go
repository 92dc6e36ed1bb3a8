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

// The doc's line elsewhere may be a line that a passage left out by the
// budget (withinBudget) quoted: the answer does not show it. A line that a
// passage the answer keeps quotes is never quoted again.
func TestElsewhereReachesALineOfADroppedPassage(t *testing.T) {
	lines := []string{
		"# Gasket", "", "The gasket sits under the flange.", "", "It is rubber.", "",
		"## Config", "", "Set `gasketFile` to `false` to stop the quillwort gasket file lookup.", "",
	}
	ent := sectionindex.Entry{Doc: domain.Document{ID: "gasket"}}
	q := passage.NewQuestion("how do I stop the quillwort gasket file lookup?")
	first := quotedSection{Path: "gasket.md", Start: 1, End: 6, Quote: []quotedLine{{N: 3, Text: lines[2]}}}
	// Line 9 was quoted by a passage of the doc's Config section that the
	// budget then left out: it is in shown, not in any passage kept.
	first.doc = &quotedDoc{ent: ent, lines: lines, shown: map[int]bool{3: true, 9: true}, question: q}
	ps := []quotedSection{first}
	withElsewhere(ps)
	if ps[0].Elsewhere == nil || ps[0].Elsewhere.N != 9 {
		t.Fatalf("want line 9 elsewhere (its passage was left out), got %+v", ps[0].Elsewhere)
	}
	// Kept, the Config passage shows line 9 itself: nothing elsewhere.
	first.doc = &quotedDoc{ent: ent, lines: lines, shown: map[int]bool{3: true, 9: true}, question: q}
	ps = []quotedSection{first, {Path: "gasket.md", Start: 7, End: 10, Quote: []quotedLine{{N: 9, Text: lines[8]}}}}
	withElsewhere(ps)
	if ps[0].Elsewhere != nil {
		t.Errorf("want no line elsewhere when a kept passage quotes it, got %+v", ps[0].Elsewhere)
	}
}
