//go:build unix

package sqlitesectionindex

import (
	"os"
	"syscall"
	"unsafe"
)

// mapFile maps file read-only: its pages are read when first touched and
// belong to the system's page cache, so the process holds only the texts
// being read (and evictPages lets them go). A snapshot is never written in
// place (a new one is renamed over it), so a mapping always sees the bytes
// it was parsed from. The mapping is never unmapped once its texts are
// served: callers keep slices of it.
//
// mapped is false when the bytes were read instead (an empty file, or no
// mapping to be had): such bytes are the heap's and never evicted.
func mapFile(file string) (mem []byte, mapped bool, err error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	size := info.Size()
	if size > 0 && int64(int(size)) == size {
		if mem, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED); err == nil {
			return mem, true, nil
		}
	}
	mem, err = os.ReadFile(file)
	return mem, false, err
}

// unmapFile gives back a mapping mapFile made that nothing refers to (a
// snapshot found not to be current).
func unmapFile(mem []byte) {
	if len(mem) > 0 {
		syscall.Munmap(mem)
	}
}

// evictPages drops from the process's memory the pages of mapping that
// the span of texts (slices of it; others are ignored) lies on: read again,
// they come back from the file, the same bytes. One span, not each text:
// a text's first page shares its neighbours' pages, and faulting it in maps
// the pages around it too (the kernel's fault-around), so evicting texts
// one by one as a scan goes left most of them resident. Pages between the
// texts, or shared with texts around them, go too, for the same reason it
// is safe.
func evictPages(mapping []byte, texts [][]byte) {
	if len(mapping) == 0 {
		return
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(mapping)))
	end := base + uintptr(len(mapping))
	lo, hi := end, base
	for _, b := range texts {
		start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		if len(b) == 0 || start < base || start+uintptr(len(b)) > end {
			continue // not of this mapping
		}
		lo, hi = min(lo, start), max(hi, start+uintptr(len(b)))
	}
	if lo >= hi {
		return
	}
	page := uintptr(os.Getpagesize())
	from := (lo - base) &^ (page - 1)
	to := min((hi-base+page-1)&^(page-1), uintptr(len(mapping)))
	syscall.Madvise(mapping[from:to], syscall.MADV_DONTNEED)
}
