package symlinks

import (
	"errors"
	"fmt"
	"strings"

	"github.com/librarian/librarian/domain"
)

// Symbolic links. The adapters open every file through an *os.Root, which
// refuses any absolute link, even one that points inside the root. Seed 000
// refuses only what lands outside, so when os.Root refuses a path as
// escaping, an adapter resolves the path itself with Resolve (reading
// each component through the os.Root) and opens the link-free path it
// returns through the os.Root again: confinement stays os.Root's, at open.

// MaxLinks is how many symbolic links Resolve follows for one path
// before it calls the path a loop: 40, as Linux does.
const MaxLinks = 40

var (
	// ErrLinkOutside: a path whose links lead outside the root.
	ErrLinkOutside = fmt.Errorf("%w: a symbolic link leads outside the root", domain.ErrRefused)
	// ErrLinkLoop: a path whose links do not end within MaxLinks.
	ErrLinkLoop = errors.New("too many levels of symbolic links")
)

// LinkReader looks at the root-relative, link-free path rel: isLink tells
// whether rel is a symbolic link, target is then its '/'-separated target.
// err is the file system's (a missing file, a file used as a folder).
type LinkReader func(rel string) (target string, isLink bool, err error)

// BelowRoot locates an absolute link target: the part of it below the
// root, '/'-separated ("" for the root itself), and whether it is below.
// BelowRoots is one, from the root's own absolute paths.
type BelowRoot func(target string) (rest string, ok bool)

// Resolve resolves every symbolic link of the '/'-separated path p,
// relative to a root, component by component as the kernel does, and
// returns the root-relative path it lands on ("." for the root itself). An
// absolute link target that below places inside the root goes on from the
// root; any other, or a ".." above the root, is ErrLinkOutside. After
// MaxLinks links it is ErrLinkLoop. Errors of readLink are returned as
// they are.
func Resolve(p string, below BelowRoot, readLink LinkReader) (string, error) {
	if isAbsolute(p) {
		return "", ErrLinkOutside
	}
	rest := segments(p)
	var done []string // resolved so far: real folders, no links
	links := 0
	for len(rest) > 0 {
		seg := rest[0]
		rest = rest[1:]
		if seg == ".." {
			if len(done) == 0 {
				return "", ErrLinkOutside
			}
			done = done[:len(done)-1]
			continue
		}
		next := append(done[:len(done):len(done)], seg)
		target, isLink, err := readLink(strings.Join(next, "/"))
		if err != nil {
			return "", err
		}
		if !isLink {
			done = next
			continue
		}
		if links++; links > MaxLinks {
			return "", ErrLinkLoop
		}
		if isAbsolute(target) {
			inside, ok := below(target)
			if !ok {
				return "", ErrLinkOutside
			}
			target, done = inside, nil
		}
		more := segments(target)
		rest = append(more, rest...) // a relative target goes on from the link's folder
	}
	if len(done) == 0 {
		return ".", nil
	}
	return strings.Join(done, "/"), nil
}

// BelowRoots returns the part of the absolute, '/'-separated path target
// below the first of roots (the root's absolute paths, e.g. as configured
// and with its own links resolved) that it starts with, comparing whole
// segments: "/x/lib_evil/a.md" is not below "/x/lib". Empty and "."
// segments are ignored; ".." is kept, for Resolve to apply.
func BelowRoots(target string, roots []string) (string, bool) {
	if !isAbsolute(target) {
		return "", false
	}
	ts := segments(target)
	for _, r := range roots {
		if !isAbsolute(r) {
			continue
		}
		rs := segments(r)
		if len(ts) >= len(rs) && equalSegments(ts[:len(rs)], rs) {
			return strings.Join(ts[len(rs):], "/"), true
		}
	}
	return "", false
}

func equalSegments(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// segments splits a '/'-separated path, dropping empty and "." segments.
func segments(p string) []string {
	var out []string
	for s := range strings.SplitSeq(p, "/") {
		if s != "" && s != "." {
			out = append(out, s)
		}
	}
	return out
}

func isAbsolute(p string) bool {
	return domain.IsAbsolute(p)
}
