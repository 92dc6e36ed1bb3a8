// Package jsonindex is an index-source adapter (it implements
// docindex.Source) for seed 000's library convention: a JSON document index,
// index.json by default, listing each document's id, path, title, summary,
// approx_tokens and, as tools.md adds, optional tags:
//
//	{"documents": [{"id": "auth", "path": "backend/auth.md", "title": "Authentication",
//	  "summary": "Gateway token validation, ...", "approx_tokens": 353, "tags": ["security"]}]}
//
// Every file, the index included, is opened through an *os.Root of the
// library root, so neither '..' nor a symlink (even one swapped in between a
// check and an open) reaches outside it. An absolute symlink, which os.Root
// refuses outright, is resolved component by component through the root
// (rootfs.Links) and let through when it lands inside. The index is validated
// on every Catalog call, but parsed again only when its Stamp changes; a
// doc index that is missing, outside the root or wrongly set fails every
// Catalog call with a clear error, not New.
package jsonindex

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/librarian/librarian/adapters/rootfs"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/docindex"
)

// DefaultDocIndex is the doc index path, relative to the library root, when
// none is configured (seed 000's LIBRARY_DOC_INDEX default).
const DefaultDocIndex = "index.json"

// Index is a docindex.Source over one library root and its JSON doc index.
// It is safe for concurrent use.
type Index struct {
	root     *os.Root
	rootName string
	docIndex string       // cleaned, relative to the root
	setting  error        // why the doc index setting is refused, or nil
	escape   error        // *os.Root's error for a path leaving the root
	links    rootfs.Links // resolves absolute symlinks inside the root
	access   rootfs.Access

	mu     sync.Mutex // guards parsed
	parsed *parsedIndex

	parses atomic.Int64 // how often the index was parsed; read by tests
}

// parsedIndex is the index as of one stamp: its entries sorted by path, or
// the *domain.IndexError it failed with (errors are cached too).
type parsedIndex struct {
	stamp    domain.Stamp
	readAt   time.Time // see settled
	data     []byte    // the bytes parsed, to tell a racy re-read from an edit
	entries  []entry
	warnings []string // for domain.Catalog.Warnings: aliases
	byDir    []int    // indexes into entries, grouped by folder
	folders  []span   // the groups of byDir, one per folder
	err      *domain.IndexError
}

// span is the half-open range [from, to) of a slice.
type span struct{ from, to int }

var _ docindex.Source = (*Index)(nil)

// New opens the library at root with the doc index docIndex (relative to
// root; "" means DefaultDocIndex). It fails only when root cannot be
// opened. A doc index setting that breaks seed 000's rules, or an index
// that is missing or resolves outside root, fails every Catalog call
// instead (seed 000: problems fail the call), with an error such as
//
//	doc index 'index.json' not found in library root /srv/lib
//
// so the server starts and says what is wrong where it is asked. Close
// releases the root.
// Option adjusts New.
type Option func(*Index)

// AllowHardLinks serves regular files with more than one hard link, which
// are refused by default (see rootfs.Access): LIBRARY_ALLOW_HARDLINKS.
func AllowHardLinks(allow bool) Option {
	return func(x *Index) { x.access.AllowHardLinks = allow }
}

func New(root, docIndex string, opts ...Option) (*Index, error) {
	if docIndex == "" {
		docIndex = DefaultDocIndex
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("jsonindex: cannot open library root %q: %w", root, err)
	}
	escape := rootfs.EscapeError(r)
	x := &Index{root: r, rootName: root, escape: escape, links: rootfs.NewLinks(r, root, escape)}
	for _, opt := range opts {
		opt(x)
	}
	if problem := domain.CheckIndexPath("doc index", docIndex); problem != "" {
		x.setting = refused("doc index setting '%s' refused: %s", docIndex, problem)
	} else {
		x.docIndex = path.Clean(docIndex)
	}
	return x, nil
}

// Close releases the library root. Calls after Close fail.
func (x *Index) Close() error { return x.root.Close() }

