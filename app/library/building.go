package library

import (
	"context"
	"time"
)

// The build in the background: its progress, waiting for it, and keeping
// the index up to date while a server runs.

func (s *indexState) setProgress(done, total int) {
	s.mu.Lock()
	s.done, s.total = done, total
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

// IndexProgress reports the running or last refresh: docs handled, docs to
// handle, and whether a whole refresh has finished in this process.
func (l *Library) IndexProgress() (done, total int, built bool) {
	if l.idx == nil {
		return 0, 0, false
	}
	l.idx.mu.Lock()
	defer l.idx.mu.Unlock()
	return l.idx.done, l.idx.total, l.idx.built
}

// WaitBuilt waits until a whole refresh has finished in this process,
// calling progress on every step; it returns ctx's error if ctx ends first.
func (l *Library) WaitBuilt(ctx context.Context, progress func(done, total int)) error {
	if l.idx == nil {
		return nil
	}
	defer l.waitingForBuild()()
	for {
		l.idx.mu.Lock()
		built, done, total, changed := l.idx.built, l.idx.done, l.idx.total, l.idx.changed
		l.idx.mu.Unlock()
		if built {
			return nil
		}
		if progress != nil {
			progress(done, total)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		}
	}
}

// KeepIndexed refreshes the index now and again whenever a call notices a
// doc the index does not hold in its current version, until ctx ends. It
// logs a failed refresh (one line) and goes on: searches then scan files.
func (l *Library) KeepIndexed(ctx context.Context) {
	if l.idx == nil || l.servedFromIndex() {
		return // nothing to refresh from: another process writes the index
	}
	l.inBackground()
	for {
		st, err := l.Refresh(ctx, nil)
		if err == nil {
			// After a restart the texts are in the index, not in memory:
			// load them now (once), behind the calls, rather than in the
			// first call that needs every doc (a common-word search).
			l.warmTexts(ctx)
			l.warmSearch(ctx)
		}
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			l.idx.log.Warn("section index refresh failed; searches read the files", "err", err.Error())
		case st.Parsed+st.Removed > 0:
			l.idx.log.Info("section index refreshed", "docs", st.Docs, "parsed", st.Parsed, "removed", st.Removed, "took", st.Took)
		}
		wait := time.Duration(0)
		if st.Deferred > 0 {
			wait = racyWindow // a doc was too fresh to store: try again once it settles
		}
		var timer <-chan time.Time
		if wait > 0 {
			timer = time.After(wait)
		}
		select {
		case <-ctx.Done():
			return
		case <-l.idx.kick:
		case <-timer:
		}
	}
}

// noticeStale asks the background refresher for a refresh, without
// waiting.
func (s *indexState) noticeStale() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// EnsureIndexed makes sure a whole refresh has finished in this process
// (running one when none runs), reporting the running build's progress.
// Without a section index it returns at once.
func (l *Library) EnsureIndexed(ctx context.Context, progress func(done, total int)) error {
	if l.idx == nil {
		return nil
	}
	if _, _, built := l.IndexProgress(); built || l.servedFromIndex() {
		return nil
	}
	defer l.waitingForBuild()()
	done := make(chan error, 1)
	go func() {
		_, err := l.Refresh(ctx, nil) // waits for a running refresh first
		done <- err
	}()
	for {
		l.idx.mu.Lock()
		d, t, changed := l.idx.done, l.idx.total, l.idx.changed
		l.idx.mu.Unlock()
		if progress != nil {
			progress(d, t)
		}
		select {
		case err := <-done:
			if err == nil && progress != nil {
				// The build may end before this loop saw a step of it
				// (a small library, a loaded machine): say where it ended.
				l.idx.mu.Lock()
				d, t = l.idx.done, l.idx.total
				l.idx.mu.Unlock()
				progress(d, t)
			}
			return err
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
