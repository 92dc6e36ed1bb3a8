package library

import (
	"testing"
	"time"
)

// A build's pause lasts while a request is answered, ends when it is, and
// does not wait for a request that itself waits for the build.
func TestBuildYieldsToCalls(t *testing.T) {
	l := &Library{}
	start := time.Now()
	l.yieldToCalls()
	if d := time.Since(start); d > maxYield/2 {
		t.Errorf("no call: the pause took %v; want none", d)
	}
	done := l.Serving()
	returned := make(chan struct{})
	go func() { l.yieldToCalls(); close(returned) }()
	select {
	case <-returned:
		t.Fatal("the pause ended while a call was being answered")
	case <-time.After(maxYield / 5):
	}
	done()
	done() // a second done does nothing
	<-returned
	if l.callsAnswering() || l.calls.answering.Load() != 0 {
		t.Fatalf("after done: %d answering", l.calls.answering.Load())
	}

	// Under calls that never end the pause still ends.
	defer l.Serving()()
	start = time.Now()
	l.yieldToCalls()
	if d := time.Since(start); d < maxYield || d > 20*maxYield {
		t.Errorf("a call that never ends: the pause took %v; want about %v", d, maxYield)
	}

	// A call waiting for the build is not paused for.
	stop := l.waitingForBuild()
	defer stop()
	start = time.Now()
	l.yieldToCalls()
	if d := time.Since(start); d > maxYield/2 {
		t.Errorf("the only call waits for the build: the pause took %v; want none", d)
	}
}
