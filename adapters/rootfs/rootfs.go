// Package rootfs is confined file access through *os.Root, shared by the
// file-based adapters (jsonindex, fileimages, frontmatterindex): stamps,
// regular-file opens, and symlink resolution inside the root; and the
// atomic writes of the caches kept beside the section index
// (frontmatterindex, sqlitesectionindex).
//
// It is not an adapter of any port but the file-system toolkit the file
// adapters share, since adapters never import each other. It imports only
// domain and the standard library, words no message for a person (each
// adapter says what a failure means in its own terms) but HardLinkError's,
// which names the setting that allows what it refuses, and keeps no state
// beyond the *os.Root it is given.
package rootfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/librarian/librarian/domain"
)

// EscapeError returns the error *os.Root gives for a path that leaves it.
// The standard library does not export it, so it is captured from a probe
// that fails before touching the disk, to be matched with errors.Is, never
// by its text. nil (on a platform that words it otherwise) only makes
// messages less specific: every such error is refused all the same.
func EscapeError(r *os.Root) error {
	_, err := r.Stat("../escape-probe")
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return nil
}

// Stamp is the stamp of the file fi describes: size, modification time,
// and, where the platform exposes them, inode (a file replaced by rename,
// as editors save, is another file even when size and time agree) and
// inode change time (an in-place edit whose modification time was put
// back, as touch -r, cp -p or rsync --inplace -t do, still moves it).
func Stamp(fi fs.FileInfo) domain.Stamp {
	inode, changed := identity(fi)
	return domain.Stamp{Size: fi.Size(), ModTime: fi.ModTime(), Inode: inode, Changed: changed}
}

// Open opens the file name read-only through r, so neither '..' nor a
// symlink (even one swapped in after a check) leads out of r. Where the
// platform allows, it opens without blocking: a FIFO or device swapped in
// for a file returns at once (to be refused as not regular) instead of
// hanging the call, and the os package then skips switching a regular file
// in and out of non-blocking mode (four system calls per open, a third of
// the cost of a cold catalog on a slow virtual machine). Reads of regular
// files are the same either way.
func Open(r *os.Root, name string) (*os.File, error) {
	return r.OpenFile(name, openFlags, 0)
}

// ErrNotRegular is Regular's error for an open file that is not a regular
// file (a FIFO, a device, a folder).
var ErrNotRegular = errors.New("not a regular file")

// Regular is Access{}.Regular: the secure default, hard links refused.
func Regular(f *os.File, err error) (*os.File, fs.FileInfo, error) {
	return Access{}.Regular(f, err)
}

// Access is what a confined open may serve. *os.Root confines names: no
// '..', no symlink leads out. A hard link is not a name that leads out but
// another name of the same file, made by whoever can write in the library;
// its other names, possibly outside the root, are invisible to any path
// check. So a regular file with more than one link is refused unless
// AllowHardLinks (LIBRARY_ALLOW_HARDLINKS) says the administrator vouches
// for every writer of the library. The zero Access is the secure default.
type Access struct {
	AllowHardLinks bool
}

// ErrHardLinked is matched (errors.Is) by a *HardLinkError.
var ErrHardLinked = errors.New("a file with more than one hard link")

// HardLinkError refuses a regular file with more than one hard link. Its
// text names the setting that allows such files.
type HardLinkError struct {
	Links uint64
}

func (e *HardLinkError) Error() string {
	return fmt.Sprintf("it has %d hard links, and another of its names may lie outside the library, "+
		"where no path check can see it (LIBRARY_ALLOW_HARDLINKS=1 serves such files)", e.Links)
}

func (e *HardLinkError) Is(target error) bool { return target == ErrHardLinked }

// Check applies a to fi, the FileInfo of an open file: a regular file with
// more than one hard link is a *HardLinkError unless a allows it. Where the
// platform does not count links, nothing is refused.
func (a Access) Check(fi fs.FileInfo) error {
	if a.AllowHardLinks || !fi.Mode().IsRegular() {
		return nil
	}
	if n := linkCount(fi); n > 1 {
		return &HardLinkError{Links: n}
	}
	return nil
}

// Regular takes what an open gave and returns the file with its FileInfo
// when it is a regular file that a allows (see Check); it closes any
// other, returning ErrNotRegular or a *HardLinkError. Errors of the open
// and of the stat are returned as they are.
func (a Access) Regular(f *os.File, err error) (*os.File, fs.FileInfo, error) {
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, ErrNotRegular
	}
	if err := a.Check(fi); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}
