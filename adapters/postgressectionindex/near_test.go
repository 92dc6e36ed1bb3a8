package postgressectionindex

import (
	"fmt"
	"slices"
	"testing"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/proximity"
)

// A question's adjacent plain words are its near pairs; a code name (its
// parts), a word in backticks and a repeated word make none.
func TestNearPairs(t *testing.T) {
	groups := []wordGroup{
		{whole: "long"}, {whole: "browser"}, {whole: "connect"},
		{whole: "hooktimeout", parts: []string{"hook", "timeout"}}, {whole: "slow"}, {whole: "hook"},
		{whole: "router", code: true}, {whole: "name"}, {whole: "name"},
	}
	want := [][2]string{{"long", "browser"}, {"browser", "connect"}, {"slow", "hook"}}
	if got := nearPairs(groups); !slices.Equal(got, want) {
		t.Errorf("nearPairs = %q, want %q", got, want)
	}
}

// A tsvector's "lexeme position label" rows read as places weighted by
// their label, as Ranked's BM25 weighs them.
func TestReadPositions(t *testing.T) {
	got := readPositions([]string{"connect 7 D", "browser 2 A", "browser 40 B", "broken"})
	want := map[string][]proximity.Place{
		"connect": {{At: 7, Weight: 1}},
		"browser": {{At: 2, Weight: headingWeight}, {At: 40, Weight: codeWeight}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("readPositions = %v, want %v", got, want)
	}
}

// The near pairs choose which sections the limit keeps; those kept are
// answered by their own score, best first.
func TestNearOrder(t *testing.T) {
	var sections []domain.RankedSection
	for i, score := range []float64{10, 9, 9, 8, 7} {
		sections = append(sections, domain.RankedSection{Path: fmt.Sprintf("%d.md", i), Score: score})
	}
	near := []float64{0, 0, 0, 0, 10}
	got := nearOrder(sections, near, 3)
	var paths []string
	for _, s := range got {
		paths = append(paths, s.Path)
	}
	if want := []string{"0.md", "1.md", "4.md"}; !slices.Equal(paths, want) {
		t.Errorf("nearOrder kept %q, want %q", paths, want)
	}
	if got := nearOrder(sections, make([]float64, 5), 2); got[0].Path != "0.md" || got[1].Path != "1.md" {
		t.Errorf("with no near pairs nearOrder kept %+v, want the first two", got)
	}
}
