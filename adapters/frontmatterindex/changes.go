package frontmatterindex

import (
	"context"
	"maps"
	"time"

	"github.com/librarian/librarian/domain"
)

// Change notification. After a full walk every folder walked is watched
// (Linux inotify; see watch_linux.go), the watch added before the folder is
// read. Each Catalog first drains the notices queued since the last call:
//
//   - none, and no symlinked or multiply-linked file changed (those are
//     stat'ed on every call, as an edit through another name raises no
//     event in their folder): the catalog built last time is returned
//     again, a copy of it, with no walk, no stat, no read;
//   - a doc file's entry changed (created, written, removed, renamed,
//     touched): its folder is read again and the file re-read even if its
//     stamp did not change;
//   - a subfolder was made, removed or renamed, or a watched folder itself
//     removed or moved: everything known below that path is forgotten, and
//     its parent read again, so a folder there now is walked in full (files
//     made in a new folder before its watch was added are found) and
//     watched;
//   - events were lost (the kernel's queue overflowed), the root itself
//     changed, or reading the events failed: a new watcher and a full walk,
//     files kept by stamp as without notification.
//
// Anything that makes watching impossible (no inotify, the watch limit, a
// folder on a network or FUSE file system) turns it off for good: every
// Catalog walks, as on other platforms. An index.md edit re-reads that one
// file; the tags it passes down are applied when the catalog is rebuilt.

// noticeKind is what one change notification says.
type noticeKind uint8

const (
	noticeFile   noticeKind = iota // an entry of dir that is not a folder changed
	noticeFolder                   // a subfolder of dir was made, removed, moved or changed
	noticeSelf                     // dir itself was removed, moved or changed
	noticeLost                     // notifications were lost: anything may have changed
)

// notice is one change notification, by folder path ("" the root).
type notice struct {
	kind      noticeKind
	dir, name string
}

// pending is what the notices said changed since the catalog was built.
type pending struct {
	all      bool            // walk everything again, with a new watcher
	folders  map[string]bool // folders whose entries changed: read again
	subtrees map[string]bool // folders replaced, removed or moved: forget, walk again if there
	files    map[string]bool // doc files to read again whatever their stamp
}

func (p *pending) empty() bool {
	return !p.all && len(p.folders) == 0 && len(p.subtrees) == 0 && len(p.files) == 0
}

func mark(m *map[string]bool, key string) {
	if *m == nil {
		*m = map[string]bool{}
	}
	(*m)[key] = true
}

// add records one notice. Entries the walk never looks at (dot-files,
// non-markdown files, dot-folders, node_modules) are ignored.
func (p *pending) add(n notice) {
	switch n.kind {
	case noticeLost:
		p.all = true
	case noticeSelf:
		if n.dir == "" {
			p.all = true
			return
		}
		mark(&p.subtrees, n.dir)
	case noticeFolder:
		if walksInto(n.name) {
			mark(&p.subtrees, joinPath(n.dir, n.name))
			mark(&p.folders, n.dir)
		}
	case noticeFile:
		if isDocName(n.name) {
			mark(&p.folders, n.dir)
			mark(&p.files, joinPath(n.dir, n.name))
		}
	}
}

func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// keptFile is a doc file's whole content, read for its metadata by
// Catalog and kept for the ReadFile that the parse cache makes next.
type keptFile struct {
	data  []byte
	stamp domain.Stamp
}

const (
	// keepMaxFile, keepMaxTotal bound the bytes kept for ReadFile.
	keepMaxFile  = 256 << 10
	keepMaxTotal = 64 << 20
	// keepFor: kept bytes nobody asked for within this time are dropped.
	keepFor = time.Minute
)

// catalogWatched is Catalog while watching. ix.mu is held.
func (ix *Index) catalogWatched(ctx context.Context) (*domain.Catalog, error) {
	ix.watchMu.Lock()
	notices, err := ix.watch.read()
	for _, n := range notices {
		ix.pend.add(n)
	}
	if err != nil || ix.loseEvents {
		ix.loseEvents = false
		ix.pend = pending{all: true}
	}
	p := ix.pend
	ix.pend = pending{}
	if !p.empty() || time.Since(ix.keptAt) > keepFor {
		// Kept bytes are current only while nothing changed.
		ix.dropKept()
	}
	ix.watchMu.Unlock()

	if p.all {
		if !ix.restartWatching() {
			return ix.catalogWalked(ctx)
		}
	}
	if ix.built != nil {
		ix.checkShared(&p)
		if p.empty() {
			return ix.built, nil
		}
	}
	cat, err := ix.update(ctx, p)
	if err != nil {
		// Whatever was half done is redone by a full walk.
		ix.watchMu.Lock()
		ix.pend.all = true
		ix.watchMu.Unlock()
		return nil, err
	}
	ix.built = cat
	return cat, nil
}

// update applies the changes p (a full walk before the first catalog or
// when p.all) and builds the catalog.
func (ix *Index) update(ctx context.Context, p pending) (*domain.Catalog, error) {
	ix.built = nil
	if p.all || ix.folders == nil {
		ix.walks.Add(1)
		states, err := ix.walk(ctx, []string{""})
		if err != nil {
			return nil, err
		}
		ix.folders = states
	} else {
		ix.forgetSubtrees(&p, p.subtrees)
		var starts []string
		gone := map[string]bool{}
		for dir := range p.folders {
			old := ix.folders[dir]
			if old == nil {
				continue // forgotten: its parent is read again, and walks it if it is there
			}
			st, err := ix.scanFolder(ctx, dir)
			if err != nil {
				return nil, err
			}
			ix.folders[dir] = st
			for _, sub := range old.subdirs {
				gone[sub] = true
			}
			for _, sub := range st.subdirs {
				delete(gone, sub)
				if ix.folders[sub] == nil {
					starts = append(starts, sub)
				}
			}
		}
		ix.forgetSubtrees(nil, gone)
		if len(starts) > 0 {
			states, err := ix.walk(ctx, starts)
			if err != nil {
				return nil, err
			}
			maps.Copy(ix.folders, states)
		}
		for f := range p.files {
			delete(ix.files, f)
		}
	}
	found, notes := flatten(ix.folders)
	readNotes, err := ix.refresh(ctx, found)
	if err != nil {
		return nil, err
	}
	return ix.build(found, append(notes, readNotes...)), nil
}

