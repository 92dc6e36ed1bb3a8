//go:build unix

package frontmatterindex

import (
	"io/fs"
	"syscall"

	"github.com/librarian/librarian/domain"
)

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
