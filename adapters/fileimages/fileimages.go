// Package fileimages is an image-store adapter (it implements
// imagestore.Store) for seed 000's image index, images/index.json by
// default:
//
//	{"images": [{"id": "img-login-sequence", "file": "login-sequence.png",
//	  "caption": "Login sequence: client, gateway, token service"}]}
//
// where file is relative to the index's folder. The index is read through an
// *os.Root of the library root (so it must be inside the library), and image
// files through an *os.Root of the index's folder, so an image that resolves
// outside that folder, by '..' or by a symlink, is refused even when it is
// inside the library. An absolute symlink, which os.Root refuses outright,
// is resolved component by component through the same root (rootfs.Links)
// and let through when it lands inside. Standard markdown images name files
// anywhere inside the library root: ReadFile opens those through the root's
// *os.Root, with the same link rules. The index is validated on every call,
// but parsed again only when its Stamp changes; an image index setting that
// is refused, or an index outside the library root, fails every call.
package fileimages

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/librarian/librarian/adapters/rootfs"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/symlinks"
	"github.com/librarian/librarian/ports/imagestore"
)

// DefaultImageIndex is the image index path, relative to the library root,
// when none is configured (seed 000's LIBRARY_IMAGE_INDEX default).
const DefaultImageIndex = "images/index.json"

// Store is an imagestore.Store over one library root and its image index.
// It is safe for concurrent use.
type Store struct {
	root    *os.Root
	index   string       // cleaned, relative to the root
	folder  string       // the index's folder, relative to the root ("." for the root)
	setting error        // why the image index setting is refused, or nil
	escape  error        // *os.Root's error for a path leaving its root
	links   rootfs.Links // resolves absolute symlinks inside the library root
	access  rootfs.Access

	mu     sync.Mutex // guards parsed
	parsed *parsedImages

	parses atomic.Int64 // how often the index was parsed; read by tests
}

// parsedImages is the index as of one stamp: its images, or the
// *domain.IndexError it failed with (errors are cached too).
type parsedImages struct {
	stamp  domain.Stamp
	readAt time.Time // see settled
	data   []byte    // the bytes parsed, to tell a racy re-read from an edit
	images map[string]domain.Image
	err    *domain.IndexError
}

var _ imagestore.Store = (*Store)(nil)

// New opens the image index imageIndex (relative to root; "" means
// DefaultImageIndex) of the library at root. It fails only when root
// cannot be opened. An index path that breaks seed 000's rules, or resolves
// outside root, fails every call instead (seed 000: problems fail the
// call), so the server starts and says what is wrong where it is asked. A
// missing index is fine: the library has no images (until one appears).
// Close releases the root.
// Option adjusts New.
type Option func(*Store)

// AllowHardLinks serves regular files with more than one hard link, which
// are refused by default (see rootfs.Access): LIBRARY_ALLOW_HARDLINKS.
func AllowHardLinks(allow bool) Option {
	return func(s *Store) { s.access.AllowHardLinks = allow }
}

func New(root, imageIndex string, opts ...Option) (*Store, error) {
	if imageIndex == "" {
		imageIndex = DefaultImageIndex
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("fileimages: cannot open library root %q: %w", root, err)
	}
	escape := rootfs.EscapeError(r)
	s := &Store{root: r, escape: escape, links: rootfs.NewLinks(r, root, escape)}
	for _, opt := range opts {
		opt(s)
	}
	if problem := domain.CheckIndexPath("image index", imageIndex); problem != "" {
		s.setting = &fileError{msg: fmt.Sprintf("image index setting '%s' refused: %s", imageIndex, problem), kind: domain.ErrRefused}
	} else {
		s.index = path.Clean(imageIndex)
		s.folder = path.Dir(s.index)
	}
	return s, nil
}

// Close releases the library root. Calls after Close fail.
func (s *Store) Close() error { return s.root.Close() }

// Images returns the image index, validated; the map is the caller's. A
// library without an image index has no images. A malformed index returns
// a *domain.IndexError listing every problem; an index that resolves
// outside the library root an error wrapping domain.ErrRefused.
func (s *Store) Images(context.Context) (map[string]domain.Image, error) {
	p, err := s.load()
	if err != nil {
		return nil, err
	}
	out := maps.Clone(p.images)
	for id, img := range out {
		// Path is for people (the command line names the file by it).
		img.Path = path.Join(s.folder, img.File)
		out[id] = img
	}
	return out, nil
}

