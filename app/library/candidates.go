package library

import (
	"context"

	"github.com/librarian/librarian/domain"
)

// Searching through the section index: the index names the docs that may
// hold a match (trigram candidates), and only those are opened and scanned
// by the matcher, which alone decides, so every answer is the one a scan of
// every doc gives. A doc is skipped only when the index holds exactly its
// current version (same stamp) and does not name it; a doc the index does
// not hold yet (the first build is running, or the file just changed) is
// scanned as before, and the background refresh is asked to catch up.

// IndexSkips tells, per doc of cat's docs, whether the index proves it
// holds no match of q; nil when the index cannot help (none in use, q cannot be narrowed,
// or the index failed: that is logged and the docs are all scanned).
func (l *Library) IndexSkips(ctx context.Context, cat *domain.Catalog, docs []domain.Document, q domain.CandidateQuery) []bool {
	return l.IndexSkipsOf(ctx, cat, len(docs), func(i int) *domain.Document { return &docs[i] }, q)
}

// IndexSkipsOf is IndexSkips over n docs given by doc(i), so a caller
// need not copy 11,111 documents into a slice.
func (l *Library) IndexSkipsOf(ctx context.Context, cat *domain.Catalog, n int, doc func(int) *domain.Document, q domain.CandidateQuery) []bool {
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
