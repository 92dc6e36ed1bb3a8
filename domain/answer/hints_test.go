package answer

import (
	"slices"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
)

// TestUnknownSectionHints: an unknown section suggests the sections near
// its name, whole id or leaf, before listing them all.
func TestUnknownSectionHints(t *testing.T) {
	dt := sectioned()
	for _, tc := range []struct{ section, want string }{
		{"tokns", "has no section 'tokns' (did you mean: tokens?); its sections: intro"},
		{"rotaton", "(did you mean: tokens/rotation, keys/rotation?)"},
		{"tokens/expiri", "(did you mean: tokens/expiry?)"},
		{"quillwort", "has no section 'quillwort'; its sections:"},
	} {
		_, notes := PlanChunks(domain.Target{Doc: dt.Doc}, domain.Selector{Doc: "auth", Sections: []string{tc.section}}, dt, false, true)
		if len(notes) != 1 || !strings.Contains(notes[0].Text, tc.want) {
			t.Errorf("section %q: notes = %v, want one containing %q", tc.section, notes, tc.want)
		}
	}
}

func TestUnmatchedSelectors(t *testing.T) {
	chunks := []*Chunk{{Sel: 0}, {Sel: 0, State: LeftOut}, {Sel: 2, State: Covered}, {Sel: 4}}
	if got := UnmatchedSelectors(5, chunks); !slices.Equal(got, []int{1, 3}) {
		t.Errorf("UnmatchedSelectors = %v, want [1 3]", got)
	}
	if got := UnmatchedSelectors(2, nil); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("UnmatchedSelectors with no chunk = %v, want [0 1]", got)
	}
	if got := UnmatchedSelectors(1, []*Chunk{{Sel: 0}}); got != nil {
		t.Errorf("UnmatchedSelectors all matched = %v, want none", got)
	}
}
