package app

import (
	"context"
	"regexp/syntax"

	"github.com/librarian/librarian/domain"
)

// Searching through the section index: the index names the docs that may
// hold a match (trigram candidates), and only those are opened and scanned
// by the matcher, which alone decides, so every answer is the one a scan of
// every doc gives. A doc is skipped only when the index holds exactly its
// current version (same stamp) and does not name it; a doc the index does
// not hold yet (the first build is running, or the file just changed) is
// scanned as before, and the background refresh is asked to catch up.

// indexSkips tells, per doc of cat's docs, whether the index proves it
// holds no match of q; nil when the index cannot help (none in use, q cannot be narrowed,
// or the index failed: that is logged and the docs are all scanned).
func (l *Library) indexSkips(ctx context.Context, cat *domain.Catalog, docs []domain.Document, q domain.CandidateQuery) []bool {
	return l.indexSkipsOf(ctx, cat, len(docs), func(i int) *domain.Document { return &docs[i] }, q)
}

// indexSkipsOf is indexSkips over n docs given by doc(i), so a caller
// need not copy 11,111 documents into a slice.
func (l *Library) indexSkipsOf(ctx context.Context, cat *domain.Catalog, n int, doc func(int) *domain.Document, q domain.CandidateQuery) []bool {
	if l.idx == nil || len(q.AnyOf) == 0 || n == 0 {
		return nil
	}
	// A library served from its index alone lists what the index holds:
	// the index holds every doc's current version by construction.
	fromIndex := l.servedFromIndex()
	if !fromIndex {
		if err := l.idx.ensureStamps(ctx); err != nil {
			l.idx.log.Warn("section index unreadable; scanning every doc", "err", err.Error())
			return nil
		}
	}
	held := make([]bool, n)
	stale := false
	if fromIndex {
		for i := range held {
			held[i] = true
		}
	} else {
		stale = l.idx.holds(ctx, l.source, cat, n, doc, held)
	}
	if stale {
		l.idx.noticeStale()
	}
	paths, all, err := l.idx.ix.Candidates(ctx, q)
	if err != nil {
		l.idx.log.Warn("section index candidates failed; scanning every doc", "err", err.Error())
		return nil
	}
	if all {
		return nil
	}
	candidate := make(map[string]bool, len(paths))
	for _, p := range paths {
		candidate[p] = true
	}
	skip := make([]bool, n)
	for i := range n {
		skip[i] = held[i] && !candidate[doc(i).Path]
	}
	return skip
}

// candidateQuery is what every hit line of m holds: the query itself for a
// string, a required literal set for a regex (none known: no narrowing).
func (m *matcher) candidateQuery(query string) domain.CandidateQuery {
	if m.mode == SearchString {
		return domain.CandidateQuery{AnyOf: []string{query}, Fold: !m.caseSens}
	}
	return literalsQuery(m.lits)
}

func literalsQuery(lits []literal) domain.CandidateQuery {
	var q domain.CandidateQuery
	for _, l := range lits {
		q.AnyOf = append(q.AnyOf, string(l.text))
		q.Fold = q.Fold || l.fold // folding only widens: one fold for all
	}
	return q
}

// tsCandidateQuery is candidateQuery for searchDocuments' patterns (see
// tsPattern): a literal, or a regex's required literals.
func tsCandidateQuery(query, mode string, caseSensitive bool) domain.CandidateQuery {
	flags := "(?i)"
	if caseSensitive {
		flags = ""
	}
	if mode == "regex" {
		if tree, err := syntax.Parse(flags+query, syntax.Perl); err == nil {
			return literalsQuery(requiredLiterals(tree))
		}
	}
	return domain.CandidateQuery{AnyOf: []string{query}, Fold: !caseSensitive}
}
