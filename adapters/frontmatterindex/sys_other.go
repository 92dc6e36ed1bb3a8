//go:build !unix

package frontmatterindex

import "io/fs"

// multiplyLinked: this platform exposes no link count; it has no change
// notification either, so every call stats every file anyway.
func multiplyLinked(fs.FileInfo) bool { return false }
