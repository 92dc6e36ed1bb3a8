package frontmatterindex

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/librarian/librarian/adapters/rootfs"
	"github.com/librarian/librarian/domain"
)

// candidate is a *.md file the walk found, with the stamp of the file its
// path resolves to.
type candidate struct {
	path    string
	stamp   domain.Stamp
	symlink bool // resolved from the root, not from its own folder
	// shared: a symlink, or a file with more than one hard link. A change
	// through another name raises no event in this file's folder, so change
	// notification cannot vouch for it: it is checked on every call.
	shared bool
}

// note is a Catalog note tied to the file it is about, for ordering.
type note struct {
	path, text string
}

// folderState is what reading one folder found: its *.md files, notes on
// entries left out, the subfolders the walk goes into, and the entries
// that are checked again on every call while watching (see checkShared).
type folderState struct {
	found   []candidate
	notes   []note
	subdirs []string
	shared  []sharedEntry
}

// sharedEntry is an entry of a folder whose file may change with no event
// in that folder (a symlink, or a file with several hard links), with what
// the last look at it gave.
type sharedEntry struct {
	path    string
	symlink bool
	last    entryOutcome
}

// entryOutcome is what looking at one entry gave: a candidate's stamp, or
// the note that left it out, or neither (skipped without a note).
type entryOutcome struct {
	stamp domain.Stamp
	note  string
	found bool
}

// walksInto reports whether the walk reads a subfolder of this name.
func walksInto(name string) bool {
	return !strings.HasPrefix(name, ".") && name != "node_modules"
}

// isDocName reports whether a file of this name is a document: a markdown
// extension, .md or .markdown in any case (README.MD is a doc, as it is to
// GitHub), and no leading dot.
func isDocName(name string) bool {
	_, ok := domain.DocStem(name)
	return ok && !strings.HasPrefix(name, ".")
}

// walk reads the folders starts and every folder below them, returning
// each one's state by path. It skips dot-folders, dot-files and
// node_modules. Symlinked folders are not followed (no loops, no second
// copies); a symlinked file, relative or absolute, is resolved inside the
// root, and left out with a note when it resolves outside, dangles or loops. Folders are read in
// parallel: on a warm library without change notification the walk (one
// stat per file) is most of a Catalog's cost.
func (ix *Index) walk(ctx context.Context, starts []string) (map[string]*folderState, error) {
	var (
		mu      sync.Mutex
		wake    = sync.NewCond(&mu)
		pending = append([]string(nil), starts...)
		active  int
		states  = make(map[string]*folderState)
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
				st, err := ix.scanFolder(ctx, dir)
				mu.Lock()
				active--
				states[dir] = st
				pending = append(pending, st.subdirs...)
				if err != nil && failed == nil {
					failed = err
				}
				wake.Broadcast()
			}
		})
	}
	wg.Wait()
	if failed != nil {
		return nil, failed
	}
	return states, nil
}

// flatten lists every folder's candidates, sorted by path, and their notes.
func flatten(states map[string]*folderState) ([]candidate, []note) {
	n := 0
	for _, st := range states {
		n += len(st.found)
	}
	found := make([]candidate, 0, n)
	var notes []note
	for _, st := range states {
		found = append(found, st.found...)
		notes = append(notes, st.notes...)
	}
	slices.SortFunc(found, func(a, b candidate) int { return strings.Compare(a.path, b.path) })
	return found, notes
}

// scanFolder reads one folder ("" for the root): its *.md files and the
// subfolders to walk next. While watching, the folder's watch is added
// before its entries are read, so no change after the read goes unseen.
// Only an unreadable root, or a cancelled ctx, is an error; anything else
// is a note.
func (ix *Index) scanFolder(ctx context.Context, dir string) (*folderState, error) {
	if err := ctx.Err(); err != nil {
		return &folderState{}, err
	}
	ix.folderReads.Add(1)
	var entries []fs.DirEntry
	f, err := ix.root.Open(folderName(dir))
	if err == nil {
		if w := ix.watch; w != nil {
			if ix.failWatches {
				ix.watchFailed(errors.New("test hook: no watch"))
			} else if werr := w.watchFolder(dir, f); werr != nil {
				ix.watchFailed(werr)
			}
		}
		entries, err = f.ReadDir(-1)
		f.Close()
	}
	// Entries read before an error still count.
	st := ix.sortEntries(dir, entries)
	switch {
	case err == nil:
	case dir == "":
		return st, fmt.Errorf("library root %q cannot be read: %w", ix.dir, unwrapPath(err))
	case errors.Is(err, fs.ErrNotExist):
		// Removed since its parent was listed: gone, as it will be next time.
	default:
		st.notes = append(st.notes, note{dir, fmt.Sprintf("unreadable: folder '%s' cannot be read (%v); its files may be missing", dir, unwrapPath(err))})
	}
	return st, nil
}

