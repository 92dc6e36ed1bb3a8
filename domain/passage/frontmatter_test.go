package passage

import (
	"slices"
	"strings"
	"testing"
)

// A doc's first section is quoted with its frontmatter's facts: a summary
// or a signature, not its title, tags, layout keys nor one-word settings.
func TestWithFrontmatter(t *testing.T) {
	lines := strings.Split(`---
title: strings.Clip
description: Returns the given string cut to a maximum length, never inside a word.
tags: [strings, text helpers, formatting]
kind: function
params:
  usage:
    returns: a string of at most SIZE runes
    forms: ['strings.Clip SIZE INPUT', 'clip SIZE INPUT']
---

Clip keeps whole words.

## Examples

Clip 5 gives "Keep…".`, "\n")
	got, from := WithFrontmatter(lines, 10, 12)
	if from != 3 {
		t.Errorf("from = %d, want 3, the description's line", from)
	}
	for k, want := range map[int]bool{1: false, 2: false, 3: true, 4: false, 5: false, 6: false, 7: false, 8: true, 9: true, 10: false, 12: true} {
		if kept := got[k-1] != ""; kept != want {
			t.Errorf("line %d (%q) kept = %v, want %v", k, lines[k-1], kept, want)
		}
	}
	if lines[1] != "title: strings.Clip" {
		t.Error("WithFrontmatter changed the lines it was given")
	}
	q := NewQuestion("what does strings.Clip return when the string is too long?")
	if best := q.Best(got, from, 12, 1); len(best) != 1 || !slices.Contains([]int{3, 8, 9}, best[0]) {
		t.Errorf("Best = %v, want a frontmatter fact line (3, 8 or 9)", best)
	}

	// Another section, or a first section with text before it, is quoted
	// from its own lines only.
	if out, f := WithFrontmatter(lines, 10, 14); f != 14 || &out[0] != &lines[0] {
		t.Errorf("the Examples section: from %d, want 14 and the lines unchanged", f)
	}
	if _, f := WithFrontmatter(lines, 0, 1); f != 1 {
		t.Errorf("no frontmatter: from %d, want 1", f)
	}
	plain := slices.Clone(lines)
	plain[2] = "description: Clip"
	plain[7], plain[8] = "    returns: string", "    forms: []"
	if out, f := WithFrontmatter(plain, 10, 12); f != 12 || &out[0] != &plain[0] {
		t.Errorf("no fact in the frontmatter: from %d, want 12 and the lines unchanged", f)
	}
}

// A frontmatter line's value: past its key, or a list item's text.
func TestFrontmatterValue(t *testing.T) {
	for line, want := range map[string]string{
		"description: Slices an array.": " Slices an array.",
		`weight = 10`:                   " 10",
		"- no-nested-ternary":           "no-nested-ternary",
		"a wrapped line: of a summary":  "a wrapped line: of a summary",
	} {
		if got := frontmatterValue(line); got != want {
			t.Errorf("frontmatterValue(%q) = %q, want %q", line, got, want)
		}
	}
}

// A spell checker's word list (Hugo docs' `cSpell:ignore:`) is searched
// with the doc's first section (the page's rare words find it) but never
// quoted: it states nothing.
func TestWithFrontmatterSpellList(t *testing.T) {
	lines := strings.Split(`---
title: Suppressing specific instrumentation
cSpell:ignore: activej akka armeria avaje clickhouse couchbase datasource
description: Turn the agent or some of its instrumentation off.
---

## Disabling the agent entirely`, "\n")
	if got := FrontmatterFacts(lines, 5, 7); !slices.Equal(got, []int{3, 4}) {
		t.Errorf("FrontmatterFacts = %v, want [3 4] (the cSpell list searched too)", got)
	}
	got, from := WithFrontmatter(lines, 5, 7)
	if from != 4 || got[2] != "" || got[3] == "" {
		t.Errorf("WithFrontmatter: from %d, line 3 %q, line 4 %q; want from 4, the cSpell list blank, the description kept", from, got[2], got[3])
	}
	lines[3] = "weight: 12"
	if got, from := WithFrontmatter(lines, 5, 7); from != 7 || &got[0] != &lines[0] {
		t.Errorf("only a cSpell list: from %d, want 7 and the lines unchanged", from)
	}
}
