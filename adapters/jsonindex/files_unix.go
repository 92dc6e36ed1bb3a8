//go:build unix

package jsonindex

import (
	"io/fs"
	"syscall"
)

// openFlags makes opening a FIFO or device swapped in for a file return at
// once (it is then refused as not regular) instead of blocking the call.
const openFlags = syscall.O_RDONLY | syscall.O_NONBLOCK

func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