// Read returns the bytes of image id, opened through the index's folder. An
// unknown id or a missing file wraps domain.ErrNotFound; a file that
// resolves outside the index's folder (or is not a regular file) wraps
// domain.ErrRefused; a file over maxBytes wraps domain.ErrTooLarge and is
// not read. maxBytes is a plain limit: 0 admits only empty files.
func (s *Store) Read(_ context.Context, id string, maxBytes int64) ([]byte, error) {
	p, err := s.load()
	if err != nil {
		return nil, err
	}
	img, ok := p.images[id]
	if !ok {
		return nil, &fileError{msg: fmt.Sprintf("image %s not found in %s", domain.QuoteIndexValue(id), s.index), kind: domain.ErrNotFound}
	}
	lead := fmt.Sprintf("image %s: '%s'", domain.QuoteIndexValue(id), img.File)
	notFound := fmt.Sprintf("image %s: file '%s' not found", domain.QuoteIndexValue(id), img.File)
	outside := fmt.Sprintf("the image folder '%s'", s.folder)

	folder := s.root
	if s.folder != "." {
		// Opened afresh for each read, so a folder swapped for a symlink
		// out of the library is noticed, and no handle outlives its use.
		if folder, err = rootfs.ResolvingLinks(s.links, s.folder, s.root.OpenRoot); err != nil {
			folderLead := fmt.Sprintf("image %s: image folder '%s'", domain.QuoteIndexValue(id), s.folder)
			return nil, describe(folderLead, folderLead+" not found", "the library root", err, s.escape)
		}
		defer folder.Close()
	}
	// Stat first: an image over the limit is refused without opening it.
	name := img.File
	fi, err := folder.Stat(name)
	if s.links.Escapes(err) {
		// An absolute link (or a folder on the way linked absolutely):
		// resolved through the folder, it must land inside the folder.
		if name, err = s.folderLinks(folder).Resolve(name, err); err == nil {
			fi, err = folder.Stat(name)
		}
	}
	if err != nil {
		return nil, describe(lead, notFound, outside, err, s.escape)
	}
	if err := checkImage(lead, fi.Mode().IsRegular(), fi.Size(), maxBytes); err != nil {
		return nil, err
	}
	f, fi, err := s.access.Regular(rootfs.Open(folder, name))
	if errors.Is(err, rootfs.ErrNotRegular) {
		return nil, checkImage(lead, false, 0, maxBytes)
	}
	if err != nil {
		return nil, describe(lead, notFound, outside, err, s.escape)
	}
	defer f.Close()
	if err := checkImage(lead, true, fi.Size(), maxBytes); err != nil {
		return nil, err
	}
	data, err := readAtMost(f, maxBytes)
	if errors.Is(err, errTooBig) {
		return nil, checkImage(lead, true, maxBytes+1, maxBytes)
	}
	if err != nil {
		return nil, describe(lead, notFound, outside, err, s.escape)
	}
	return data, nil
}

// ReadFile returns the bytes of the file at p, relative to the library
// root, for a standard markdown image: opened through the root, so a file
// that resolves outside it (by '..' or by a symlink) is refused; an
// absolute symlink is resolved component by component and let through when
// it lands inside. A missing file wraps domain.ErrNotFound, a refused path
// or a file that is not regular domain.ErrRefused, a file over maxBytes
// domain.ErrTooLarge (not read).
func (s *Store) ReadFile(_ context.Context, p string, maxBytes int64) ([]byte, error) {
	lead := fmt.Sprintf("image '%s'", p)
	if !fs.ValidPath(p) || p == "." || strings.ContainsRune(p, '\\') {
		return nil, &fileError{msg: lead + " is not a clean relative path", kind: domain.ErrRefused}
	}
	notFound := lead + ": file not found"
	name := p
	fi, err := s.root.Stat(name)
	if s.links.Escapes(err) {
		if name, err = s.links.Resolve(name, err); err == nil {
			fi, err = s.root.Stat(name)
		}
	}
	if err != nil {
		return nil, s.describeRooted(lead, notFound, err)
	}
	if err := checkImage(lead, fi.Mode().IsRegular(), fi.Size(), maxBytes); err != nil {
		return nil, err
	}
	f, fi, err := s.access.Regular(rootfs.Open(s.root, name))
	if errors.Is(err, rootfs.ErrNotRegular) {
		return nil, checkImage(lead, false, 0, maxBytes)
	}
	if err != nil {
		return nil, s.describeRooted(lead, notFound, err)
	}
	defer f.Close()
	if err := checkImage(lead, true, fi.Size(), maxBytes); err != nil {
		return nil, err
	}
	data, err := readAtMost(f, maxBytes)
	if errors.Is(err, errTooBig) {
		return nil, checkImage(lead, true, maxBytes+1, maxBytes)
	}
	if err != nil {
		return nil, s.describeRooted(lead, notFound, err)
	}
	return data, nil
}

