//go:build !unix

package sqlitesectionindex

import "os"

// readOffHeap reads file; off the heap only where mappings are available.
func readOffHeap(file string) ([]byte, error) { return os.ReadFile(file) }

func releaseOffHeap([]byte) {}
