//go:build unix

package rootfs_test

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/rootfs"
)

// TestOpenDoesNotBlockOnAFIFO: a named pipe with no writer would block a
// plain open; Open returns at once and Regular refuses it.
func TestOpenDoesNotBlockOnAFIFO(t *testing.T) {
	dir, r, _ := openRoot(t, nil)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := rootfs.Regular(rootfs.Open(r, "pipe.md"))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, rootfs.ErrNotRegular) {
			t.Errorf("Regular(Open(pipe.md)) error = %v, want ErrNotRegular", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Open blocked on a FIFO")
	}
}
