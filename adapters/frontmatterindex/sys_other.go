//go:build !unix

package frontmatterindex

import (
	"io/fs"
	"os"

	"github.com/librarian/librarian/domain"
)

// openFlags: a plain read-only open.
const openFlags = os.O_RDONLY

// stampOf reads size and modification time from a FileInfo; this platform
// exposes no inode through it.
func stampOf(info fs.FileInfo) domain.Stamp {
	return domain.Stamp{Size: info.Size(), ModTime: info.ModTime()}
}

// multiplyLinked: this platform exposes no link count; it has no change
// notification either, so every call stats every file anyway.
func multiplyLinked(fs.FileInfo) bool { return false }
