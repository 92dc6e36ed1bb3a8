//go:build !linux

package frontmatterindex

import (
	"errors"
	"os"
)

// errNoWatching: change notification is implemented with Linux's inotify
// only; elsewhere every Catalog walks the library.
var errNoWatching = errors.New("change notification is only implemented on Linux")

// watcher is never made on this platform.
type watcher struct{}

func newWatcher() (*watcher, error)                 { return nil, errNoWatching }
func (*watcher) watchFolder(string, *os.File) error { return errNoWatching }
func (*watcher) forget(string)                      {}
func (*watcher) read() ([]notice, error)            { return nil, errNoWatching }
func (*watcher) close() error                       { return nil }
