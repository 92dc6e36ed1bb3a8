package frontmatterindex

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestMetaCacheSparesARestartTheReads: a restart with the cache file reads
// no unchanged file and builds the same catalog; an edited file is read
// again; a corrupt or another library's cache is not trusted and is
// rewritten.
func TestMetaCacheSparesARestartTheReads(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"index.md":   "---\ntags: [root]\n---\n# Root\n",
		"a/index.md": "---\ntags: [a]\ntitle: A folder\n---\n",
		"a/doc.md":   "---\ntitle: Doc\nsummary: About it.\ntags: [x, y]\ntokens: 12\n---\n",
		"a/bad.md":   "---\ntags: 3\n---\n# Heading only\n",
	})
	cacheFile := filepath.Join(t.TempDir(), "cache", "lib.frontmatter")
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	start := func() (*Index, int64) {
		ix, err := New(dir, MetaCache(cacheFile, log))
		if err != nil {
			t.Fatal(err)
		}
		catalogOf(t, ix)
		reads := ix.metaReads.Load()
		return ix, reads
	}
	first, reads := start()
	want := catalogOf(t, first)
	first.Close() // waits for the cache to be written
	if reads != 4 {
		t.Fatalf("first start read %d files, want 4", reads)
	}
	if _, err := os.Stat(cacheFile); err != nil {
		t.Fatalf("no cache file after the first start: %v", err)
	}

	again, reads := start()
	if reads != 0 {
		t.Errorf("restart read %d files, want 0", reads)
	}
	if got := catalogOf(t, again); !reflect.DeepEqual(got, want) {
		t.Errorf("restart catalog:\n got %+v\nwant %+v", got, want)
	}
	again.Close()

	writeTree(t, dir, map[string]string{"a/doc.md": "---\ntitle: Doc, edited\n---\n"})
	edited, reads := start()
	if reads != 1 {
		t.Errorf("restart after one edit read %d files, want 1", reads)
	}
	if got := titles(catalogOf(t, edited))["a/doc.md"]; got != "Doc, edited" {
		t.Errorf("title after the edit = %q", got)
	}
	edited.Close()

	if err := os.WriteFile(cacheFile, []byte("not a cache"), 0o644); err != nil {
		t.Fatal(err)
	}
	corrupt, reads := start()
	corrupt.Close()
	if reads != 4 || !strings.Contains(logs.String(), "metadata cache unreadable") {
		t.Errorf("with a corrupt cache: %d reads (want 4), log %q", reads, logs.String())
	}
	rewritten, reads := start()
	rewritten.Close()
	if reads != 0 {
		t.Errorf("the corrupt cache was not rewritten: the next start read %d files", reads)
	}

	// Another library's cache is not trusted.
	other := t.TempDir()
	writeTree(t, other, map[string]string{"a/doc.md": "---\ntitle: Other\n---\n"})
	ix, err := New(other, MetaCache(cacheFile, log))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if got := titles(catalogOf(t, ix))["a/doc.md"]; got != "Other" || ix.metaReads.Load() != 1 {
		t.Errorf("another library's cache was used: title %q, %d reads", got, ix.metaReads.Load())
	}
}
