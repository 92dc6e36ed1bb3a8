package tscompat

import (
	"slices"
	"sync"

	"github.com/librarian/librarian/domain"
)

// tsView is what every librarian-ts call derives from the whole catalog:
// its docs in the original's order, each with its list entry, and the docs
// by their '/'-led path. A source returns the same catalog while the library
// is unchanged (docindex.Source), so the view is built once per change:
// sorting 11,111 paths and writing their entries took most of a warm
// listDocuments.
type tsView struct {
	cat    *domain.Catalog
	docs   []tsDoc             // every doc, in tsComparePaths order, line set
	byPath map[string]*tsEntry // by '/'-led path: the entries docs point at, not copies

	wholeOnce sync.Once
	wholeList string // listDocuments of the whole library (see whole)
}

// whole returns the listing of the whole library, rendered by render the
// first time: 2 MB joined again for every warm listing otherwise.
func (v *tsView) whole(render func() string) string {
	v.wholeOnce.Do(func() { v.wholeList = render() })
	return v.wholeList
}

// tsViewCache keeps the view of the last catalog.
type tsViewCache struct {
	mu   sync.Mutex
	view *tsView
}

// tsViewOf returns the view of cat, built now unless it is the last one's.
func (l *Tools) tsViewOf(cat *domain.Catalog) *tsView {
	c := &l.views
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.view != nil && c.view.cat == cat {
		return c.view
	}
	v := &tsView{cat: cat, docs: make([]tsDoc, len(cat.Docs)), byPath: make(map[string]*tsEntry, len(cat.Docs))}
	entries := make([]tsEntry, len(cat.Docs))
	for i, d := range cat.Docs {
		p := "/" + d.Path
		entries[i] = tsEntry{doc: d, path: p, line: "- " + p + "\n  - tags: " + tsTags(d.Tags)}
		v.docs[i] = tsDoc{tsEntry: &entries[i]}
		v.byPath[p] = &entries[i]
	}
	slices.SortStableFunc(v.docs, func(a, b tsDoc) int { return tsComparePaths(a.path, b.path) })
	c.view = v
	return v
}
