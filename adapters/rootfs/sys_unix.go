//go:build unix

package rootfs

import (
	"io/fs"
	"syscall"
	"time"
)

// openFlags: read-only, without blocking (see Open).
const openFlags = syscall.O_RDONLY | syscall.O_NONBLOCK

// identity returns the inode of the file fi describes and, on Linux, its
// inode change time (see changeTime).
func identity(fi fs.FileInfo) (inode uint64, changed time.Time) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, time.Time{}
	}
	return uint64(st.Ino), changeTime(st)
}

// linkCount is the number of hard links of the file fi describes.
func linkCount(fi fs.FileInfo) uint64 {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	return uint64(st.Nlink)
}
