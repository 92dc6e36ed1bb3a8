package sqlitesectionindex

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
	"github.com/librarian/librarian/ports/sectionindex/sectionindextest"
)

// A question's adjacent plain words are its near pairs; code, a code
// name's parts and a repeated word make none.
func TestMatchTermsNearPairs(t *testing.T) {
	for q, want := range map[string]string{
		"how long will the browser connect back?":   `long browser, browser connect, connect back`,
		"set `hookTimeout` for slow hooks":          `slow hooks`,
		"does getRouterName name the router router": `name router`,
		"pnpm": ``,
	} {
		_, _, near := matchTerms(q)
		var got []string
		for _, p := range near {
			got = append(got, p[0]+" "+p[1])
		}
		if got := strings.Join(got, ", "); got != want {
			t.Errorf("matchTerms(%q) near = %s, want %s", q, got, want)
		}
	}
}

// Among the sections the words' bm25 finds first, one holding two of the
// question's words together is answered before sections holding them
// apart more often (proximity.Share), and every answer is still in its own
// score's order.
func TestRankedNearPairs(t *testing.T) {
	ix, err := OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var es []sectionindex.Entry
	for i := range 8 {
		es = append(es, sectionindextest.MarkdownEntry(fmt.Sprintf("apart/p%d.md", i), fmt.Sprintf("Page %d", i), nil,
			fmt.Sprintf("# Page %d\n\nThe browser starts first and loads each page it is given, and the browser stays open. Workers and the runner may later connect to the server and connect again.\n", i)))
	}
	es = append(es, sectionindextest.MarkdownEntry("together.md", "Timeouts", nil,
		"# Timeouts\n\nThe run fails when the launched browser does not connect back within a minute, as the default says.\n"))
	for i := range 20 {
		es = append(es, sectionindextest.MarkdownEntry(fmt.Sprintf("other/o%d.md", i), fmt.Sprintf("Other %d", i), nil,
			fmt.Sprintf("# Other %d\n\nNothing of the kind here, page %d.\n", i, i)))
	}
	if err := ix.Apply(context.Background(), sectionindex.Update{Put: es}); err != nil {
		t.Fatal(err)
	}
	q := domain.RankedQuery{Text: "how long until the browser connect quokka", Limit: 3}
	rs, err := ix.Ranked(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(rs, func(s domain.RankedSection) bool { return s.Path == "together.md" }) {
		t.Errorf("Ranked(%q) = %+v, want together.md among the first %d", q.Text, rs, q.Limit)
	}
	for i := 1; i < len(rs); i++ {
		if rs[i].Score > rs[i-1].Score {
			t.Errorf("Ranked(%q): %d scores %v above %d's %v", q.Text, i, rs[i].Score, i-1, rs[i-1].Score)
		}
	}
}
