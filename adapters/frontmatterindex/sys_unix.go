//go:build unix

package frontmatterindex

import (
	"io/fs"
	"os"
	"syscall"

	"github.com/librarian/librarian/domain"
)

// openFlags opens files without blocking: a FIFO that slipped past the
// stat check cannot hang the call, and the os package then skips switching
// a regular file in and out of non-blocking mode (four system calls per
// open, a third of the cost of a cold catalog on a slow virtual machine).
// O_NONBLOCK does not change reads of regular files.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK

// stampOf reads size, modification time and inode from a FileInfo. The
// inode tells a file replaced by rename (as editors save) from the old one
// even when size and time agree.
func stampOf(info fs.FileInfo) domain.Stamp {
	s := domain.Stamp{Size: info.Size(), ModTime: info.ModTime()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		s.Inode = uint64(st.Ino)
	}
	return s
}

// multiplyLinked reports whether the file has more than one hard link: a
// write through another name raises no event in this name's folder.
func multiplyLinked(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}
