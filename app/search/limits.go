package search

import (
	"fmt"
	"time"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/wording"
)

// The bounds of one search (issue 14): every query, of every tool set, is
// capped in length; a regex that the scan must run over lines is capped in
// size; and each search_documents call stops at a time limit, or as soon as
// its client cancels or the session ends, answering with what it searched.

// searchTimeout is the call's time limit.
func (l *Searcher) searchTimeout() time.Duration { return l.lib.Config().SearchTimeLimit() }

// timeLimitNote says where a search stopped at its time limit and how to
// narrow it. done tells which docs were searched whole, in scope order.
func timeLimitNote(limit time.Duration, docs []domain.Document, done []bool) string {
	searched, first := 0, -1
	for i, ok := range done {
		if ok {
			searched++
		} else if first < 0 {
			first = i
		}
	}
	where := ""
	if first >= 0 {
		where = "; not searched (they may hold hits): " + docs[first].Path
		if rest := len(docs) - searched - 1; rest > 0 {
			where += fmt.Sprintf(" and %d more %s after it in path order", rest, wording.Plural(rest, "doc", "docs"))
		}
	}
	return fmt.Sprintf("the search stopped at its time limit (%s): the hits above are from the %d of %d %s searched whole%s. "+
		"Narrow root, tags or depth, or make the query plainer (a string, or plain words joined by | in regex mode, are found fastest)",
		limit, searched, len(docs), wording.Plural(len(docs), "doc", "docs"), where)
}
