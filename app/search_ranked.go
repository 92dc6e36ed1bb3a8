package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/librarian/librarian/domain"
)

// SearchRanked is search_documents' third mode: a question in words,
// answered with the sections that best answer it (BM25 over the section
// index), not with lines holding a string.
const SearchRanked = "ranked"

// DefaultRankedResults is how many sections a ranked search answers when
// max_results is not given (or 0).
const DefaultRankedResults = 5

// rankedLines is how many of a section's best lines are quoted.
const rankedLines = 3

// searchRanked answers mode "ranked": the top sections for the query's
// words, best first, each as
//
//  1. auth (backend/auth.md) § refresh-tokens/rotation · L19–27 · ~95 tokens · tags: backend, security
//     L21: Every refresh returns a NEW refresh token and revokes the old one.
//
// ready for get_documents ({"doc": id, "sections": [§ id]}). While the
// index's first build runs, the call waits for it, reporting progress.
func (l *Library) searchRanked(ctx context.Context, req SearchRequest) (string, error) {
	if strings.TrimSpace(req.Query) == "" {
		return "", fmt.Errorf("%w: 'query' is empty: give the words of a question", domain.ErrInvalidArgument)
	}
	if req.CaseSensitive {
		return "", fmt.Errorf("%w: 'case_sensitive' does not apply to mode \"ranked\", which ignores case", domain.ErrInvalidArgument)
	}
	if req.MaxResults < 0 {
		return "", fmt.Errorf("%w: 'max_results' must be 0 (the default, %d sections) or more, got %d", domain.ErrInvalidArgument, DefaultRankedResults, req.MaxResults)
	}
	if l.idx == nil {
		return "", errors.New("ranked search needs the section index, and this library has none")
	}
	limit := req.MaxResults
	if limit == 0 {
		limit = DefaultRankedResults
	}
	if err := l.ensureIndexed(ctx, req.Progress); err != nil {
		return "", err
	}
	cat, err := l.Catalog(ctx)
	if err != nil {
		return "", err
	}
	docs, _, err := domain.ScopeDocs(cat, req.Scope)
	if err != nil {
		return "", err
	}
	byPath := make(map[string]domain.Document, len(docs))
	var paths []string
	for _, d := range docs {
		byPath[d.Path] = d
		paths = append(paths, d.Path)
	}
	if len(docs) == len(cat.Docs) {
		paths = nil // the whole library: no filter to send
	}
	// Ask for more than shown: a section of a doc changed since it was
	// indexed is dropped (its lines may have moved) until the refresh
	// catches up.
	found, err := l.idx.ix.Ranked(ctx, domain.RankedQuery{Text: req.Query, Limit: limit*2 + 5, Paths: paths})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	notes := append([]string(nil), cat.Notes...)
	shown := 0
	var body strings.Builder
	for _, s := range found {
		if shown == limit {
			break
		}
		d, ok := byPath[s.Path]
		if !ok {
			continue // removed from the catalog since it was indexed
		}
		p, err := l.open(ctx, d)
		if err != nil {
			notes = append(notes, openNote(d, err))
			continue
		}
		if held, ok := l.idx.indexedStamp(d.Path); !l.servedFromIndex() && (!ok || !held.Equal(p.stamp)) {
			l.idx.noticeStale()
			continue
		}
		shown++
		writeRankedSection(&body, shown, d, p, s)
	}
	switch {
	case shown == 0 && len(docs) == 0:
		fmt.Fprintf(&b, "No sections for %s: no document is in scope (%s).\n", quoteQuery(req.Query), scopeWords(req.Scope))
	case shown == 0:
		fmt.Fprintf(&b, "No sections for %s in %d %s (ranked): none holds these words, or a form of them. Try other words, or mode \"string\".\n",
			quoteQuery(req.Query), len(docs), domain.Plural(len(docs), "doc", "docs"))
	default:
		fmt.Fprintf(&b, "%d %s of %d %s for %s (ranked, best first)\n", shown, domain.Plural(shown, "section", "sections"),
			len(docs), domain.Plural(len(docs), "doc", "docs"), quoteQuery(req.Query))
		b.WriteString(body.String())
	}
	domain.WriteNotes(&b, notes)
	return strings.TrimRight(b.String(), "\n"), nil
}

// writeRankedSection writes one answer: a header line with what
// get_documents needs, then the section's best lines in line order.
func writeRankedSection(b *strings.Builder, n int, d domain.Document, p *parsedDoc, s domain.RankedSection) {
	lines := strings.SplitAfter(string(p.content), "\n")
	size := 0
	for l := s.Start; l <= s.End && l <= len(lines); l++ {
		size += len(lines[l-1])
	}
	fmt.Fprintf(b, "\n%d. %s (%s) § %s · L%d–%d · ~%d tokens", n, d.ID, d.Path, s.SectionID, s.Start, s.End, domain.EstimateTokens(int64(size)))
	if len(d.Tags) > 0 {
		fmt.Fprintf(b, " · tags: %s", strings.Join(d.Tags, ", "))
	}
	b.WriteString("\n")
	best := slices.Clone(s.Lines)
	if len(best) > rankedLines {
		best = best[:rankedLines]
	}
	slices.Sort(best)
	for _, l := range best {
		if l < 1 || l > len(lines) {
			continue
		}
		text := strings.TrimRight(lines[l-1], "\n")
		fmt.Fprintf(b, "   L%d: %s\n", l, trimAround([]byte(text), 0, 0))
	}
}

// ensureIndexed makes sure a whole refresh has finished in this process
// (running one when none runs), reporting the running build's progress.
func (l *Library) ensureIndexed(ctx context.Context, progress func(done, total int)) error {
	if _, _, built := l.IndexProgress(); built || l.servedFromIndex() {
		return nil
	}
	done := make(chan error, 1)
	go func() {
		_, err := l.Refresh(ctx, nil) // waits for a running refresh first
		done <- err
	}()
	for {
		l.idx.mu.Lock()
		d, t, changed := l.idx.done, l.idx.total, l.idx.changed
		l.idx.mu.Unlock()
		if progress != nil {
			progress(d, t)
		}
		select {
		case err := <-done:
			return err
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
