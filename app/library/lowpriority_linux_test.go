package library

import (
	"runtime"
	"syscall"
	"testing"
)

// niceOfThisThread is the calling thread's nice value (the raw system call
// answers 20 - nice).
func niceOfThisThread(t *testing.T) int {
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	return 20 - p
}

// A build in the background runs on threads at the lowest priority, its
// helpers too, with room left in the runtime for the calls' goroutines;
// a library not building in the background starts plain goroutines.
func TestBackgroundBuildRunsOnLowPriorityThreads(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	l := &Library{}
	plain := make(chan int)
	l.buildGo(func() { runtime.LockOSThread(); plain <- niceOfThisThread(t) })
	if n := <-plain; n == 19 {
		t.Errorf("a library not in the background: its build goroutine runs at nice %d", n)
	}
	own, helper := make(chan int), make(chan int)
	go func() {
		l.inBackground()
		own <- niceOfThisThread(t)
		l.buildGo(func() { helper <- niceOfThisThread(t) })
	}()
	if n := <-own; n != 19 {
		t.Errorf("the build's own thread: nice %d; want 19", n)
	}
	if n := <-helper; n != 19 {
		t.Errorf("a build helper's thread: nice %d; want 19", n)
	}
	restore := l.roomForCalls()
	if got, want := runtime.GOMAXPROCS(0), runtime.NumCPU()+buildThreads; got < want {
		t.Errorf("GOMAXPROCS %d during a background build; want at least %d", got, want)
	}
	restore()
	if got := runtime.GOMAXPROCS(0); got != procs {
		t.Errorf("GOMAXPROCS %d after the build; want %d as before", got, procs)
	}
}
