package frontmatterindex

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/librarian/librarian/domain"
)

// links lets an absolute symlink that lands inside the library root
// through: *os.Root refuses every absolute link, seed 000 only those that
// land outside. See domain.ResolveLinks.
type links struct {
	root   *os.Root
	abs    []string // the root's absolute paths, as given and real, '/'-separated
	escape error    // *os.Root's error for a path leaving it
}

// newLinks takes the root's absolute paths once: as given (how a link
// written from the configured path names it) and with the root's own links
// resolved (how one written from the real path does).
func newLinks(r *os.Root, dir string, escape error) links {
	l := links{root: r, escape: escape}
	if a, err := filepath.Abs(dir); err == nil {
		l.abs = append(l.abs, filepath.ToSlash(a))
		if real, err := filepath.EvalSymlinks(a); err == nil && real != a {
			l.abs = append(l.abs, filepath.ToSlash(real))
		}
	}
	return l
}

// retry calls op on p and, when the root refuses p as escaping, resolves
// p's links itself and calls op again on the link-free path, through the
// root, so a link swapped in meanwhile is still confined.
func retry[T any](l links, p string, op func(string) (T, error)) (T, error) {
	v, err := op(p)
	if !l.escapes(err) {
		return v, err
	}
	resolved, err := l.resolve(p, err)
	if err != nil {
		return v, err
	}
	return op(resolved)
}

func (l links) escapes(err error) bool {
	return err != nil && l.escape != nil && errors.Is(err, l.escape)
}

// resolve returns p with its links resolved, root-relative, after the root
// refused p with escaped. A path whose links do lead outside keeps that
// error; a loop is ELOOP, as the kernel says it.
func (l links) resolve(p string, escaped error) (string, error) {
	resolved, err := domain.ResolveLinks(p, l.below, l.readLink)
	switch {
	case errors.Is(err, domain.ErrLinkOutside):
		return "", escaped
	case errors.Is(err, domain.ErrLinkLoop):
		return "", &fs.PathError{Op: "resolve", Path: p, Err: syscall.ELOOP}
	}
	return resolved, err
}

// below is a domain.BelowRoot: a target written with the root's path, as
// configured or real, is compared as written; any other is compared once
// more with its own links resolved, so a link through another name of the
// root's folder (/tmp -> /private/tmp) is inside too. That reads only the
// metadata of the target's folders (lstat, readlink), never a file, and
// whatever it gives, the file is then reached through the root.
func (l links) below(target string) (string, bool) {
	if rest, ok := domain.BelowRoots(target, l.abs); ok {
		return rest, true
	}
	real, err := filepath.EvalSymlinks(filepath.FromSlash(target))
	if err != nil {
		return "", false
	}
	return domain.BelowRoots(filepath.ToSlash(real), l.abs)
}

// readLink is a domain.LinkReader through the root.
func (l links) readLink(rel string) (string, bool, error) {
	fi, err := l.root.Lstat(rel)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return "", false, err
	}
	target, err := l.root.Readlink(rel)
	return filepath.ToSlash(target), true, err
}
