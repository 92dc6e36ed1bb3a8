//go:build !unix

package frontmatterindex

import (
	"io/fs"

	"github.com/librarian/librarian/domain"
)

// stampOf reads size and modification time from a FileInfo; this platform
// exposes no inode through it.
func stampOf(info fs.FileInfo) domain.Stamp {
	return domain.Stamp{Size: info.Size(), ModTime: info.ModTime()}
}
