package postgressectionindex

import (
	"fmt"
	"slices"
	"testing"

	"github.com/librarian/librarian/domain"
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

// A pair's words count where they stand within nearSlop words of each
// other, either side first, weighted by where they stand; apart, nothing.
func TestNearScore(t *testing.T) {
	pairs := [][2]string{{"browser", "connect"}}
	idf := map[string]float64{"browser": 2, "connect": 3}
	together := readPositions([]string{"connect 7 D", "browser 11 D", "browser 40 D"})
	apart := readPositions([]string{"browser 1 D", "connect 6 D", "browser 11 D", "connect 16 D"})
	heading := readPositions([]string{"connect 1 A", "browser 2 A"})
	at := func(p map[string][]position) float64 { return nearScore(pairs, p, idf, 20, 20) }
	if s := at(apart); s != 0 {
		t.Errorf("words five apart score %v, want 0", s)
	}
	if s := at(together); s <= 0 {
		t.Errorf("words four apart score %v, want more than 0", s)
	}
	if h, b := at(heading), at(together); h <= b {
		t.Errorf("the pair in a heading scores %v, in the body %v: want the heading's higher", h, b)
	}
	if s := nearScore(pairs, together, idf, 200, 20); s >= at(together) {
		t.Errorf("in a section ten times as long the pair scores %v, want less than %v", s, at(together))
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
