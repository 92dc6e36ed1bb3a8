//go:build unix

package sqlitesectionindex

import (
	"io"
	"os"
	"syscall"
)

// readOffHeap reads file into memory outside the Go heap: an anonymous
// private mapping, made read-only once filled. A snapshot's texts are most
// of a server's memory (52 MB of 10,000 docs, 255 MB of 50,000) and are
// never freed while the process serves them; in the heap they would also
// double the garbage collector's target, and with it the process's peak
// memory. The mapping is never unmapped: callers keep slices of it.
func readOffHeap(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := info.Size()
	if size <= 0 || int64(int(size)) != size {
		return os.ReadFile(file)
	}
	mem, err := syscall.Mmap(-1, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return os.ReadFile(file)
	}
	if _, err := io.ReadFull(f, mem); err != nil {
		syscall.Munmap(mem)
		return nil, err
	}
	// Read-only from now on: a stray write faults instead of changing a
	// text that every search trusts.
	if err := syscall.Mprotect(mem, syscall.PROT_READ); err != nil {
		syscall.Munmap(mem)
		return os.ReadFile(file)
	}
	return mem, nil
}

// releaseOffHeap gives back a mapping readOffHeap made that nothing
// refers to (a snapshot found not to be current).
func releaseOffHeap(mem []byte) {
	if len(mem) > 0 {
		syscall.Munmap(mem)
	}
}
