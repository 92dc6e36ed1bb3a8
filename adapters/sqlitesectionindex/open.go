// Package sqlitesectionindex is the embedded adapter of the sectionindex
// port: one SQLite database per library (modernc.org/sqlite, pure Go, FTS5
// compiled in), in WAL mode so several servers of one library share it.
//
// Open never fails for a problem of the file: a corrupt file is removed
// and rebuilt, a foreign or newer schema, a locked or unwritable file is
// bypassed (one slog line says which), and the index then lives in an
// in-memory database for the life of the process. OpenMemory is that
// database on purpose (LIBRARY_INDEX=off: nothing on disk, ranked search
// still there).
package sqlitesectionindex

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/librarian/librarian/ports/sectionindex"
)

var _ sectionindex.Index = (*Index)(nil)

// Index is a section index in one SQLite database.
type Index struct {
	db    *sql.DB
	where string    // the file, or "memory"
	file  string    // "" in memory
	entry *sql.Stmt // Entry's query, prepared once: a restart reads every doc through it

	// writer writes the main file: a connection without the side files
	// attached, since a write transaction takes the write lock of every
	// file its connection has attached. The same as db in memory.
	writer *sql.DB
	sides  []*side   // the side files (sides.go); nil in memory
	plan   planStats // what Candidates plans with, kept between calls

	log *slog.Logger // the one line a snapshot that cannot be written is worth

	mapMu    sync.Mutex               // one change of mappings at a time
	mappings atomic.Pointer[[][]byte] // the text snapshots Texts served, mapped (Evict reads it without a lock)
}

// Options tune OpenFile; the zero value is what servers use.
type Options struct {
	// BusyTimeout is how long a call waits for another process's write
	// lock before giving up (default 5 s).
	BusyTimeout time.Duration
	// Log takes the line a rebuild is worth (default slog.Default()).
	Log *slog.Logger
}

// DefaultDir is where index files live when LIBRARY_INDEX_DIR is not set:
// the user's cache folder, "librarian" in it.
func DefaultDir() (string, error) {
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for the index (set LIBRARY_INDEX_DIR): %w", err)
	}
	return filepath.Join(c, "librarian"), nil
}

// FileFor is the index file of the library at root inside dir ("" for
// DefaultDir): one file per real root path (symlinks resolved), named after
// the root's last element and a hash of the whole path. A dir inside the
// library is refused: nothing is ever written into the library.
func FileFor(dir, root string) (string, error) {
	if dir == "" {
		d, err := DefaultDir()
		if err != nil {
			return "", err
		}
		dir = d
	}
	real, err := realPath(root)
	if err != nil {
		return "", fmt.Errorf("library root %s: %w", root, err)
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("index folder %s: %w", dir, err)
	}
	realDir := absDir
	if r, err := realPath(absDir); err == nil {
		realDir = r
	}
	if rel, err := filepath.Rel(real, realDir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("index folder %s is inside the library %s: nothing may be written into the library", dir, root)
	}
	sum := sha256.Sum256([]byte(real))
	base := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, filepath.Base(real))
	return filepath.Join(absDir, base+"-"+hex.EncodeToString(sum[:8])+".sqlite"), nil
}

func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// Open opens the index of the library at root in dir ("" for DefaultDir).
// Problems of the file are logged (one line) and handled: a corrupt file is
// rebuilt; anything else that keeps the file from serving is bypassed with
// an in-memory database. An error means not even that could open.
func Open(ctx context.Context, root, dir string, log *slog.Logger) (*Index, error) {
	if log == nil {
		log = slog.Default()
	}
	file, err := FileFor(dir, root)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(file), 0o755)
	}
	if err != nil {
		log.Warn("section index: using memory for this run", "reason", err.Error())
		return OpenMemory()
	}
	ix, err := OpenFile(ctx, file, Options{Log: log})
	if isCorrupt(err) {
		log.Warn("section index: the file is corrupt; rebuilding it", "file", file, "reason", err.Error())
		for _, f := range []string{file, sideFile(file, "grams"), sideFile(file, "ranked")} {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(f + suffix)
			}
		}
		os.Remove(file + "-texts")
		ix, err = OpenFile(ctx, file, Options{Log: log})
	}
	if err != nil {
		log.Warn("section index: cannot use the file; using memory for this run", "file", file, "reason", err.Error())
		return OpenMemory()
	}
	ix.log = log
	if real, err := realPath(root); err == nil {
		ix.recordRoot(ctx, real, time.Now())
	}
	return ix, nil
}

// ErrForeignSchema: the file is a SQLite database of something else, or of
// a newer Librarian; it is never changed.
var ErrForeignSchema = errors.New("not a section index of this Librarian version")

// OpenFile opens (creating it when missing) the index in file, strictly:
// any problem is an error (Open handles them).
func OpenFile(ctx context.Context, file string, o Options) (*Index, error) {
	if o.BusyTimeout == 0 {
		o.BusyTimeout = 5 * time.Second
	}
	dsn := fmt.Sprintf("file:%s?_pragma=busy_timeout(%d)&_pragma=synchronous(NORMAL)&_txlock=immediate",
		uriPath(file), o.BusyTimeout.Milliseconds())
	// The schema is checked and made on a connection without the side
	// files: a foreign file must stay as it was, with nothing beside it.
	plain, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	plain.SetMaxOpenConns(1)
	if o.Log == nil {
		o.Log = slog.Default()
	}
	ix := &Index{db: plain, writer: plain, where: file, file: file, log: o.Log}
	if _, _, err := check(ctx, plain); err != nil {
		plain.Close()
		return nil, fmt.Errorf("section index %s: %w", file, err)
	}
	if ix.sides, err = openSides(file, o); err != nil {
		plain.Close()
		return nil, fmt.Errorf("section index %s: %w", file, err)
	}
	err = ix.migrate(ctx)
	if err == nil {
		ix.db, err = sql.Open(attachingDriver, dsn)
	}
	if err == nil {
		ix.db.SetMaxOpenConns(4)
		err = ix.prepare(ctx)
	}
	if err != nil {
		if ix.db != nil && ix.db != plain {
			ix.db.Close()
		}
		plain.Close()
		closeSides(ix.sides)
		return nil, fmt.Errorf("section index %s: %w", file, err)
	}
	return ix, nil
}

var memories atomic.Int64

// OpenMemory opens an empty index in an in-memory database that lives
// until Close: no file anywhere.
func OpenMemory() (*Index, error) {
	db, err := sql.Open("sqlite", fmt.Sprintf("file:librarian-memory-%d?mode=memory", memories.Add(1)))
	if err != nil {
		return nil, err
	}
	// An in-memory database belongs to its connection: keep exactly one.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	ix := &Index{db: db, writer: db, where: "memory", log: slog.Default()}
	if err := ix.migrate(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("in-memory section index: %w", err)
	}
	if err := ix.prepare(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("in-memory section index: %w", err)
	}
	return ix, nil
}

func (ix *Index) prepare(ctx context.Context) (err error) {
	ix.entry, err = ix.db.PrepareContext(ctx, `SELECT doc, content, structure, names, links FROM docs WHERE path = ?`)
	return err
}

// Close closes the database.
func (ix *Index) Close() error {
	ix.entry.Close()
	closeSides(ix.sides)
	if ix.writer != ix.db {
		ix.writer.Close()
	}
	return ix.db.Close()
}

// File is the database file, "" for an in-memory index.
func (ix *Index) File() string { return ix.file }

func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

func isCorrupt(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_CORRUPT || c == sqlite3.SQLITE_NOTADB
}
