package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfiles starts the profiles LIBRARIAN_CPUPROFILE and
// LIBRARIAN_HEAPPROFILE name (file paths), for measuring a real server
// driven by a real client (the side-by-side kit); the returned function
// writes them. A profile that cannot be written is said on stderr and
// changes nothing else.
func startProfiles(getenv func(string) string, stderr io.Writer) (stop func()) {
	var cpu *os.File
	if p := getenv("LIBRARIAN_CPUPROFILE"); p != "" {
		f, err := os.Create(p)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(stderr, "librarian: LIBRARIAN_CPUPROFILE:", err)
		} else {
			cpu = f
		}
	}
	heap := getenv("LIBRARIAN_HEAPPROFILE")
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if heap == "" {
			return
		}
		f, err := os.Create(heap)
		if err == nil {
			runtime.GC()
			err = pprof.WriteHeapProfile(f)
			f.Close()
		}
		if err != nil {
			fmt.Fprintln(stderr, "librarian: LIBRARIAN_HEAPPROFILE:", err)
		}
	}
}
