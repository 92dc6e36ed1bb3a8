package tscompat

import "github.com/librarian/librarian/app/library"

// Tools runs the librarian-ts tools over one library. Safe for concurrent
// use.
type Tools struct {
	lib   *library.Library
	views tsViewCache // the view of the last catalog
}

// New returns the librarian-ts tools over lib.
func New(lib *library.Library) *Tools { return &Tools{lib: lib} }
