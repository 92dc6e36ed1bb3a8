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
