package localretrieval

import "testing"

// idSpells: a passage's heading is left out when its section id spells it.
func TestIDSpells(t *testing.T) {
	for _, c := range []struct {
		id, heading string
		want        bool
	}{
		{"refresh-tokens/rotation", "Rotation", true},
		{"breaking-changes/attributeprop-syntax-is-stricter", "Attribute/prop syntax is stricter", true},
		{"options/maxpasses", "maxPasses", true},
		{"--style-props-uses-a-different-element", "`--style-props` uses a different element", true},
		{"options-1", "Options", false}, // a second "Options": the id's suffix tells them apart
		{"reference/faketimers-object", "fakeTimers [object]", true},
		{"opts", "Options", false}, // an explicit anchor
		{"_intro", "Authentication", false},
	} {
		if got := idSpells(c.id, c.heading); got != c.want {
			t.Errorf("idSpells(%q, %q) = %v, want %v", c.id, c.heading, got, c.want)
		}
	}
}
