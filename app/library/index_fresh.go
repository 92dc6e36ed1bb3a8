package library

import (
	"context"
	"sync"
	"time"
)

// IndexFreshener returns a function that keeps the library's section index
// current for callers that read it directly (the local retrieval engine):
// its first call refreshes and waits (the index must exist before it can
// answer); later calls start a refresh in the background at most once per
// every, and never wait, so an answer is as fresh as the last refresh and a
// hit in a file changed since is flagged stale by its reader. Safe for
// concurrent use. The library must use an index (UseIndex).
func (l *Library) IndexFreshener(every time.Duration) func(ctx context.Context) error {
	var (
		mu      sync.Mutex
		built   bool
		running bool
		last    time.Time
	)
	return func(ctx context.Context) error {
		if l.servedFromIndex() {
			return nil // current by construction: another process writes it
		}
		mu.Lock()
		defer mu.Unlock()
		if !built {
			if _, err := l.Refresh(ctx, nil); err != nil {
				return err
			}
			built, last = true, time.Now()
			return nil
		}
		if running || time.Since(last) < every {
			return nil
		}
		running, last = true, time.Now()
		go func() {
			_, err := l.Refresh(context.WithoutCancel(ctx), nil)
			if err != nil && l.idx != nil {
				l.idx.log.Warn("section index refresh failed", "err", err.Error())
			}
			mu.Lock()
			running, last = false, time.Now()
			mu.Unlock()
		}()
		return nil
	}
}
