package sectionindex

import (
	"context"
	"strings"

	"github.com/librarian/librarian/domain"
)

// RankedWithRelated answers q and, when related is not empty, q with the
// related words added (the words docs use for the question's: "default"
// for "out of the box"), the two searches at once and their answers
// joined by domain.MergeRanked: ranked search_documents and
// librarian_ask take their candidates so. The second search runs beside
// the first: one after the other, a 10,000-doc library's ranked answer to
// such a question took twice as long as with one search (57 to 125 ms,
// BenchmarkRankedSearchRelated), beside it 1.5 times (85 to 104 ms).
// (Scoring only the sections holding a related word was faster, 67 to
// 74 ms, but held out one fact less over SQLite and two over
// PostgreSQL.)
func RankedWithRelated(ctx context.Context, s Searcher, q domain.RankedQuery, related []string) ([]domain.RankedSection, error) {
	if len(related) == 0 {
		return s.Ranked(ctx, q)
	}
	type answer struct {
		secs []domain.RankedSection
		err  error
	}
	wider := q
	wider.Text = q.Text + " " + strings.Join(related, " ")
	done := make(chan answer, 1)
	go func() {
		secs, err := s.Ranked(ctx, wider)
		done <- answer{secs, err}
	}()
	secs, err := s.Ranked(ctx, q)
	more := <-done
	if err != nil {
		return nil, err
	}
	if more.err != nil {
		return nil, more.err
	}
	return domain.MergeRanked(secs, more.secs), nil
}
