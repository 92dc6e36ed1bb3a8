package frontmatterindex

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/librarian/librarian/domain"
)

// candidate is a *.md file the walk found, with the stamp of the file its
// path resolves to.
type candidate struct {
	path    string
	stamp   domain.Stamp
	symlink bool // resolved from the root, not from its own folder
}

// note is a Catalog note tied to the file it is about, for ordering.
type note struct {
	path, text string
}

// walk lists every *.md file under the root, sorted by path, skipping
// dot-folders, dot-files and node_modules. Symlinked folders are not
// followed (no loops, no second copies); a symlinked file is resolved
// inside the root, and left out with a note when it resolves outside,
// dangles or loops. Folders are read in parallel: on a warm library the
// walk (one stat per file) is most of a Catalog's cost.
func (ix *Index) walk(ctx context.Context) ([]candidate, []note, error) {
	var (
		mu      sync.Mutex
		wake    = sync.NewCond(&mu)
		pending = []string{""}
		active  int
		found   []candidate
		notes   []note
		failed  error
		wg      sync.WaitGroup
	)
	for range ix.workers {
		wg.Go(func() {
			mu.Lock()
			defer mu.Unlock()
			for {
				for len(pending) == 0 && active > 0 {
					wake.Wait()
				}
				if len(pending) == 0 || failed != nil {
					wake.Broadcast()
					return
				}
				dir := pending[len(pending)-1]
				pending = pending[:len(pending)-1]
				active++
				mu.Unlock()
				f, subdirs, n, err := ix.scanFolder(ctx, dir)
				mu.Lock()
				active--
				found = append(found, f...)
				notes = append(notes, n...)
				pending = append(pending, subdirs...)
				if err != nil && failed == nil {
					failed = err
				}
				wake.Broadcast()
			}
		})
	}
	wg.Wait()
	if failed != nil {
		return nil, nil, failed
	}
	sort.Slice(found, func(i, j int) bool { return found[i].path < found[j].path })
	return found, notes, nil
}

// scanFolder reads one folder ("" for the root): its *.md files and the
// subfolders to walk next. Only an unreadable root, or a cancelled ctx,
// is an error; anything else is a note.
func (ix *Index) scanFolder(ctx context.Context, dir string) ([]candidate, []string, []note, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	var entries []fs.DirEntry
	f, err := ix.root.Open(folderName(dir))
	if err == nil {
		entries, err = f.ReadDir(-1)
		f.Close()
	}
	// Entries read before an error still count.
	found, subdirs, notes := ix.sortEntries(dir, entries)
	switch {
	case err == nil:
	case dir == "":
		return nil, nil, nil, fmt.Errorf("library root %q cannot be read: %w", ix.dir, unwrapPath(err))
	case errors.Is(err, fs.ErrNotExist):
		// Removed since its parent was listed: gone, as it will be next time.
	default:
		notes = append(notes, note{dir, fmt.Sprintf("unreadable: folder '%s' cannot be read (%v); its files may be missing", dir, unwrapPath(err))})
	}
	return found, subdirs, notes, nil
}

// sortEntries sorts a folder's entries into *.md candidates, subfolders to
// walk, and notes on entries left out.
func (ix *Index) sortEntries(dir string, entries []fs.DirEntry) ([]candidate, []string, []note) {
	var found []candidate
	var subdirs []string
	var notes []note
	for _, e := range entries {
		name := e.Name()
		p := name
		if dir != "" {
			p = dir + "/" + name
		}
		if e.IsDir() {
			if !strings.HasPrefix(name, ".") && name != "node_modules" {
				subdirs = append(subdirs, p)
			}
			continue
		}
		if !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
			continue
		}
		var info fs.FileInfo
		var err error
		symlink := e.Type()&fs.ModeSymlink != 0
		switch {
		case e.Type().IsRegular():
			info, err = e.Info() // read with the folder, by the os package
		case symlink:
			info, err = ix.root.Stat(p)
			if err == nil && info.IsDir() {
				continue // a symlinked folder that happens to end in .md
			}
		default:
			notes = append(notes, note{p, fmt.Sprintf("skipped: '%s' is not a regular file", p)})
			continue
		}
		if err != nil {
			notes = append(notes, note{p, ix.leftOutNote(p, err)})
			continue
		}
		if !info.Mode().IsRegular() {
			notes = append(notes, note{p, fmt.Sprintf("skipped: '%s' is not a regular file", p)})
			continue
		}
		found = append(found, candidate{path: p, stamp: stampOf(info), symlink: symlink})
	}
	return found, subdirs, notes
}

// leftOutNote words why a file found by the walk was left out.
func (ix *Index) leftOutNote(p string, err error) string {
	switch {
	case ix.isEscape(err):
		return fmt.Sprintf("refused: '%s' resolves outside the library root", p)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("missing: '%s' is a symlink to a file that does not exist", p)
	default:
		return fmt.Sprintf("unreadable: '%s' cannot be read (%v); left out", p, unwrapPath(err))
	}
}
