// Package indexfiles is the port of the local index files: the section
// indexes a machine keeps for the libraries it served (one per library
// root, in LIBRARY_INDEX_DIR), as `librarian index --list` shows them and
// `librarian index --prune` removes them. Adapter:
// adapters/sqlitesectionindex (Files), which names and writes them.
package indexfiles

import (
	"context"
	"time"
)

// File is one library's local index: its database and every file beside
// it that belongs to it (write-ahead log, text snapshot, metadata cache).
type File struct {
	// Path is the database file; Files are all its files, Path first.
	Path  string
	Files []string
	// Root is the library root the index was built for (its real path on
	// this machine); "" when the file does not say (an index written
	// before roots were recorded). RootExists reports whether Root is a
	// folder now.
	Root       string
	RootExists bool
	// Bytes is the size of all its files together.
	Bytes int64
	// LastUsed is the last time a server opened the index or wrote to it.
	LastUsed time.Time
	// Problem says why the database could not be read ("" when it could):
	// not a section index, a newer version, locked. Such a file is listed,
	// never removed.
	Problem string
}

// Store is the folder of a machine's index files.
type Store interface {
	// Dir is the folder, for messages.
	Dir() string
	// List returns every index in the folder, by Path. A folder that does
	// not exist holds none.
	List(ctx context.Context) ([]File, error)
	// Remove deletes every file of f (one already gone is fine). A server
	// still running on it keeps its open file until it stops; the next
	// one builds the index again.
	Remove(ctx context.Context, f File) error
}
