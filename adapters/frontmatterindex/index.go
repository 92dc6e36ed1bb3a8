// Package frontmatterindex is an index-source adapter (ports/docindex) for
// seed 001's library convention: every *.md file under the root is a
// document (and *.markdown, either in any case: README.MD), described by
// its YAML frontmatter (title, summary or description, tags, tokens) and
// its first heading, and each folder's index.md describes that folder and
// passes its tags down to everything below it.
//
// Files are read only through an *os.Root, so nothing that resolves outside
// the library root is ever opened. An absolute symlink, which os.Root
// refuses outright, is resolved component by component through the root
// (rootfs.Links) and let through when it lands inside, like a relative one.
// A file's frontmatter is read again only when its stamp (size,
// modification time, inode, change time) changed, or a change
// notification names it. On Linux the folders are watched with inotify
// (see changes.go), so a Catalog of an unchanged library returns the
// catalog built last time without touching the disk, and one after a
// change reads only the folders and files the notifications name; where
// watching is unavailable, each call walks the tree again (to see added
// and removed files) and stats every file. While watching, an unchanged
// library returns the very catalog of the last call (callers only read it:
// see docindex.Source), so a caller can keep what it derives from one.
//
// The first Catalog reads every file whole; while watching, it keeps the
// bytes of small files (bounded, see keepMaxFile) so that the parse
// cache's first ReadFile of each doc needs no second read.
package frontmatterindex

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/librarian/librarian/adapters/rootfs"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/docindex"
)

var _ docindex.Source = (*Index)(nil)

const (
	// maxMetaBytes bounds what is read of one file for its metadata: the
	// frontmatter and first heading of any real document are far inside.
	maxMetaBytes = 1 << 20
	// racyWindow: a file modified this close to the moment it was read may
	// change again without its stamp changing (same size and inode, and
	// times within the file system's clock tick), so its cached
	// metadata is not trusted until it has been read once more, later. This
	// is git's "racy clean" rule; 2 s covers the coarsest common clocks.
	racyWindow = 2 * time.Second
)

// Index is the frontmatter convention over one library root. Safe for
// concurrent use; Catalog calls are serialised, Stat and ReadFile are not.
type Index struct {
	dir  string // the root as given, for messages
	root *os.Root
	// links resolves absolute symlinks inside the root, and knows the
	// error os.Root gives for a path resolving outside it.
	links   rootfs.Links
	access  rootfs.Access // hard links refused unless allowed
	workers int           // goroutines reading folders and files
	racy    time.Duration // racyWindow

	mu    sync.Mutex
	files map[string]*cached // by path: every *.md file the last walk saw
	// While watching: every folder read, by path ("" the root), and the
	// catalog built from them, returned again while nothing changes.
	folders map[string]*folderState
	built   *domain.Catalog
	// lastDocs are the documents of the last catalog built, by path.
	lastDocs map[string]builtDoc
	noWatch  bool // watching failed or is unavailable: walk on every call
	// watchBroken: a folder could not be watched during a walk; the
	// Catalog then stops watching.
	watchBroken atomic.Bool

	// watchMu guards the watcher's pointer (written with mu held too), its
	// read, the notices drained but not yet applied, and the kept bytes:
	// ReadFile uses them without mu, so it never waits for a walk.
	watchMu    sync.Mutex
	watch      *watcher // nil when not watching
	pend       pending
	kept       map[string]keptFile
	keptBytes  int
	keptAt     time.Time
	loseEvents bool // test hook: the next Catalog drops its notices as lost
	// failWatches is a test hook: every folder watch fails, as at the
	// watch limit. Set with mu held.
	failWatches bool

	// The metadata cache file (MetaCache), "" for none; metaLoaded once
	// it was read; saves tracks writes in flight, saveMu orders them.
	metaFile   string
	metaLog    *slog.Logger
	metaLoaded bool
	saves      sync.WaitGroup
	saveMu     sync.Mutex

	// Counters for tests: files read for their metadata (an unchanged file
	// is not read again), folders listed, full walks.
	metaReads   atomic.Int64
	folderReads atomic.Int64
	walks       atomic.Int64
}

