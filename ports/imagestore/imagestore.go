// Package imagestore is the image-store port: it resolves the image ids of
// `![[image:ID]]` stubs to captions and bytes, and reads the files standard
// markdown images name. Adapter: adapters/fileimages (seed 000's
// images/index.json). Every adapter runs imagestoretest.
package imagestore

import (
	"context"

	"github.com/librarian/librarian/domain"
)

// Store is one image index. Safe for concurrent use; it re-reads its index
// only when the index file changed.
type Store interface {
	// Images returns the image index, validated: a malformed index returns a
	// *domain.IndexError listing every problem. A library without an image
	// index has no images (an empty map, no error). The map is the
	// caller's: a store never reads or writes it again.
	Images(ctx context.Context) (map[string]domain.Image, error)

	// Read returns the bytes of image id. An unknown id wraps
	// domain.ErrNotFound; a file that resolves outside the image index's
	// folder wraps domain.ErrRefused; a file over maxBytes wraps
	// domain.ErrTooLarge and is not read. maxBytes is a plain limit: 0
	// admits only empty files, a negative value none.
	Read(ctx context.Context, id string, maxBytes int64) ([]byte, error)

	// ReadFile returns the bytes of the file at path, relative to the
	// library root, that a standard markdown image names (the Path of a
	// domain.ResolveImage answer). The file may be anywhere inside the root,
	// the image index's folder or not. A missing file wraps
	// domain.ErrNotFound; a file that resolves outside the library root (by
	// a symlink, relative or absolute) wraps domain.ErrOutsideRoot (a
	// refusal); a path that is not a clean relative one, or a file that is
	// not regular, wraps domain.ErrRefused; a file over maxBytes wraps
	// domain.ErrTooLarge and is not read.
	ReadFile(ctx context.Context, path string, maxBytes int64) ([]byte, error)
}
