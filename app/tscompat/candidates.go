package tscompat

import (
	"regexp/syntax"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/textmatch"
)

// tsCandidateQuery is what the section index narrows searchDocuments'
// docs by (see tsPattern): a literal, or a regex's required literals.
func tsCandidateQuery(query, mode string, caseSensitive bool) domain.CandidateQuery {
	flags := "(?i)"
	if caseSensitive {
		flags = ""
	}
	if mode == "regex" {
		if tree, err := syntax.Parse(flags+query, syntax.Perl); err == nil {
			var q domain.CandidateQuery
			for _, l := range textmatch.RequiredLiterals(tree) {
				q.AnyOf = append(q.AnyOf, string(l.Text))
				q.Fold = q.Fold || l.Fold // folding only widens: one fold for all
			}
			return q
		}
	}
	return domain.CandidateQuery{AnyOf: []string{query}, Fold: !caseSensitive}
}
