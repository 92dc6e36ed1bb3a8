package library

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/librarian/librarian/domain"
)

// A build yields to calls. On a two-core machine a first build that writes
// its three index files on every core (see the SQLite section index) left
// a first session's calls a fraction of the CPU: a rare literal took 241 ms
// where the TypeScript server took 40. So while a request is being answered
// (Serving), a refresh pauses between docs, in its parse and in each of the
// index's writers, up to maxYield at a time. A call that waits for the
// build itself (a ranked search before the first build ends) does not
// count while it waits.

// callCount counts the requests being answered and, of them, those
// waiting for the build.
type callCount struct {
	answering, waiting atomic.Int64
}

// Serving marks a request being answered until done is called (once; later
// calls do nothing).
func (l *Library) Serving() (done func()) {
	l.calls.answering.Add(1)
	var once sync.Once
	return func() { once.Do(func() { l.calls.answering.Add(-1) }) }
}

// waitingForBuild marks, until done, a request waiting for the build.
func (l *Library) waitingForBuild() (done func()) {
	l.calls.waiting.Add(1)
	return func() { l.calls.waiting.Add(-1) }
}

// maxYield bounds one pause: under calls that never stop, a build still
// moves on, a doc at a time.
const maxYield = 50 * time.Millisecond

// yieldToCalls waits while requests are being answered, up to maxYield.
func (l *Library) yieldToCalls() {
	if !l.callsAnswering() {
		return
	}
	deadline := time.Now().Add(maxYield)
	for l.callsAnswering() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
}

func (l *Library) callsAnswering() bool {
	return l.calls.answering.Load() > l.calls.waiting.Load()
}

// yieldChunk is how many docs a build parses between two pauses: a pause
// per doc would cost a goroutine hand-off each.
const yieldChunk = 16

// openYielding is OpenAll for a build: docs parsed yieldChunk at a time,
// yielding to calls before each chunk.
func (l *Library) openYielding(ctx context.Context, docs []domain.Document) ([]*Doc, []error) {
	out := make([]*Doc, 0, len(docs))
	errs := make([]error, 0, len(docs))
	for i := 0; i < len(docs); i += yieldChunk {
		l.yieldToCalls()
		chunk := docs[i:min(i+yieldChunk, len(docs))]
		l.WarmIfCold(ctx, chunk)
		p, e := l.openEach(ctx, chunk, l.Open, l.buildGo)
		out, errs = append(out, p...), append(errs, e...)
	}
	return out, errs
}

// A build in a server also runs on threads of its own at the lowest
// priority, and the runtime gets more threads than cores (buildThreads
// more): when a request comes, a thread is free to read it and the system
// runs it before the build's. Without, a request waited for a core held by
// the build's SQLite work until the runtime preempted it (10 ms a time,
// several times a call: 20 to 30 ms on a first session's small calls).

// buildThreads is how many goroutines of a build run at once: its own,
// the index's two other writers, and its parse or derive workers.
var buildThreads = 3 + runtime.NumCPU()

// inBackground makes the calling goroutine a build's: locked to its thread
// (never unlocked: the thread ends with the goroutine), at the lowest
// priority; its builds then raise the runtime's threads (roomForCalls).
func (l *Library) inBackground() {
	runtime.LockOSThread()
	lowerThreadPriority()
	l.background.Store(true)
}

// roomForCalls raises the runtime's threads for a build in the background
// that has many docs to do, so that calls find a thread free; restore puts
// them back once it is done (more threads than cores cost searches and the
// collector a little, so only while they serve).
func (l *Library) roomForCalls() (restore func()) {
	if !l.background.Load() {
		return func() {}
	}
	was := runtime.GOMAXPROCS(0)
	n := runtime.NumCPU() + buildThreads
	if was >= n {
		return func() {}
	}
	runtime.GOMAXPROCS(n)
	return func() { runtime.GOMAXPROCS(was) }
}

// buildGo runs fn as a build's goroutine when this library builds in the
// background (inBackground), else as any other.
func (l *Library) buildGo(fn func()) {
	if !l.background.Load() {
		go fn()
		return
	}
	go func() {
		runtime.LockOSThread()
		lowerThreadPriority()
		fn()
	}()
}
