package librarytest

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// CopyTree copies the library at from to a temporary folder, every file's
// times an hour old (outside the racy window, so every read is trusted and
// stored), and returns the copy's folder.
func CopyTree(tb testing.TB, from string) string {
	tb.Helper()
	to := tb.TempDir()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return err
		}
		return os.Chtimes(dst, old, old)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return to
}

// SlowRegex costs RE2 about 8 µs a byte of words (its program runs 200
// repetitions side by side, and there is no literal to prefilter with):
// minutes on a few MB, whatever the machine.
const SlowRegex = `[a-y](?:\w|\s){0,200}[^\w\s]`

// WriteSlowLibrary writes a frontmatter library whose a.md has a hit of
// SlowRegex and whose z.md is mb MB of lowercase words, which SlowRegex
// scans for tens of seconds and never matches; it returns its folder.
func WriteSlowLibrary(tb testing.TB, mb int) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("# A\n\nfind the needle!\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	var b strings.Builder
	b.WriteString("# Z\n\n")
	for b.Len() < mb<<20 {
		for range 12 {
			for n := 2 + rng.IntN(8); n > 0; n-- {
				b.WriteByte(byte('a' + rng.IntN(26)))
			}
			b.WriteByte(' ')
		}
		b.WriteString("\n\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "z.md"), []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}