// builtDoc is a document of the last catalog built, with what it was
// made from: its metadata entry and the tags it inherited.
type builtDoc struct {
	entry     *cached
	inherited []string
	doc       domain.Document
}

// cached is one file's metadata and the stamp of the bytes it came from.
type cached struct {
	stamp  domain.Stamp
	readAt time.Time
	meta   meta
}

// Option adjusts New.
type Option func(*Index)

// AllowHardLinks serves regular files with more than one hard link, which
// are refused by default (see rootfs.Access): LIBRARY_ALLOW_HARDLINKS.
func AllowHardLinks(allow bool) Option {
	return func(ix *Index) { ix.access.AllowHardLinks = allow }
}

// New opens the library at root. It fails, naming the path, when root is
// not a readable directory.
func New(root string, opts ...Option) (*Index, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("library root %q is not a readable folder: %w", root, unwrapPath(err))
	}
	if err := canList(r); err != nil {
		r.Close()
		return nil, fmt.Errorf("library root %q is not a readable folder: %w", root, unwrapPath(err))
	}
	ix := &Index{dir: root, root: r, workers: max(2, min(runtime.GOMAXPROCS(0), 8)), racy: racyWindow, files: map[string]*cached{}}
	ix.links = rootfs.NewLinks(r, root, rootfs.EscapeError(r))
	for _, opt := range opts {
		opt(ix)
	}
	return ix, nil
}

// canList checks that the root's entries can be listed, reading only one.
func canList(r *os.Root) error {
	f, err := r.Open(".")
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.ReadDir(1); err != nil && err != io.EOF {
		return err
	}
	return nil
}

// Close releases the root directory and the change notification. The
// Index must not be used after.
func (ix *Index) Close() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.stopWatching()
	ix.saves.Wait()
	return ix.root.Close()
}

// Catalog returns every document with its inherited tags, a Folder for
// each folder holding an index.md, and notes on files it left out or could
// only partly read. Only a root that cannot be read, or a cancelled ctx,
// fails the call.
func (ix *Index) Catalog(ctx context.Context) (*domain.Catalog, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if ix.watch == nil && !ix.noWatch {
		ix.restartWatching()
	}
	if ix.watch == nil {
		return ix.catalogWalked(ctx)
	}
	cat, err := ix.catalogWatched(ctx)
	if ix.watchBroken.Swap(false) {
		// The walk read every folder, so cat is right; later changes in a
		// folder not watched would go unseen, so walk from now on.
		ix.stopWatching()
	}
	return cat, err
}

// catalogWalked is Catalog without change notification: walk the tree,
// stat every file, read the changed ones.
func (ix *Index) catalogWalked(ctx context.Context) (*domain.Catalog, error) {
	ix.walks.Add(1)
	states, err := ix.walk(ctx, []string{""})
	if err != nil {
		return nil, err
	}
	found, notes := flatten(states)
	readNotes, err := ix.refresh(ctx, found)
	if err != nil {
		return nil, err
	}
	return ix.build(found, append(notes, readNotes...)), nil
}

