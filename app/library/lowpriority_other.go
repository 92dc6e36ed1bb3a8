//go:build !linux

package library

// lowerThreadPriority is a no-op where threads have no priority of their own.
func lowerThreadPriority() {}
