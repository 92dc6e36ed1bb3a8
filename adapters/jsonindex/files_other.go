//go:build !unix

package jsonindex

import (
	"io/fs"
	"os"
)

const openFlags = os.O_RDONLY

// inode is unknown here; size and modification time still tell versions apart.
func inode(fs.FileInfo) uint64 { return 0 }
