package search

import (
	"context"
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/textmatch"
	"github.com/librarian/librarian/domain/wording"
)

// matcher is a search request's query compiled by domain/textmatch, with
// what the answer says of it.
type matcher struct {
	*textmatch.Matcher
	mode     string
	caseSens bool
}

// newMatcher checks a string or regex request's query and compiles it; a
// mistake in it is a domain.ErrInvalidArgument saying what is wrong.
func newMatcher(req SearchRequest) (*matcher, error) {
	mode := req.Mode
	if mode == "" {
		mode = SearchString
	}
	if mode != SearchString && mode != SearchRegex {
		return nil, fmt.Errorf("%w: 'mode' must be \"string\", \"regex\" or \"ranked\", got %s", domain.ErrInvalidArgument, wording.QuoteInput(req.Mode, '"'))
	}
	if req.Query == "" {
		return nil, fmt.Errorf("%w: 'query' is empty: give a string or a regex to look for", domain.ErrInvalidArgument)
	}
	if err := domain.CheckQuery(req.Query); err != nil {
		return nil, err
	}
	if mode == SearchString && strings.ContainsAny(req.Query, "\n") {
		return nil, fmt.Errorf("%w: 'query' %s holds a line break, but search matches within one line", domain.ErrInvalidArgument, quoteQuery(req.Query))
	}
	m, err := textmatch.Compile(req.Query, mode == SearchRegex, req.CaseSensitive)
	var syntaxErr *textmatch.SyntaxError
	var tooLarge *textmatch.TooLargeError
	switch {
	case errors.As(err, &syntaxErr):
		if limits := textmatch.RE2Limits(req.Query); limits != "" {
			return nil, fmt.Errorf("%w: invalid regex %s: %s; %s", domain.ErrInvalidArgument, quoteQuery(req.Query), regexError(syntaxErr.Err), limits)
		}
		return nil, fmt.Errorf("%w: invalid regex %s: %s", domain.ErrInvalidArgument, quoteQuery(req.Query), regexError(syntaxErr.Err))
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("%w: the regex is too large: it compiles to %d instructions, over the limit of %d for a regex run over every line "+
			"(its time grows with its size); plain words joined by | have no such limit, or split the regex into several searches, or narrow root, tags or depth",
			domain.ErrInvalidArgument, tooLarge.Insts, tooLarge.Limit)
	case err != nil:
		return nil, err
	}
	return &matcher{Matcher: m, mode: mode, caseSens: req.CaseSensitive}, nil
}

// describe says how the query was matched, for the answer's first line.
func (m *matcher) describe() string {
	if m.caseSens {
		return m.mode + ", case-sensitive"
	}
	return m.mode + ", case-insensitive"
}

// scan finds the hit lines of one doc's body (the lines after its
// frontmatter), as textmatch.Matcher.Scan does.
func (m *matcher) scan(ctx context.Context, p *library.Doc, v *textmatch.Text, limit int, out *[]hit) int {
	return m.Scan(ctx, p.Content, v, p.Structure.FrontmatterEnd, limit, out)
}

// candidateQuery is what every hit line of m holds: the query itself for a
// string, a required literal set for a regex (none known: no narrowing).
func (m *matcher) candidateQuery(query string) domain.CandidateQuery {
	if m.mode == SearchString {
		return domain.CandidateQuery{AnyOf: []string{query}, Fold: !m.caseSens}
	}
	return literalsQuery(m.Literals())
}

// literalsQuery asks the index for the docs holding one of lits.
func literalsQuery(lits []textmatch.Literal) domain.CandidateQuery {
	var q domain.CandidateQuery
	for _, l := range lits {
		q.AnyOf = append(q.AnyOf, string(l.Text))
		q.Fold = q.Fold || l.Fold // folding only widens: one fold for all
	}
	return q
}

// regexError words a regexp compile error with its part of the query
// quoted short: Go's message quotes the offending part, which may be the
// whole query.
func regexError(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		return fmt.Sprintf("error parsing regexp: %s: %s", se.Code, wording.QuoteInput(se.Expr, '`'))
	}
	return wording.QuoteInput(err.Error(), 0)
}
