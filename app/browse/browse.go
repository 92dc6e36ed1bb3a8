// Package browse holds the use cases that read a library as it is:
// list_documents (the tree, and one doc's outline), get_documents (docs,
// sections and line ranges in one answer), list_tags, and `librarian check`.
// It reads documents through app/library and leaves every rule of an answer
// (selection, overlaps, budgets, the text itself) to the domain. It imports
// the domain, app/library and the standard library, no other use case.
package browse

import "github.com/librarian/librarian/app/library"

// Browser runs the library's reading use cases. Safe for concurrent use.
type Browser struct {
	lib *library.Library
}

// New returns the reading use cases over lib.
func New(lib *library.Library) *Browser { return &Browser{lib: lib} }

// Config returns the limits of the library it reads.
func (l *Browser) Config() library.Config { return l.lib.Config() }
