package appfx

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/librarian/librarian/adapters/postgressectionindex"
	"github.com/librarian/librarian/app/config"
)

// FromIndexOnly reports whether the library is served from its section
// index alone: LIBRARY_INDEX is a PostgreSQL database and no library root
// was given nor exists at the default ./library. The index is then the
// catalog and the file source (library.IndexSource): the server reads nothing
// from disk and writes nothing, so a read-only role is enough.
func FromIndexOnly(s config.Settings) bool {
	return s.PostgresIndex() && !s.RootGiven && CheckRoot(s) != nil
}

// indexRetryDelays are the waits between attempts to reach a PostgreSQL
// index that is down when serve starts: about half a minute in all, then
// the start-up fails with the last error.
var indexRetryDelays = []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second}

// openPostgresIndex opens the PostgreSQL section index of s.Index. With
// s.IndexWait (serve), a database that cannot be reached is tried again
// after each of indexRetryDelays, each failure logged (never the
// password); a refused login, a newer schema or any other answer from the
// server fails at once.
func openPostgresIndex(s config.Settings, logger *slog.Logger) (*postgressectionindex.Index, error) {
	ctx := context.Background()
	delays := indexRetryDelays
	if !s.IndexWait {
		delays = nil
	}
	opts := postgressectionindex.Options{Logger: logger, Library: indexedLibrary(s)}
	for attempt := 0; ; attempt++ {
		ix, err := postgressectionindex.Open(ctx, s.Index, opts)
		if err == nil {
			if attempt > 0 {
				logger.Warn("postgres index reached", "where", ix.Where(), "attempts", attempt+1)
			}
			return ix, nil
		}
		if !errors.Is(err, postgressectionindex.ErrUnreachable) || attempt >= len(delays) {
			return nil, fmt.Errorf("LIBRARY_INDEX: %w", err)
		}
		logger.Warn("postgres index unreachable; retrying", "in", delays[attempt], "err", err.Error())
		time.Sleep(delays[attempt])
	}
}

// indexedLibrary names the library a PostgreSQL index is opened for: the
// one at the root, by LIBRARY_NAME or else the root folder's own name (its
// identity in the schema, the same on every machine); nil when the
// library is served from the index alone, which serves whatever the
// schema holds.
func indexedLibrary(s config.Settings) *postgressectionindex.Library {
	if FromIndexOnly(s) {
		return nil
	}
	root, err := filepath.Abs(s.Root)
	if err != nil {
		root = s.Root
	}
	name := s.LibraryName
	if name == "" {
		name = filepath.Base(root)
	}
	host, _ := os.Hostname()
	return &postgressectionindex.Library{Name: name, Root: root, Host: host}
}
