package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"

	"github.com/librarian/librarian/domain/symlinks"
)

// Links lets an absolute symlink that lands inside a root through:
// *os.Root refuses every absolute link, seed 000 only those that land
// outside. See symlinks.Resolve and ResolvingLinks. The zero Links
// resolves nothing.
type Links struct {
	root   *os.Root
	abs    []string // the root's absolute paths, as given and real, '/'-separated
	escape error    // *os.Root's error for a path leaving it (see EscapeError)
}

// NewLinks takes the root r's absolute paths once: as given (dir, how a
// link written from the configured path names it) and with the root's own
// links resolved (how one written from the real path does). escape is
// EscapeError(r).
func NewLinks(r *os.Root, dir string, escape error) Links {
	l := Links{root: r, escape: escape}
	if a, err := filepath.Abs(dir); err == nil {
		l.abs = append(l.abs, filepath.ToSlash(a))
		if real, err := filepath.EvalSymlinks(a); err == nil && real != a {
			l.abs = append(l.abs, filepath.ToSlash(real))
		}
	}
	return l
}

// Within returns the Links of folder, a folder of l's root opened as a
// root of its own and known in l's root by names (as configured, and with
// its own links resolved): an absolute target is inside folder when it
// lies below one of l's absolute paths joined with one of names.
func (l Links) Within(folder *os.Root, names ...string) Links {
	in := Links{root: folder, escape: l.escape}
	for _, root := range l.abs {
		for _, name := range names {
			in.abs = append(in.abs, path.Join(root, name))
		}
	}
	return in
}

// ResolvingLinks calls op (a call on l's root: Stat, OpenRoot, an Open) on
// p and, when the root refuses p as escaping, resolves p's links itself and
// calls op again on the link-free path, through the root, so a link swapped
// in meanwhile is still confined.
func ResolvingLinks[T any](l Links, p string, op func(string) (T, error)) (T, error) {
	v, err := op(p)
	if !l.Escapes(err) {
		return v, err
	}
	resolved, err := l.Resolve(p, err)
	if err != nil {
		return v, err
	}
	return op(resolved)
}

// Escapes reports whether err is the root's refusal of a path that leaves
// it (the escape error NewLinks was given).
func (l Links) Escapes(err error) bool {
	return err != nil && l.escape != nil && errors.Is(err, l.escape)
}

// Resolve returns p with its links resolved, root-relative, after the root
// refused p with escaped. A path whose links do lead outside keeps that
// error; a loop is ELOOP, as the kernel says it.
func (l Links) Resolve(p string, escaped error) (string, error) {
	resolved, err := symlinks.Resolve(p, l.below, l.readLink)
	switch {
	case errors.Is(err, symlinks.ErrLinkOutside):
		return "", escaped
	case errors.Is(err, symlinks.ErrLinkLoop):
		return "", &fs.PathError{Op: "resolve", Path: p, Err: syscall.ELOOP}
	}
	return resolved, err
}

// below is a symlinks.BelowRoot: a target written with the root's path, as
// configured or real, is compared as written; any other is compared once
// more with its own links resolved, so a link through another name of the
// root's folder (/tmp -> /private/tmp) is inside too. That reads only the
// metadata of the target's folders (lstat, readlink), never a file, and
// whatever it gives, the file is then reached through the root.
func (l Links) below(target string) (string, bool) {
	if rest, ok := symlinks.BelowRoots(target, l.abs); ok {
		return rest, true
	}
	real, err := filepath.EvalSymlinks(filepath.FromSlash(target))
	if err != nil {
		return "", false
	}
	return symlinks.BelowRoots(filepath.ToSlash(real), l.abs)
}

// readLink is a symlinks.LinkReader through the root.
func (l Links) readLink(rel string) (string, bool, error) {
	fi, err := l.root.Lstat(rel)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return "", false, err
	}
	target, err := l.root.Readlink(rel)
	return filepath.ToSlash(target), true, err
}
