package fileimages

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"syscall"

	"github.com/librarian/librarian/domain"
)

// fileError is a failure to reach a file, worded for a person and wrapping
// the domain sentinel (kind) and the operating system's error (cause).
type fileError struct {
	msg   string
	kind  error // domain.ErrNotFound, domain.ErrRefused or domain.ErrTooLarge
	cause error // may be nil
}

func (e *fileError) Error() string { return e.msg }
func (e *fileError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.cause}
}

// probeEscapeError returns the error *os.Root gives for a path that leaves
// it. The standard library does not export it, so it is captured from a
// probe that fails before touching the disk, and matched with errors.Is,
// never by its text. nil (on a platform that words it otherwise) only makes
// messages less specific: every such error is refused all the same.
func probeEscapeError(r *os.Root) error {
	_, err := r.Stat("../escape-probe")
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return nil
}

// describe turns the error of an *os.Root call on p into a fileError: lead
// names p for the reader ("image 'x': 'x.png'"), outside names where p had
// to stay ("the image folder 'images'").
func describe(lead, notFound, outside string, err, escape error) *fileError {
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return &fileError{msg: notFound, kind: domain.ErrNotFound, cause: err}
	case escape != nil && errors.Is(err, escape):
		return &fileError{msg: lead + " resolves outside " + outside, kind: domain.ErrRefused, cause: err}
	default:
		return &fileError{msg: fmt.Sprintf("%s cannot be read: %v", lead, err), kind: domain.ErrRefused, cause: err}
	}
}

func stampOf(fi fs.FileInfo) domain.Stamp {
	return domain.Stamp{Size: fi.Size(), ModTime: fi.ModTime(), Inode: inode(fi)}
}

func sameStamp(a, b domain.Stamp) bool {
	return a.Size == b.Size && a.ModTime.Equal(b.ModTime) && a.Inode == b.Inode
}

// openRegular opens the regular file p through r, so that neither '..' nor
// a symlink (even one swapped in after a check) leads out of r, and returns
// it with its FileInfo. Errors are the *os.Root's, or errNotRegular.
func openRegular(r *os.Root, p string) (*os.File, fs.FileInfo, error) {
	return regularFile(r.OpenFile(p, openFlags, 0))
}

// regularFile returns the file an open gave, with its FileInfo, when it is
// a regular file; it closes any other.
func regularFile(f *os.File, err error) (*os.File, fs.FileInfo, error) {
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
		return nil, nil, errNotRegular
	}
	return f, fi, nil
}

var errNotRegular = errors.New("not a regular file")

// readAtMost reads f, failing with errTooBig past limit bytes (the file may
// have grown since it was stat'ed).
func readAtMost(f *os.File, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, min(limit, math.MaxInt64-1)+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, errTooBig
	}
	return data, nil
}

var errTooBig = errors.New("over the size limit")