// describeRooted is describe for a file reached through the library root:
// one that leads out of it wraps domain.ErrOutsideRoot.
func (s *Store) describeRooted(lead, notFound string, err error) *fileError {
	fe := describe(lead, notFound, "the library root", err, s.escape)
	if s.escape != nil && errors.Is(err, s.escape) {
		fe.kind = domain.ErrOutsideRoot
	}
	return fe
}

// folderLinks resolves links through the image folder, open as folder: an
// absolute target is inside when it lies below the folder, named by any of
// the library root's absolute paths joined with the folder as configured
// or with the folder's own links resolved.
func (s *Store) folderLinks(folder *os.Root) rootfs.Links {
	names := []string{s.folder}
	if real, err := s.links.Resolve(s.folder, symlinks.ErrLinkOutside); err == nil && real != s.folder {
		names = append(names, real)
	}
	return s.links.Within(folder, names...)
}

// checkImage refuses what is not a regular file, and a size over maxBytes.
func checkImage(lead string, regular bool, size, maxBytes int64) error {
	switch {
	case !regular:
		return &fileError{msg: lead + " is not a regular file", kind: domain.ErrRefused}
	case size > maxBytes:
		return &fileError{msg: fmt.Sprintf("%s is %d bytes, over the limit of %d", lead, size, maxBytes), kind: domain.ErrTooLarge}
	}
	return nil
}

// statIndex stats the index through the library root; present is false
// with no error when there is no index.
func (s *Store) statIndex() (stamp domain.Stamp, present bool, err error) {
	if s.setting != nil {
		return domain.Stamp{}, false, s.setting
	}
	fi, err := rootfs.ResolvingLinks(s.links, s.index, s.root.Stat)
	if err != nil {
		lead := "image index '" + s.index + "'"
		fe := describe(lead, lead+" not found", "the library root", err, s.escape)
		if errors.Is(fe.kind, domain.ErrNotFound) {
			return domain.Stamp{}, false, nil
		}
		return domain.Stamp{}, false, fe
	}
	if !fi.Mode().IsRegular() {
		return domain.Stamp{}, false, &fileError{msg: "image index '" + s.index + "' is not a regular file", kind: domain.ErrRefused}
	}
	return rootfs.Stamp(fi), true, nil
}

// noImages is the parse of a library without an image index.
var noImages = &parsedImages{images: map[string]domain.Image{}}

// load returns the parsed index, parsing it only when its stamp changed.
// A read within 2 s of the index's modification is not trusted by its stamp
// alone (an edit in the same timestamp tick keeps the stamp): see settled.
// Holding the lock while parsing makes concurrent callers wait for one
// parse instead of each doing their own. A validation failure is returned
// as the error.
func (s *Store) load() (*parsedImages, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	stamp, present, err := s.statIndex()
	if err != nil {
		return nil, err
	}
	if !present {
		return noImages, nil
	}
	if s.parsed == nil || !s.parsed.stamp.Equal(stamp) || !settled(s.parsed.stamp, s.parsed.readAt) {
		readAt := time.Now()
		p, err := s.parse()
		if err != nil {
			return nil, err
		}
		p.readAt = readAt
		s.parsed = p
	}
	if s.parsed.err != nil {
		return nil, s.parsed.err
	}
	return s.parsed, nil
}

func (s *Store) parse() (*parsedImages, error) {
	lead := "image index '" + s.index + "'"
	f, fi, err := s.access.Regular(rootfs.ResolvingLinks(s.links, s.index, func(p string) (*os.File, error) {
		return rootfs.Open(s.root, p)
	}))
	switch {
	case errors.Is(err, rootfs.ErrNotRegular):
		return nil, &fileError{msg: lead + " is not a regular file", kind: domain.ErrRefused}
	case err != nil:
		return nil, describe(lead, lead+" not found", "the library root", err, s.escape)
	}
	defer f.Close()
	// The stamp is the open file's, taken before reading: if the file
	// changes meanwhile, the next stat differs and it is parsed again.
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, describe(lead, lead+" not found", "the library root", err, s.escape)
	}
	if s.parsed != nil && bytes.Equal(s.parsed.data, data) {
		// A racy stamp re-checked: same bytes, same parse.
		kept := *s.parsed
		kept.stamp = rootfs.Stamp(fi)
		return &kept, nil
	}
	s.parses.Add(1)
	p := &parsedImages{stamp: rootfs.Stamp(fi), data: data}
	images, problems := parseImages(s.index, data)
	if len(problems) > 0 {
		p.err = &domain.IndexError{File: s.index, Problems: problems}
	} else {
		p.images = images
	}
	return p, nil
}

// settled reports whether a read at readAt of a file with stamp st can be
// trusted by its stamp alone ("racy clean", as git calls it).
func settled(st domain.Stamp, readAt time.Time) bool {
	return readAt.Sub(st.ModTime) >= 2*time.Second
}