// build turns the files' metadata into the catalog: ids, titles, tag
// inheritance through index.md files, folders and sorted notes. found is
// sorted by path; the ones that could not be read are not in the cache.
func (ix *Index) build(found []candidate, walkNotes []note) *domain.Catalog {
	clashing := ix.sameIDs(found)
	ownFolderTags := map[string][]string{}
	for p, e := range ix.files {
		if _, out := clashing[p]; domain.IsFolderIndexName(path.Base(p)) && !out {
			ownFolderTags[folderOf(p)] = e.meta.tags
		}
	}

	inherited := map[string][]string{}
	var inheritedTags func(dir string) []string
	inheritedTags = func(dir string) []string {
		if tags, ok := inherited[dir]; ok {
			return tags
		}
		var tags []string
		if dir != "" {
			tags = inheritedTags(folderOf(dir))
		}
		tags = mergeTags(tags, ownFolderTags[dir])
		inherited[dir] = tags
		return tags
	}

	cat := &domain.Catalog{Docs: make([]domain.Document, 0, len(ix.files)), Folders: map[string]domain.Folder{}}
	notes := walkNotes
	for p, text := range clashing {
		notes = append(notes, note{p, text})
	}
	// A doc whose metadata entry and inherited tags are the last build's
	// is the last build's document: after one edit, one doc is made anew,
	// not 11,111 (catalogs are read-only, so sharing its tags is safe).
	last := ix.lastDocs
	ix.lastDocs = make(map[string]builtDoc, len(found))
	for _, c := range found {
		p := c.path
		e := ix.files[p]
		if _, out := clashing[p]; e == nil || out {
			continue
		}
		m := &e.meta
		dir := folderOf(p)
		inherited := inheritedTags(dir)
		if prev, ok := last[p]; ok && prev.entry == e && slices.Equal(prev.inherited, inherited) && prev.doc.Stamp.Equal(c.stamp) {
			cat.Docs = append(cat.Docs, prev.doc)
			ix.lastDocs[p] = prev
		} else {
			stem, _ := domain.DocStem(path.Base(p))
			title := firstNonEmpty(m.title, m.heading, stem)
			d := domain.Document{
				ID:        docID(p),
				Path:      p,
				Title:     title,
				Summary:   m.summary,
				Tokens:    m.tokens,
				HasTokens: m.hasTokens,
				Tags:      mergeTags(inherited, m.tags),
				Stamp:     c.stamp,
			}
			cat.Docs = append(cat.Docs, d)
			ix.lastDocs[p] = builtDoc{entry: e, inherited: inherited, doc: d}
		}
		tags := cat.Docs[len(cat.Docs)-1].Tags
		if domain.IsFolderIndexName(path.Base(p)) {
			cat.Folders[dir] = domain.Folder{
				Path:    dir,
				Title:   firstNonEmpty(m.title, m.heading),
				Summary: m.summary,
				Tags:    cloneTags(tags),
			}
		}
		if len(m.problems) > 0 {
			// One note a doc, its problems in order: a doc's line of its
			// own in every answer that shows it, not one per problem.
			notes = append(notes, note{p, fmt.Sprintf("frontmatter: '%s': %s", p, strings.Join(m.problems, "; "))})
		}
	}
	sort.SliceStable(notes, func(i, j int) bool { return notes[i].path < notes[j].path })
	for _, n := range notes {
		cat.Notes = append(cat.Notes, n.text)
	}
	return cat
}

// docID is the id of the doc file at p: its path without the markdown
// extension.
func docID(p string) string {
	stem, _ := domain.DocStem(path.Base(p))
	if dir := folderOf(p); dir != "" {
		return dir + "/" + stem
	}
	return stem
}

// sameIDs finds the read files of found that would share an id with
// another (a.md beside a.MD or a.markdown, on a case-sensitive file
// system): one keeps the id, the one named exactly ".md", else the first
// in path order; each other is left out, returned with its note.
func (ix *Index) sameIDs(found []candidate) map[string]string {
	keeper := map[string]string{} // id -> the path keeping it
	var losers []string
	for _, c := range found {
		if ix.files[c.path] == nil {
			continue
		}
		id := docID(c.path)
		kept, taken := keeper[id]
		switch {
		case !taken:
			keeper[id] = c.path
		case strings.HasSuffix(c.path, ".md") && !strings.HasSuffix(kept, ".md"):
			keeper[id] = c.path
			losers = append(losers, kept)
		default:
			losers = append(losers, c.path)
		}
	}
	if len(losers) == 0 {
		return nil
	}
	out := make(map[string]string, len(losers))
	for _, p := range losers {
		id := docID(p)
		out[p] = fmt.Sprintf("skipped: '%s': '%s' has the same id '%s' and is served", p, keeper[id], id)
	}
	return out
}