// Catalog returns the documents of the index in path order. It stats the
// index and re-parses it only when its stamp changed. Then it resolves every
// document file (symlinks included) through the root: a file that is
// missing, resolves outside the root, or is not a regular file is left out,
// with a note such as
//
//	refused: documents[2] (id 'evil'): 'secret.md' resolves outside the library root
//	missing: documents[4] (id 'gone'): file 'gone.md' not found
//
// Notes come in index order. An index that fails validation returns its
// *domain.IndexError; a missing or escaping index file, or a refused doc
// index setting, an error wrapping domain.ErrNotFound or domain.ErrRefused.
func (x *Index) Catalog(ctx context.Context) (*domain.Catalog, error) {
	p, err := x.load()
	if err != nil {
		return nil, err
	}
	if p.err != nil {
		return nil, p.err
	}
	cat := &domain.Catalog{
		Docs:     make([]domain.Document, 0, len(p.entries)),
		Folders:  map[string]domain.Folder{}, // seed 000's index describes no folders
		Warnings: slices.Clone(p.warnings),
	}
	type note struct {
		index int
		text  string
	}
	problems, stamps, err := x.checkDocs(ctx, p)
	if err != nil {
		return nil, err
	}
	var notes []note
	for i, e := range p.entries {
		if fe := problems[i]; fe != nil {
			notes = append(notes, note{e.index, fe.noteKind() + ": " + e.where + ": " + fe.msg})
			continue
		}
		d := e.doc
		d.Tags = slices.Clone(d.Tags) // the cache stays ours
		d.Stamp = stamps[i]
		cat.Docs = append(cat.Docs, d)
	}
	slices.SortFunc(notes, func(a, b note) int { return cmp.Compare(a.index, b.index) })
	for _, n := range notes {
		cat.Notes = append(cat.Notes, n.text)
	}
	return cat, nil
}

