//go:build linux

package frontmatterindex

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"syscall"
)

// watchMask is every change to a folder's entries and to the folder
// itself. IN_ONLYDIR: only a folder is ever watched. (IN_DONT_FOLLOW is
// not set: the watch is added through /proc/self/fd, a symlink to the
// folder already opened inside the root, which must be followed.)
const watchMask = syscall.IN_CREATE | syscall.IN_DELETE | syscall.IN_MODIFY | syscall.IN_CLOSE_WRITE |
	syscall.IN_MOVED_FROM | syscall.IN_MOVED_TO | syscall.IN_ATTRIB |
	syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF | syscall.IN_ONLYDIR

// localFileSystems are the file systems (statfs magic numbers) whose every
// change goes through this kernel, so inotify reports it. Network and FUSE
// file systems (NFS, SMB, sshfs, 9p as in WSL's /mnt/c, virtiofs) change
// under it unseen: a folder on one of those turns watching off.
var localFileSystems = map[uint32]bool{
	0xEF53:     true, // ext2, ext3, ext4
	0x58465342: true, // xfs
	0x9123683E: true, // btrfs
	0x01021994: true, // tmpfs
	0x858458F6: true, // ramfs
	0xF2F52010: true, // f2fs
	0x2FC12FC1: true, // zfs
	0xCA451A4E: true, // bcachefs
	0x3153464A: true, // jfs
	0x52654973: true, // reiserfs
	0x794C7630: true, // overlayfs (containers)
}

// watcher is one inotify instance watching the library's folders. Its
// methods are safe for concurrent use, except read, whose callers
// serialise it.
type watcher struct {
	fd  int
	buf []byte // read's buffer

	mu   sync.Mutex
	dirs map[int32][]string // the folders each watch stands for (two when a folder is mounted twice)
	wdOf map[string]int32
}

func newWatcher() (*watcher, error) {
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("inotify_init1", err)
	}
	return &watcher{fd: fd, buf: make([]byte, 64<<10), dirs: map[int32][]string{}, wdOf: map[string]int32{}}, nil
}

// watchFolder watches the folder dir, open as f. The watch goes through
// f's descriptor, not a path: it is the very folder that was opened inside
// the root, even if a path component was replaced by a symlink meanwhile.
func (w *watcher) watchFolder(dir string, f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var wd int
	var werr error
	if err := rc.Control(func(fd uintptr) {
		var fs syscall.Statfs_t
		if werr = syscall.Fstatfs(int(fd), &fs); werr != nil {
			werr = os.NewSyscallError("fstatfs", werr)
			return
		}
		if kind := uint32(fs.Type); !localFileSystems[kind] {
			werr = fmt.Errorf("folder '%s' is on a file system (type %#x) that may change without inotify events", dir, kind)
			return
		}
		wd, werr = syscall.InotifyAddWatch(w.fd, "/proc/self/fd/"+strconv.Itoa(int(fd)), watchMask)
		if werr != nil {
			werr = os.NewSyscallError("inotify_add_watch", werr)
		}
	}); err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if old, ok := w.wdOf[dir]; ok && old != int32(wd) {
		w.unmap(dir, old)
	}
	w.wdOf[dir] = int32(wd)
	if !slices.Contains(w.dirs[int32(wd)], dir) {
		w.dirs[int32(wd)] = append(w.dirs[int32(wd)], dir)
	}
	return nil
}

// forget stops watching the folder dir (gone, or about to be walked again).
func (w *watcher) forget(dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if wd, ok := w.wdOf[dir]; ok {
		delete(w.wdOf, dir)
		w.unmap(dir, wd)
	}
}

// unmap drops dir from watch wd, and the watch when no folder is left on
// it. w.mu is held.
func (w *watcher) unmap(dir string, wd int32) {
	left := slices.DeleteFunc(w.dirs[wd], func(d string) bool { return d == dir })
	if len(left) > 0 {
		w.dirs[wd] = left
		return
	}
	delete(w.dirs, wd)
	// EINVAL when the kernel already dropped it (the folder was removed):
	// nothing left to do either way.
	_, _ = syscall.InotifyRmWatch(w.fd, uint32(wd))
}

// read returns the notices queued since the last read, without blocking.
// Events of watches no longer mapped (forgotten folders) are dropped.
func (w *watcher) read() ([]notice, error) {
	var out []notice
	for {
		n, err := syscall.Read(w.fd, w.buf)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return out, nil
		case err != nil:
			return out, os.NewSyscallError("read of inotify events", err)
		case n < syscall.SizeofInotifyEvent:
			return out, fmt.Errorf("read of inotify events: %d bytes, less than one event", n)
		}
		var perr error
		if out, perr = w.parse(w.buf[:n], out); perr != nil {
			return out, perr
		}
	}
}

// parse appends the notices of the events in buf to out.
func (w *watcher) parse(buf []byte, out []notice) ([]notice, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for off := 0; off < len(buf); {
		if len(buf)-off < syscall.SizeofInotifyEvent {
			return out, fmt.Errorf("read of inotify events: %d stray bytes", len(buf)-off)
		}
		wd := int32(binary.NativeEndian.Uint32(buf[off:]))
		mask := binary.NativeEndian.Uint32(buf[off+4:])
		size := int(binary.NativeEndian.Uint32(buf[off+12:]))
		start := off + syscall.SizeofInotifyEvent
		if size > len(buf)-start {
			return out, fmt.Errorf("read of inotify events: a name of %d bytes overruns the buffer", size)
		}
		name := buf[start : start+size]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		off = start + size
		if mask&syscall.IN_Q_OVERFLOW != 0 {
			out = append(out, notice{kind: noticeLost})
			continue
		}
		dirs := w.dirs[wd]
		if mask&syscall.IN_IGNORED != 0 {
			// The kernel dropped the watch: the folder was removed, or its
			// file system unmounted.
			for _, d := range dirs {
				if w.wdOf[d] == wd {
					delete(w.wdOf, d)
				}
			}
			delete(w.dirs, wd)
		}
		for _, d := range dirs {
			switch {
			case len(name) == 0 || mask&(syscall.IN_IGNORED|syscall.IN_DELETE_SELF|syscall.IN_MOVE_SELF|syscall.IN_UNMOUNT) != 0:
				out = append(out, notice{kind: noticeSelf, dir: d})
			case mask&syscall.IN_ISDIR != 0:
				out = append(out, notice{kind: noticeFolder, dir: d, name: string(name)})
			default:
				out = append(out, notice{kind: noticeFile, dir: d, name: string(name)})
			}
		}
	}
	return out, nil
}

func (w *watcher) close() error {
	return os.NewSyscallError("close of inotify", syscall.Close(w.fd))
}
