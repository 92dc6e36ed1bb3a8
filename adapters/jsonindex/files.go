package jsonindex

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"syscall"

	"github.com/librarian/librarian/adapters/rootfs"
	"github.com/librarian/librarian/domain"
)

// fileError is a failure to reach a file, worded for a person and wrapping
// the domain sentinel (kind) and the operating system's error (cause).
type fileError struct {
	msg   string
	kind  error // domain.ErrNotFound or domain.ErrRefused
	cause error // may be nil
}

func (e *fileError) Error() string { return e.msg }
func (e *fileError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.cause}
}

// noteKind is the word a Catalog note starts with: "missing" or "refused".
func (e *fileError) noteKind() string {
	if errors.Is(e.kind, domain.ErrNotFound) {
		return "missing"
	}
	return "refused"
}

func refused(format string, args ...any) *fileError {
	return &fileError{msg: fmt.Sprintf(format, args...), kind: domain.ErrRefused}
}

// cleanPath applies seed 000's path rules to a path a caller asks for and
// cleans it ("./a//b.md" -> "a/b.md").
func cleanPath(p string) (string, error) {
	if problem := domain.CheckIndexPath("path", p); problem != "" {
		return "", refused("path '%s' refused: %s", p, problem)
	}
	return path.Clean(p), nil
}

// describe turns the error of an *os.Root call on p into a fileError.
// subject names what p is for the reader ("" for a document file).
func describe(subject, p string, err, escape error) *fileError {
	lead := "'" + p + "'"
	if subject != "" {
		lead = subject + " " + lead
	}
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		what := subject
		if what == "" {
			what = "file"
		}
		return &fileError{msg: fmt.Sprintf("%s '%s' not found", what, p), kind: domain.ErrNotFound, cause: err}
	case escape != nil && errors.Is(err, escape):
		return &fileError{msg: lead + " resolves outside the library root", kind: domain.ErrRefused, cause: err}
	default:
		return &fileError{msg: fmt.Sprintf("%s cannot be read: %v", lead, err), kind: domain.ErrRefused, cause: err}
	}
}

// readRegular reads the regular file p through the root (so neither '..'
// nor a symlink, even one swapped in after a check, leads out of it). The stamp is
// taken from the open file before reading: if the file changes during the
// read, the bytes are newer than the stamp and the next Stat shows a
// change, never the other way round.
func (x *Index) readRegular(subject, p string) ([]byte, domain.Stamp, error) {
	f, fi, err := x.access.Regular(rootfs.ResolvingLinks(x.links, p, func(q string) (*os.File, error) { return rootfs.Open(x.root, q) }))
	switch {
	case errors.Is(err, rootfs.ErrNotRegular):
		return nil, domain.Stamp{}, notRegular(subject, p)
	case err != nil:
		return nil, domain.Stamp{}, describe(subject, p, err, x.escape)
	}
	defer f.Close()
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, domain.Stamp{}, describe(subject, p, err, x.escape)
	}
	return buf.Bytes(), rootfs.Stamp(fi), nil
}

func notRegular(subject, p string) *fileError {
	if subject != "" {
		return refused("%s '%s' is not a regular file", subject, p)
	}
	return refused("'%s' is not a regular file", p)
}
