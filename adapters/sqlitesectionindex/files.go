package sqlitesectionindex

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/librarian/librarian/ports/indexfiles"
)

var _ indexfiles.Store = (*Files)(nil)

// The index file of a library records the root it was built for and when a
// server last opened it (meta rows "root" and "opened"), so that the
// folder of index files can be listed by library and pruned: the file's
// name, the root's last element and a hash of its path, says which root
// only to whoever knows it already.

// openedEvery is how stale the recorded opening time may grow before an
// Open writes it again: one write an hour at most, not one per start.
const openedEvery = time.Hour

// recordRoot notes in the file the library root it serves and, at most
// once per openedEvery, when it was opened. Best effort: a file that
// cannot take the write serves as well without it.
func (ix *Index) recordRoot(ctx context.Context, root string, now time.Time) {
	var stored, opened string
	_ = ix.db.QueryRowContext(ctx, `SELECT CAST(value AS TEXT) FROM meta WHERE key = 'root'`).Scan(&stored)
	_ = ix.db.QueryRowContext(ctx, `SELECT CAST(value AS TEXT) FROM meta WHERE key = 'opened'`).Scan(&opened)
	last, _ := strconv.ParseInt(opened, 10, 64)
	if stored == root && now.Sub(time.Unix(last, 0)) < openedEvery {
		return
	}
	_, err := ix.writer.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('root', ?), ('opened', ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, root, strconv.FormatInt(now.Unix(), 10))
	if err != nil {
		ix.log.Debug("section index: cannot record its root", "file", ix.file, "reason", err.Error())
	}
}

// Files is the folder of index files (LIBRARY_INDEX_DIR).
type Files struct {
	dir string
}

// NewFiles is the folder dir, or DefaultDir when dir is "".
func NewFiles(dir string) (*Files, error) {
	if dir == "" {
		d, err := DefaultDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("index folder %s: %w", dir, err)
	}
	return &Files{dir: abs}, nil
}

// Dir is the folder.
func (f *Files) Dir() string { return f.dir }

// List returns the index files in the folder: each database
// (NAME-HASH.sqlite) with the files that share its stem (its -wal, -shm
// and -texts files, the .frontmatter metadata cache), read without
// writing anything.
func (f *Files) List(ctx context.Context) ([]indexfiles.File, error) {
	entries, err := os.ReadDir(f.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index folder %s: %w", f.dir, err)
	}
	var out []indexfiles.File
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sqlite") {
			continue
		}
		stem := strings.TrimSuffix(e.Name(), ".sqlite")
		file := indexfiles.File{Path: filepath.Join(f.dir, e.Name())}
		for _, sib := range entries {
			if sib.IsDir() || !strings.HasPrefix(sib.Name(), stem+".") {
				continue
			}
			p := filepath.Join(f.dir, sib.Name())
			if p != file.Path {
				file.Files = append(file.Files, p)
			}
			if info, err := sib.Info(); err == nil {
				file.Bytes += info.Size()
				if info.ModTime().After(file.LastUsed) {
					file.LastUsed = info.ModTime()
				}
			}
		}
		sort.Strings(file.Files)
		file.Files = append([]string{file.Path}, file.Files...)
		root, opened, err := readRecord(ctx, file.Path)
		switch {
		case err != nil:
			file.Problem = err.Error()
		default:
			file.Root = root
			if opened.After(file.LastUsed) {
				file.LastUsed = opened
			}
			if root != "" {
				info, err := os.Stat(root)
				file.RootExists = err == nil && info.IsDir()
			}
		}
		out = append(out, file)
	}
	return out, nil
}

// readRecord reads the root and opening time an index file records, read
// only; an index from before they were recorded has neither. A file that
// is not a section index is an error.
func readRecord(ctx context.Context, file string) (root string, opened time.Time, err error) {
	db, err := sql.Open("sqlite", fmt.Sprintf("file:%s?mode=ro&_pragma=busy_timeout(1000)", uriPath(file)))
	if err != nil {
		return "", time.Time{}, err
	}
	defer db.Close()
	ours, _, err := check(ctx, db)
	if err != nil {
		return "", time.Time{}, err
	}
	if !ours {
		return "", time.Time{}, ErrForeignSchema
	}
	var at string
	err = db.QueryRowContext(ctx, `SELECT CAST(value AS TEXT) FROM meta WHERE key = 'root'`).Scan(&root)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", time.Time{}, err
	}
	if err := db.QueryRowContext(ctx, `SELECT CAST(value AS TEXT) FROM meta WHERE key = 'opened'`).Scan(&at); err == nil {
		if n, err := strconv.ParseInt(at, 10, 64); err == nil {
			opened = time.Unix(n, 0)
		}
	}
	return root, opened, nil
}

// Remove deletes the index's files, the database last, so that a file
// listed again after a failure is still found by its database.
func (f *Files) Remove(_ context.Context, file indexfiles.File) error {
	if filepath.Dir(file.Path) != f.dir {
		return fmt.Errorf("index file %s is not in the index folder %s", file.Path, f.dir)
	}
	for i := len(file.Files) - 1; i >= 0; i-- {
		p := file.Files[i]
		if filepath.Dir(p) != f.dir {
			return fmt.Errorf("index file %s is not in the index folder %s", p, f.dir)
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}
