//go:build linux

package rootfs

import (
	"syscall"
	"time"
)

// changeTime is the inode change time (ctime): the kernel sets it to the
// current time on every write and metadata change, and user space cannot
// set it, so it moves even when an edit puts the modification time back.
func changeTime(st *syscall.Stat_t) time.Time {
	return time.Unix(st.Ctim.Unix())
}
