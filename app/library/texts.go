package library

import (
	"context"
	"time"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/markdown"
	"github.com/librarian/librarian/ports/sectionindex"
)

// A document's text is its bytes and where its body starts, without the
// rest of its parse: all the librarian-ts tools read (they list, match and
// return bodies). After a restart the texts of the whole library come from
// the index in one pass (warmTexts), an order of magnitude cheaper in time
// and memory than loading every parse; the native tools parse, or load the
// parse of, only the docs they open.

// OpenText returns a doc whose content and structure.FrontmatterEnd are
// current; its other structure fields may be missing (textOnly).
//
// A doc that is neither cached nor indexed is read without a parse when the
// parser can find the frontmatter alone (markdown.FrontmatterFinder): a
// search during a first build scans the docs the index does not hold yet,
// and parsing each of them cost a rare literal over 10,000 docs about a
// second; only the docs with hits are parsed, by Open, to name sections.
func (l *Library) OpenText(ctx context.Context, d domain.Document) (*Doc, error) {
	l.mu.Lock()
	cached := l.cache[d.Path]
	l.mu.Unlock()
	if cached.isVersion(d.Stamp) {
		return cached, nil
	}
	finder, ok := l.parser.(markdown.FrontmatterFinder)
	if !ok {
		return l.Open(ctx, d)
	}
	stamp := d.Stamp
	if stamp == (domain.Stamp{}) {
		var err error
		if stamp, err = l.source.Stat(ctx, d.Path); err != nil {
			return nil, err
		}
		if cached.isVersion(stamp) {
			return cached, nil
		}
	}
	limit := l.maxDocBytes()
	if stamp.Size > limit {
		return l.Open(ctx, d) // which says so, in its words
	}
	readAt := time.Now()
	content, readStamp, err := l.source.ReadFile(ctx, d.Path)
	if err != nil {
		return nil, err
	}
	if int64(len(content)) > limit {
		return l.Open(ctx, d)
	}
	p := &Doc{Stamp: readStamp, Content: content, Structure: domain.Structure{FrontmatterEnd: finder.FrontmatterEnd(content)},
		readAt: readAt, textOnly: true}
	l.mu.Lock()
	defer l.mu.Unlock()
	if now := l.cache[d.Path]; now.isVersion(readStamp) {
		return now, nil // opened meanwhile, perhaps parsed
	}
	l.cache[d.Path] = p
	return p, nil
}

// OpenAllTexts is OpenAll for OpenText: it loads the library's texts from
// the index first when most of docs are not in memory (a restart).
func (l *Library) OpenAllTexts(ctx context.Context, n int, doc func(int) *domain.Document) ([]*Doc, []error) {
	if l.idx != nil && n >= warmThreshold && l.missingOf(n, doc, false) >= warmThreshold {
		l.warmTexts(ctx)
	}
	// What the cache holds is taken in one pass under one lock; only the
	// rest is opened, in parallel (a goroutine hand-off per doc cost more
	// than a lookup).
	out := make([]*Doc, n)
	errs := make([]error, n)
	var rest []int
	l.mu.Lock()
	for i := range n {
		d := doc(i)
		if p := l.cache[d.Path]; p.isVersion(d.Stamp) {
			out[i] = p
		} else {
			rest = append(rest, i)
		}
	}
	l.mu.Unlock()
	if len(rest) == 0 {
		return out, errs
	}
	others := make([]domain.Document, len(rest))
	for k, i := range rest {
		others[k] = *doc(i)
	}
	opened, openErrs := l.openEach(ctx, others, l.OpenText, nil)
	for k, i := range rest {
		out[i], errs[i] = opened[k], openErrs[k]
	}
	return out, errs
}

// missing counts the docs not in the parse cache; with parses, a
// textOnly entry counts as missing too.
func (l *Library) missing(docs []domain.Document, parses bool) int {
	return l.missingOf(len(docs), func(i int) *domain.Document { return &docs[i] }, parses)
}

// missingOf is missing over n docs given by doc(i).
func (l *Library) missingOf(n int, doc func(int) *domain.Document, parses bool) int {
	count := 0
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range n {
		if p := l.cache[doc(i).Path]; p == nil || parses && p.textOnly {
			count++
		}
	}
	return count
}

