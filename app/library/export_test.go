package library

import (
	"context"

	"github.com/librarian/librarian/ports/docindex"
)

// What the external tests read of a Library's insides.

// SourceOf returns the index source l reads.
func SourceOf(l *Library) docindex.Source { return l.source }

// CachedDocs returns how many docs the parse cache holds, and how many of
// them hold only their text.
func CachedDocs(l *Library) (n, textOnly int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range l.cache {
		if p.textOnly {
			textOnly++
		}
	}
	return len(l.cache), textOnly
}

// CachedDoc returns what the parse cache holds of path (nil: nothing), and
// whether it is only the text.
func CachedDoc(l *Library, path string) (doc *Doc, textOnly bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.cache[path]
	return p, p != nil && p.textOnly
}

// WarmTexts is warmTexts.
func WarmTexts(ctx context.Context, l *Library) { l.warmTexts(ctx) }
