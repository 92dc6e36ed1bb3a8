package search

import (
	"context"
	"slices"
	"testing"

	"github.com/librarian/librarian/domain"
)

// TestRankedAnswerCost (issue 9.2): with default settings a ranked answer
// is cheap enough that a lookup question is answered by the search alone:
// the median answer over the question set of testdata/ranked is under 400
// tokens (bytes / 4), and none is over twice that.
func TestRankedAnswerCost(t *testing.T) {
	lib := indexedCopy(t, "frontmatter", "../../testdata/librarian-examples/docs")
	ctx := context.Background()
	var costs []int
	for _, q := range rankedQuestions(t) {
		got, err := New(lib).SearchDocuments(ctx, SearchRequest{Query: q.Question, Mode: SearchRanked, Scope: domain.Scope{Depth: -1}})
		if err != nil {
			t.Fatal(err)
		}
		cost := (len(got) + 3) / 4
		costs = append(costs, cost)
		if cost > 800 {
			t.Errorf("%q: a ranked answer of %d tokens:\n%s", q.Question, cost, got)
		}
	}
	slices.Sort(costs)
	median := costs[len(costs)/2]
	t.Logf("ranked answers over %d questions: median %d tokens, min %d, max %d", len(costs), median, costs[0], costs[len(costs)-1])
	if median >= 400 {
		t.Errorf("median ranked answer %d tokens, want under 400", median)
	}
}
