//go:build !unix

package sqlitesectionindex

import "os"

// mapFile reads file; mapped only where mappings are available.
func mapFile(file string) ([]byte, bool, error) {
	mem, err := os.ReadFile(file)
	return mem, false, err
}

func unmapFile([]byte) {}

func evictPages([]byte, [][]byte) {}
