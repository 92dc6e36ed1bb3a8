package library

import "syscall"

// lowerThreadPriority makes the calling thread the system's last choice
// (nice 19): a build's threads then run on what the calls leave.
func lowerThreadPriority() {
	syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}