// mergeTags appends more to base, dropping duplicates (the first wins), in
// a new slice.
func mergeTags(base, more []string) []string {
	if len(more) == 0 {
		return cloneTags(base)
	}
	out := make([]string, 0, len(base)+len(more))
	out = append(out, base...)
	for _, t := range more {
		if !contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// cloneTags copies tags so no two docs share a backing array; nil stays nil.
func cloneTags(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return append([]string(nil), s...)
}

// folderOf returns the folder of a '/'-separated path, "" for the root.
func folderOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// Stat returns the stamp of the file at path without reading it.
func (ix *Index) Stat(ctx context.Context, p string) (domain.Stamp, error) {
	if err := ctx.Err(); err != nil {
		return domain.Stamp{}, err
	}
	if err := checkPath(p); err != nil {
		return domain.Stamp{}, err
	}
	info, err := rootfs.ResolvingLinks(ix.links, p, ix.root.Stat)
	if err != nil {
		return domain.Stamp{}, ix.translate(p, err)
	}
	if err := checkRegular(p, info); err != nil {
		return domain.Stamp{}, err
	}
	return rootfs.Stamp(info), nil
}

// ReadFile reads the file at path and returns the stamp of the bytes read.
func (ix *Index) ReadFile(ctx context.Context, p string) ([]byte, domain.Stamp, error) {
	if err := ctx.Err(); err != nil {
		return nil, domain.Stamp{}, err
	}
	if err := checkPath(p); err != nil {
		return nil, domain.Stamp{}, err
	}
	if data, stamp, ok := ix.takeKept(p); ok {
		return data, stamp, nil
	}
	// Stat before opening: opening a FIFO would block.
	info, err := rootfs.ResolvingLinks(ix.links, p, ix.root.Stat)
	if err != nil {
		return nil, domain.Stamp{}, ix.translate(p, err)
	}
	if err := checkRegular(p, info); err != nil {
		return nil, domain.Stamp{}, err
	}
	f, err := ix.openFile(ix.root, p)
	if err != nil {
		return nil, domain.Stamp{}, ix.translate(p, err)
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, domain.Stamp{}, fmt.Errorf("'%s' cannot be read: %w", p, err)
	}
	if err := checkRegular(p, info); err != nil {
		return nil, domain.Stamp{}, err
	}
	if err := ix.access.Check(info); err != nil {
		return nil, domain.Stamp{}, fmt.Errorf("%w: '%s' cannot be read: %w", domain.ErrRefused, p, err)
	}
	data, err := readAllInto(make([]byte, 0, info.Size()+1), f)
	if err != nil {
		return nil, domain.Stamp{}, fmt.Errorf("'%s' cannot be read: %w", p, unwrapPath(err))
	}
	return data, rootfs.Stamp(info), nil
}

// checkPath refuses a path that is not a clean, relative, '/'-separated
// path naming something below the root.
func checkPath(p string) error {
	if p == "" || p == "." || strings.ContainsRune(p, '\\') || !fs.ValidPath(p) {
		return fmt.Errorf("%w: '%s' is not a clean path relative to the library root", domain.ErrRefused, p)
	}
	return nil
}

func checkRegular(p string, info fs.FileInfo) error {
	switch {
	case info.IsDir():
		return fmt.Errorf("%w: '%s' is a folder, not a document file", domain.ErrNotFound, p)
	case !info.Mode().IsRegular():
		return fmt.Errorf("%w: '%s' is not a regular file", domain.ErrRefused, p)
	}
	return nil
}

// translate maps an os.Root error to the port's sentinels.
func (ix *Index) translate(p string, err error) error {
	switch {
	case ix.links.Escapes(err):
		return fmt.Errorf("%w: '%s' resolves outside the library root", domain.ErrRefused, p)
	case errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("%w: '%s' cannot be read: %w", domain.ErrRefused, p, unwrapPath(err))
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%w: '%s' does not exist in the library", domain.ErrNotFound, p)
	default:
		return fmt.Errorf("'%s' cannot be read: %w", p, unwrapPath(err))
	}
}

// openFile opens name through root; through the library root, an absolute
// symlink that lands inside it is followed too.
func (ix *Index) openFile(root *os.Root, name string) (*os.File, error) {
	open := func(q string) (*os.File, error) { return rootfs.Open(root, q) }
	if root == ix.root {
		return rootfs.ResolvingLinks(ix.links, name, open)
	}
	return open(name)
}

// unwrapPath drops the *fs.PathError wrapper (whose text repeats the
// operation and path the caller already names), keeping the cause.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
