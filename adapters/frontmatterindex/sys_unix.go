//go:build unix

package frontmatterindex

import (
	"io/fs"
	"syscall"
)

// multiplyLinked reports whether the file has more than one hard link: a
// write through another name raises no event in this name's folder.
func multiplyLinked(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}