// warmTexts loads, in one pass over the index and once per process, the
// text of every doc whose stored stamp is the catalog's, for the docs not
// in the parse cache.
func (l *Library) warmTexts(ctx context.Context) {
	s := l.idx
	s.warmMu.Lock()
	defer s.warmMu.Unlock()
	if s.textsWarmed || s.warmed {
		return
	}
	s.textsWarmed = true
	current, err := l.catalogStamps(ctx)
	if err != nil {
		return
	}
	now := time.Now()
	err = s.ix.Texts(ctx, func(t sectionindex.Text) error {
		stamp, ok := current.still(t.Path, t.Stamp)
		if !ok {
			return nil // changed since, or stamped only on open: opened as usual
		}
		l.mu.Lock()
		if l.cache[t.Path] == nil {
			l.cache[t.Path] = &Doc{Stamp: stamp, Content: t.Content,
				Structure: domain.Structure{FrontmatterEnd: t.FrontmatterEnd}, readAt: now, textOnly: true}
		}
		l.mu.Unlock()
		return ctx.Err()
	})
	if err != nil && ctx.Err() == nil {
		s.log.Warn("section index: loading the texts failed; docs are opened one by one", "err", err.Error())
	}
}

// stampsByPath are the catalog's stamps, by path.
type stampsByPath map[string]domain.Stamp

// catalogStamps returns the current catalog's stamps.
func (l *Library) catalogStamps(ctx context.Context) (stampsByPath, error) {
	cat, err := l.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	m := make(stampsByPath, len(cat.Docs))
	for _, d := range cat.Docs {
		m[d.Path] = d.Stamp
	}
	return m, nil
}

// still returns the catalog's stamp of path when it is stored's: the
// stored version is the current one (a doc stamped only when opened never
// is).
func (m stampsByPath) still(path string, stored domain.Stamp) (domain.Stamp, bool) {
	stamp, ok := m[path]
	return stamp, ok && stamp != (domain.Stamp{}) && stamp.Equal(stored)
}

// warmSearch makes, behind the calls, what the first literal search after a
// start would otherwise make on its own time: the index's verdict on every
// doc of the catalog (see holds) and the candidate lookup's first query,
// which reads the trigram table's structure and counts the docs (the first
// rare search took 12 ms, the next ones 3).
func (l *Library) warmSearch(ctx context.Context) {
	cat, err := l.Catalog(ctx)
	if err != nil || l.idx == nil {
		return
	}
	held := make([]bool, len(cat.Docs))
	l.idx.holds(ctx, l.source, cat, len(cat.Docs), func(i int) *domain.Document { return &cat.Docs[i] }, held)
	// A literal of three rare trigrams: the answer does not matter.
	l.idx.ix.Candidates(ctx, domain.CandidateQuery{AnyOf: []string{"qzxjv"}, Fold: true})
}

// Evict says that the texts of docs (ones OpenText or OpenAllTexts gave)
// have been read and will not be again soon: when they are pages of the
// index's mapped texts (sectionindex.Evicter), those pages, and those
// between them, leave the process's memory, to come back from the file if
// read again. A search calls it for the docs it has matched, a group at a
// time (docs next to each other in path order): evicting one doc at a
// time leaves its neighbours' pages in.
func (l *Library) Evict(docs ...*Doc) {
	if l.idx == nil || len(docs) == 0 {
		return
	}
	e, ok := l.idx.ix.(sectionindex.Evicter)
	if !ok {
		return
	}
	contents := make([][]byte, 0, len(docs))
	for _, p := range docs {
		if p != nil {
			contents = append(contents, p.Content)
		}
	}
	e.Evict(contents...)
}

// StreamCandidates is for a library served from its index alone whose
// index sends the candidates' texts (sectionindex.TextCandidates): it calls
// fn with each doc that may match q (every doc, when the index cannot
// narrow q), in path order, as a text-only Doc that is not cached, so a
// search keeps none of the texts it matched: a regex whose literals are in
// most docs of a 100,000-doc library left 1.4 GB of them in the cache. ok
// is false, and fn is not called, for any other library: its search opens
// docs one by one (OpenText).
func (l *Library) StreamCandidates(ctx context.Context, q domain.CandidateQuery, fn func(p *Doc, path string) error) (ok bool, err error) {
	if !l.StreamsCandidates() {
		return false, nil
	}
	tc := l.idx.ix.(sectionindex.TextCandidates)
	now := time.Now()
	err = tc.CandidateTexts(ctx, q, func(t sectionindex.Text) error {
		return fn(&Doc{Stamp: settledStamp(t.Stamp), Content: t.Content,
			Structure: domain.Structure{FrontmatterEnd: t.FrontmatterEnd}, readAt: now, textOnly: true}, t.Path)
	})
	return true, err
}

// StreamsCandidates reports whether StreamCandidates serves this library.
func (l *Library) StreamsCandidates() bool {
	if l.idx == nil || !l.servedFromIndex() {
		return false
	}
	_, ok := l.idx.ix.(sectionindex.TextCandidates)
	return ok
}
