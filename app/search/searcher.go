// Package search holds search_documents: its string, regex and ranked modes
// over the docs of a scope, their limits (query size, time), and the one
// answer formatter they share, which shows hit lines under the sections
// that hold them with the sizes an agent needs for its next fetch. How a
// line matches is domain/textmatch's; which docs can hold a match is asked
// of the section index through app/library. It imports the domain,
// domain/textmatch, app/library and the standard library, no other use case.
package search

import (
	"sync"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain/textmatch"
)

// Searcher runs search_documents over one library. Safe for concurrent use.
type Searcher struct {
	lib   *library.Library
	views textViews
}

// New returns the search use case over lib.
func New(lib *library.Library) *Searcher {
	return &Searcher{lib: lib, views: textViews{byDoc: map[*library.Doc]*textmatch.Text{}, byPath: map[string]*library.Doc{}}}
}

// textViews is the Searcher's side cache of line indexes, beside the
// library's parse cache: keyed by the *library.Doc a Text describes, so a
// file that changed (a new Doc) gets a new Text and a stale one is never
// used.
//
// Entries do not outlive their version: a path has one Text, of the last
// version searched, and building the Text of a new version drops the old
// one, so this cache holds at most one per path, like the library's parse
// cache holds one parse per path.
type textViews struct {
	mu     sync.RWMutex
	byDoc  map[*library.Doc]*textmatch.Text
	byPath map[string]*library.Doc
}

// get returns p's Text, building it on first use and dropping the Text of
// the version of path it replaces. Safe for concurrent use.
func (vs *textViews) get(p *library.Doc, path string) *textmatch.Text {
	vs.mu.RLock()
	v := vs.byDoc[p]
	vs.mu.RUnlock()
	if v != nil {
		return v
	}
	v = textmatch.NewText(p.Content)
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if got := vs.byDoc[p]; got != nil {
		return got
	}
	if old := vs.byPath[path]; old != nil {
		delete(vs.byDoc, old)
	}
	vs.byDoc[p], vs.byPath[path] = v, p
	return v
}
