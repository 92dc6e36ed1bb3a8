//go:build !unix

package rootfs

import (
	"io/fs"
	"os"
	"time"
)

// openFlags: a plain read-only open; this platform has no non-blocking one.
const openFlags = os.O_RDONLY

// identity: this platform exposes neither inode nor change time through
// a FileInfo; size and modification time still tell most versions apart.
func identity(fs.FileInfo) (inode uint64, changed time.Time) { return 0, time.Time{} }

// linkCount: this platform does not count hard links through a FileInfo.
func linkCount(fs.FileInfo) uint64 { return 0 }
