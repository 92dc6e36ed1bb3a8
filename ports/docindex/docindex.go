// Package docindex is the index-source port: a library convention that says
// which documents a library holds and reads their files, confined to the
// library root. Adapters: adapters/jsonindex (seed 000's index.json) and
// adapters/frontmatterindex (seed 001's folders, frontmatter and index.md).
// Every adapter runs the contract suite in docindextest.
package docindex

import (
	"context"

	"github.com/librarian/librarian/domain"
)

// Source is one library convention over one library root.
//
// Implementations are safe for concurrent use, and cheap when nothing
// changed: they re-read an index file or a document's metadata only when its
// Stamp differs from the one they last saw.
type Source interface {
	// Catalog returns the library's documents in path order (byte order of
	// Path), the folders its convention describes, and notes on entries it
	// refused or could only partly read (a doc resolving outside the root, a
	// missing file, malformed frontmatter): these never fail the call.
	// An index that fails validation returns a *domain.IndexError listing
	// every problem, each with its entry.
	// The catalog is shared, to be read and never changed: a source may
	// return the same one to every call while the library is unchanged,
	// and callers may keep what they derive from it by its pointer.
	Catalog(ctx context.Context) (*domain.Catalog, error)

	// Stat returns the stamp of the document file at path (relative to the
	// root) without reading it. Symlinks are resolved; a path that is
	// malformed or resolves outside the root wraps domain.ErrRefused, a
	// missing file wraps domain.ErrNotFound.
	Stat(ctx context.Context, path string) (domain.Stamp, error)

	// ReadFile reads the document file at path, with the same confinement
	// and errors as Stat, and returns the stamp of the bytes it read.
	ReadFile(ctx context.Context, path string) ([]byte, domain.Stamp, error)
}
