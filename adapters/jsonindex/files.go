package jsonindex

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"syscall"

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

// probeEscapeError returns the error *os.Root gives for a path that leaves
// it. The standard library does not export it, so it is captured from a
// probe that fails before touching the disk, and matched with errors.Is,
// never by its text. nil (on a platform that words it otherwise) only makes
// notes less specific: every such error is refused all the same.
func probeEscapeError(r *os.Root) error {
	_, err := r.Stat("../escape-probe")
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return nil
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

func stampOf(fi fs.FileInfo) domain.Stamp {
	return domain.Stamp{Size: fi.Size(), ModTime: fi.ModTime(), Inode: inode(fi)}
}

// readRegular reads the regular file p through l's root (so neither '..'
// nor a symlink, even one swapped in after a check, leads out of it). The stamp is
// taken from the open file before reading: if the file changes during the
// read, the bytes are newer than the stamp and the next Stat shows a
// change, never the other way round.
func readRegular(l links, subject, p string) ([]byte, domain.Stamp, error) {
	escape := l.escape
	f, err := retry(l, p, func(q string) (*os.File, error) { return l.root.OpenFile(q, openFlags, 0) })
	if err != nil {
		return nil, domain.Stamp{}, describe(subject, p, err, escape)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, domain.Stamp{}, describe(subject, p, err, escape)
	}
	if !fi.Mode().IsRegular() {
		return nil, domain.Stamp{}, notRegular(subject, p)
	}
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, domain.Stamp{}, describe(subject, p, err, escape)
	}
	return buf.Bytes(), stampOf(fi), nil
}

func notRegular(subject, p string) *fileError {
	if subject != "" {
		return refused("%s '%s' is not a regular file", subject, p)
	}
	return refused("'%s' is not a regular file", p)
}