// forgetSubtrees forgets the folders roots and everything below them: their
// states, watches and cached files. With p, it marks each root's parent to
// be read again.
func (ix *Index) forgetSubtrees(p *pending, roots map[string]bool) {
	if len(roots) == 0 {
		return
	}
	for dir := range ix.folders {
		if within(dir, roots) {
			delete(ix.folders, dir)
			ix.watch.forget(dir)
		}
	}
	for f := range ix.files {
		if within(folderOf(f), roots) {
			delete(ix.files, f)
		}
	}
	if p != nil {
		for r := range roots {
			mark(&p.folders, folderOf(r))
		}
	}
}

// within reports whether dir is one of roots or below one.
func within(dir string, roots map[string]bool) bool {
	for {
		if roots[dir] {
			return true
		}
		if dir == "" {
			return false
		}
		dir = folderOf(dir)
	}
}

// checkShared stats again every symlinked or multiply-linked doc file: a
// change through another name raises no event in its folder. One whose
// stat differs from the last, or whose metadata was read too soon after
// its modification to be trusted (see racyWindow), or which is the same
// file (inode) as one p re-reads (an edit of a symlink's target in place),
// is marked in p.
func (ix *Index) checkShared(p *pending) {
	var inodes map[uint64]bool
	for f := range p.files {
		if c := ix.files[f]; c != nil && c.stamp.Inode != 0 {
			if inodes == nil {
				inodes = map[uint64]bool{}
			}
			inodes[c.stamp.Inode] = true
		}
	}
	for _, st := range ix.folders {
		for _, e := range st.shared {
			changed := ix.lookAgain(e) != e.last || e.last.found && inodes[e.last.stamp.Inode]
			if c := ix.files[e.path]; !changed && c != nil && c.readAt.Sub(c.stamp.ModTime) <= ix.racy {
				changed = true
			}
			if changed {
				mark(&p.folders, folderOf(e.path))
				mark(&p.files, e.path)
			}
		}
	}
}

// restartWatching replaces the watcher by a new one, so the next walk
// starts from no watch at all. It reports false, having turned watching
// off, when no new one can be made.
func (ix *Index) restartWatching() bool {
	ix.watchMu.Lock()
	defer ix.watchMu.Unlock()
	if ix.watch != nil {
		ix.watch.close()
		ix.watch = nil
	}
	ix.folders, ix.built = nil, nil
	w, err := newWatcher()
	if err != nil {
		ix.noWatch = true
		return false
	}
	ix.watch = w
	return true
}

// stopWatching turns change notification off for good: every Catalog
// walks from now on.
func (ix *Index) stopWatching() {
	ix.watchMu.Lock()
	defer ix.watchMu.Unlock()
	if ix.watch != nil {
		ix.watch.close()
		ix.watch = nil
	}
	ix.noWatch = true
	ix.folders, ix.built = nil, nil
	ix.pend = pending{}
	ix.dropKept()
}

// watchFailed records that a folder could not be watched; the Catalog in
// progress completes (its walk read every folder) and then stops watching.
func (ix *Index) watchFailed(error) { ix.watchBroken.Store(true) }

// dropKept forgets every kept file. ix.watchMu is held.
func (ix *Index) dropKept() {
	clear(ix.kept)
	ix.keptBytes = 0
}

// keep records the bytes refresh kept of found's files for ReadFile,
// within the bounds.
func (ix *Index) keep(found []candidate, files []keptFile) {
	ix.watchMu.Lock()
	defer ix.watchMu.Unlock()
	if ix.kept == nil {
		ix.kept = map[string]keptFile{}
	}
	for i, k := range files {
		if k.data == nil {
			continue
		}
		p := found[i].path
		if old, ok := ix.kept[p]; ok {
			ix.keptBytes -= len(old.data)
			delete(ix.kept, p)
		}
		if ix.keptBytes+len(k.data) > keepMaxTotal {
			continue
		}
		ix.kept[p] = k
		ix.keptBytes += len(k.data)
	}
	ix.keptAt = time.Now()
}

// takeKept hands out the kept content of the doc file at p, once, when
// nothing changed since Catalog read it: no change notice is queued or
// pending. Notices it drains are left for the next Catalog.
func (ix *Index) takeKept(p string) ([]byte, domain.Stamp, bool) {
	ix.watchMu.Lock()
	defer ix.watchMu.Unlock()
	k, ok := ix.kept[p]
	if !ok || ix.watch == nil {
		return nil, domain.Stamp{}, false
	}
	delete(ix.kept, p)
	ix.keptBytes -= len(k.data)
	notices, err := ix.watch.read()
	for _, n := range notices {
		ix.pend.add(n)
	}
	if err != nil {
		ix.pend.all = true
	}
	if !ix.pend.empty() {
		return nil, domain.Stamp{}, false
	}
	return k.data, k.stamp, true
}