// checkDocs resolves every document file of p, returning a problem per
// entry (nil when the file is fine). Stat'ing each path from the root walks
// its folders again for every doc (one call per folder on the way, then the
// file); instead each folder is opened once, confined to the root, and its
// files are stat'ed in it, one call each, with folders shared out among a
// few goroutines. A file that fails there (missing, not regular, or a
// symlink leaving its folder, which may still be inside the root) is
// resolved again from the root, which decides, so each answer is exactly
// checkDoc's.
func (x *Index) checkDocs(ctx context.Context, p *parsedIndex) ([]*fileError, []domain.Stamp, error) {
	problems := make([]*fileError, len(p.entries))
	stamps := make([]domain.Stamp, len(p.entries))
	var next atomic.Int64 // the next folder to check
	check := func() {
		for {
			g := int(next.Add(1) - 1)
			if g >= len(p.folders) || ctx.Err() != nil {
				return
			}
			x.checkFolder(p, p.byDir[p.folders[g].from:p.folders[g].to], problems, stamps)
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), maxCheckers, len(p.folders)) {
		wg.Go(check)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return problems, stamps, nil
}

// checkFolder checks the entries of p at members, all in one folder, and
// records their problems, or their stamps.
func (x *Index) checkFolder(p *parsedIndex, members []int, problems []*fileError, stamps []domain.Stamp) {
	dir := p.entries[members[0]].dir
	folder, err := x.root, error(nil)
	if dir != "." {
		if folder, err = x.root.OpenRoot(dir); err == nil {
			defer folder.Close()
		}
	}
	for _, i := range members {
		e := &p.entries[i]
		if err == nil {
			if fi, serr := folder.Stat(e.base); serr == nil && fi.Mode().IsRegular() {
				stamps[i] = rootfs.Stamp(fi)
				continue
			}
		}
		problems[i], stamps[i] = x.checkDoc(e.doc.Path)
	}
}

// maxCheckers caps the goroutines that resolve doc files: the work is
// system calls, which gain little past a few at once.
const maxCheckers = 4

// checkDoc resolves a document file through the root without reading it.
func (x *Index) checkDoc(p string) (*fileError, domain.Stamp) {
	fi, err := rootfs.ResolvingLinks(x.links, p, x.root.Stat)
	if err != nil {
		return describe("", p, err, x.escape), domain.Stamp{}
	}
	if !fi.Mode().IsRegular() {
		return notRegular("", p), domain.Stamp{}
	}
	return nil, rootfs.Stamp(fi)
}

// Stat returns the stamp of the document file at p (relative to the root).
func (x *Index) Stat(_ context.Context, p string) (domain.Stamp, error) {
	clean, err := cleanPath(p)
	if err != nil {
		return domain.Stamp{}, err
	}
	fi, err := rootfs.ResolvingLinks(x.links, clean, x.root.Stat)
	if err != nil {
		return domain.Stamp{}, describe("", clean, err, x.escape)
	}
	if !fi.Mode().IsRegular() {
		return domain.Stamp{}, notRegular("", clean)
	}
	return rootfs.Stamp(fi), nil
}

// ReadFile reads the document file at p (relative to the root) and returns
// the stamp of the bytes it read.
func (x *Index) ReadFile(_ context.Context, p string) ([]byte, domain.Stamp, error) {
	clean, err := cleanPath(p)
	if err != nil {
		return nil, domain.Stamp{}, err
	}
	data, stamp, err := x.readRegular("", clean)
	if err != nil {
		return nil, domain.Stamp{}, err
	}
	return data, stamp, nil
}

// statIndex stats the doc index through the root.
func (x *Index) statIndex() (domain.Stamp, error) {
	if x.setting != nil {
		return domain.Stamp{}, x.setting
	}
	fi, err := rootfs.ResolvingLinks(x.links, x.docIndex, x.root.Stat)
	if err != nil {
		fe := describe("doc index", x.docIndex, err, x.escape)
		if errors.Is(fe.kind, domain.ErrNotFound) {
			fe.msg += " in library root " + x.rootName
		}
		return domain.Stamp{}, fe
	}
	if !fi.Mode().IsRegular() {
		return domain.Stamp{}, notRegular("doc index", x.docIndex)
	}
	return rootfs.Stamp(fi), nil
}

// load returns the parsed index, parsing it only when its stamp changed.
// Holding the lock while parsing makes concurrent callers wait for one
// parse instead of each doing their own.
func (x *Index) load() (*parsedIndex, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	stamp, err := x.statIndex()
	if err != nil {
		return nil, err
	}
	if x.parsed != nil && x.parsed.stamp.Equal(stamp) && settled(x.parsed.stamp, x.parsed.readAt) {
		return x.parsed, nil
	}
	readAt := time.Now()
	data, stamp, err := x.readRegular("doc index", x.docIndex)
	if err != nil {
		return nil, err
	}
	if x.parsed != nil && bytes.Equal(x.parsed.data, data) {
		// A racy stamp re-checked: same bytes, same parse.
		kept := *x.parsed
		kept.stamp, kept.readAt = stamp, readAt
		x.parsed = &kept
		return x.parsed, nil
	}
	x.parses.Add(1)
	p := &parsedIndex{stamp: stamp, readAt: readAt, data: data}
	entries, warnings, problems := parseIndex(x.docIndex, data)
	if len(problems) > 0 {
		p.err = &domain.IndexError{File: x.docIndex, Problems: problems}
	} else {
		slices.SortStableFunc(entries, func(a, b entry) int { return cmp.Compare(a.doc.Path, b.doc.Path) })
		p.entries, p.warnings = entries, warnings
		p.byDir, p.folders = groupByFolder(entries)
	}
	x.parsed = p
	return p, nil
}

// groupByFolder orders the indexes of entries by folder and returns the
// range of that order each folder takes.
func groupByFolder(entries []entry) (byDir []int, folders []span) {
	byDir = make([]int, len(entries))
	for i := range byDir {
		byDir[i] = i
	}
	slices.SortStableFunc(byDir, func(i, j int) int { return cmp.Compare(entries[i].dir, entries[j].dir) })
	for k := range byDir {
		if k == 0 || entries[byDir[k]].dir != entries[byDir[k-1]].dir {
			folders = append(folders, span{from: k})
		}
		folders[len(folders)-1].to = k + 1
	}
	return byDir, folders
}

// settled reports whether a read at readAt of a file with stamp st can be
// trusted by its stamp alone: a file read within 2 s of its modification
// may change again in the same timestamp tick with the same size ("racy
// clean", as git calls it), so it is read again.
func settled(st domain.Stamp, readAt time.Time) bool {
	return readAt.Sub(st.ModTime) >= 2*time.Second
}
