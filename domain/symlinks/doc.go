// Package symlinks is the policy for symbolic links under a library root: a
// path's links are resolved component by component (Resolve) and followed
// only while they stay below one of the allowed roots (BelowRoots), at most
// MaxLinks of them; anything else is refused with domain.ErrRefused. It reads
// nothing itself: the adapter passes the link reader (through an *os.Root).
// It imports the domain core and the standard library.
package symlinks