// sortEntries sorts a folder's entries into *.md candidates, subfolders to
// walk, and notes on entries left out.
func (ix *Index) sortEntries(dir string, entries []fs.DirEntry) *folderState {
	st := &folderState{}
	for _, e := range entries {
		name := e.Name()
		p := name
		if dir != "" {
			p = dir + "/" + name
		}
		if e.IsDir() {
			if walksInto(name) {
				st.subdirs = append(st.subdirs, p)
			}
			continue
		}
		if !isDocName(name) {
			continue
		}
		var out entryOutcome
		symlink := e.Type()&fs.ModeSymlink != 0
		shared := symlink
		switch {
		case e.Type().IsRegular():
			info, err := e.Info() // read with the folder, by the os package
			out = ix.judge(p, info, err)
			shared = out.found && multiplyLinked(info)
		case symlink:
			info, err := rootfs.ResolvingLinks(ix.links, p, ix.root.Stat)
			out = ix.judge(p, info, err)
		default:
			out = entryOutcome{note: fmt.Sprintf("skipped: '%s' is not a regular file", p)}
		}
		if shared {
			st.shared = append(st.shared, sharedEntry{path: p, symlink: symlink, last: out})
		}
		switch {
		case out.found:
			st.found = append(st.found, candidate{path: p, stamp: out.stamp, symlink: symlink, shared: shared})
		case out.note != "":
			st.notes = append(st.notes, note{p, out.note})
		}
	}
	return st
}

// judge turns what a stat of the doc file at p gave into a candidate's
// stamp, a note leaving it out, or a silent skip (a symlinked folder whose
// name happens to end in .md).
func (ix *Index) judge(p string, info fs.FileInfo, err error) entryOutcome {
	switch {
	case err != nil:
		return entryOutcome{note: ix.leftOutNote(p, err)}
	case info.IsDir():
		return entryOutcome{}
	case !info.Mode().IsRegular():
		return entryOutcome{note: fmt.Sprintf("skipped: '%s' is not a regular file", p)}
	}
	return entryOutcome{stamp: rootfs.Stamp(info), found: true}
}

// lookAgain stats a shared entry again, as the walk would.
func (ix *Index) lookAgain(e sharedEntry) entryOutcome {
	var info os.FileInfo
	var err error
	if e.symlink {
		info, err = rootfs.ResolvingLinks(ix.links, e.path, ix.root.Stat)
	} else {
		info, err = ix.root.Lstat(e.path)
		if err == nil && info.Mode()&fs.ModeSymlink != 0 {
			// Replaced by a symlink: the folder's own events say so too;
			// report a change either way.
			return entryOutcome{note: "replaced by a symlink"}
		}
	}
	return ix.judge(e.path, info, err)
}

// leftOutNote words why a file found by the walk was left out.
func (ix *Index) leftOutNote(p string, err error) string {
	switch {
	case ix.links.Escapes(err):
		return fmt.Sprintf("refused: '%s' resolves outside the library root", p)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("missing: '%s' is a symlink to a file that does not exist", p)
	case errors.Is(err, syscall.ELOOP):
		return fmt.Sprintf("refused: '%s' is a symlink loop (too many levels of symbolic links)", p)
	case errors.Is(err, rootfs.ErrHardLinked):
		return fmt.Sprintf("refused: '%s': %v; left out", p, err)
	default:
		return fmt.Sprintf("unreadable: '%s' cannot be read (%v); left out", p, unwrapPath(err))
	}
}
