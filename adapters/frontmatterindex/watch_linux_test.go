//go:build linux

package frontmatterindex

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/librarian/librarian/domain"
)

// TestUnchangedLibraryIsNotWalked: with nothing changed, Catalog lists no
// folder, stats and reads no file, and returns the same shared catalog.
func TestUnchangedLibraryIsNotWalked(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"index.md": "---\ntags: [root]\n---\n", "a/doc.md": "# Doc\n", "a/b/c.md": "# C\n",
		"a/notes.txt": "not a doc", ".git/HEAD.md": "# hidden",
	})
	ix := watchedIndex(t, dir)
	first := catalogOf(t, ix)
	reads, folders, walks := ix.metaReads.Load(), ix.folderReads.Load(), ix.walks.Load()
	// Changes to entries the walk never looks at raise events that change
	// nothing.
	mustDo(t, os.WriteFile(filepath.Join(dir, "a/notes.txt"), []byte("still not a doc"), 0o644))
	mustDo(t, os.WriteFile(filepath.Join(dir, ".git/HEAD.md"), []byte("# hidden, edited"), 0o644))
	mustDo(t, os.WriteFile(filepath.Join(dir, "a/.draft.md"), []byte("# dot-file"), 0o644))
	for range 3 {
		cat := catalogOf(t, ix)
		if cat != first {
			t.Errorf("catalog rebuilt with nothing changed:\n got %+v\nwant %+v", cat, first)
		}
	}
	if got := ix.metaReads.Load() - reads; got != 0 {
		t.Errorf("unchanged Catalogs read %d files, want 0", got)
	}
	if got := ix.folderReads.Load() - folders; got != 0 {
		t.Errorf("unchanged Catalogs listed %d folders, want 0", got)
	}
	if got := ix.walks.Load() - walks; got != 0 {
		t.Errorf("unchanged Catalogs walked %d times, want 0", got)
	}
	// An edit lists only its own folder and reads only its own file.
	mustDo(t, os.WriteFile(filepath.Join(dir, "a/b/c.md"), []byte("# C, edited\n"), 0o644))
	reads, folders = ix.metaReads.Load(), ix.folderReads.Load()
	if got := titles(catalogOf(t, ix))["a/b/c.md"]; got != "C, edited" {
		t.Errorf("title after an edit = %q, want %q", got, "C, edited")
	}
	if r, f := ix.metaReads.Load()-reads, ix.folderReads.Load()-folders; r != 1 || f != 1 {
		t.Errorf("Catalog after one edit read %d files and listed %d folders, want 1 and 1", r, f)
	}
}

// TestLostEventsFallBackToAWalk: when the kernel's queue overflows (here
// the test hook drops the drained events and reports them lost), the next
// Catalog walks everything, and watching goes on with a new watcher.
func TestLostEventsFallBackToAWalk(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a/one.md": doc("One"), "b/two.md": doc("Two")})
	ix := watchedIndex(t, dir)
	mustDo(t, os.WriteFile(filepath.Join(dir, "a/one.md"), []byte(doc("One, edited")), 0o644))
	writeTree(t, dir, map[string]string{"c/three.md": doc("Three")})
	mustDo(t, os.Remove(filepath.Join(dir, "b/two.md")))
	ix.watchMu.Lock()
	ix.loseEvents = true
	ix.watchMu.Unlock()
	walks := ix.walks.Load()
	want := map[string]string{"a/one.md": "One, edited", "c/three.md": "Three"}
	if got := titles(catalogOf(t, ix)); !reflect.DeepEqual(got, want) {
		t.Errorf("catalog after lost events:\n got %v\nwant %v", got, want)
	}
	if got := ix.walks.Load() - walks; got != 1 {
		t.Errorf("Catalog after lost events walked %d times, want 1", got)
	}
	if !ix.isWatching() {
		t.Fatal("not watching after lost events")
	}
	mustDo(t, os.WriteFile(filepath.Join(dir, "c/three.md"), []byte(doc("Three, edited")), 0o644))
	want["c/three.md"] = "Three, edited"
	if got := titles(nextCatalog(t, ix)); !reflect.DeepEqual(got, want) {
		t.Errorf("catalog after an edit once watching again:\n got %v\nwant %v", got, want)
	}
}

// TestWatchFailureFallsBackToWalking: a folder that cannot be watched (the
// watch limit, a network file system) turns watching off for good; the
// Catalog that hit it is complete, and every later one walks.
func TestWatchFailureFallsBackToWalking(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a/one.md": doc("One")})
	ix := watchedIndex(t, dir)
	ix.mu.Lock()
	ix.failWatches = true
	ix.mu.Unlock()
	writeTree(t, dir, map[string]string{"b/two.md": doc("Two")})
	want := map[string]string{"a/one.md": "One", "b/two.md": "Two"}
	if got := titles(catalogOf(t, ix)); !reflect.DeepEqual(got, want) {
		t.Errorf("catalog when a watch failed:\n got %v\nwant %v", got, want)
	}
	if ix.isWatching() {
		t.Fatal("still watching after a watch failed")
	}
	mustDo(t, os.WriteFile(filepath.Join(dir, "b/two.md"), []byte(doc("Two, edited")), 0o644))
	want["b/two.md"] = "Two, edited"
	walks := ix.walks.Load()
	if got := titles(catalogOf(t, ix)); !reflect.DeepEqual(got, want) {
		t.Errorf("catalog after an edit, walking:\n got %v\nwant %v", got, want)
	}
	if ix.walks.Load() != walks+1 {
		t.Errorf("Catalog did not walk after watching was turned off")
	}
}

// TestRootRenamedOrTouched: the root's own events (renamed, its times
// changed) walk everything again; the library is still served and watched.
func TestRootRenamedOrTouched(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "lib")
	writeTree(t, dir, map[string]string{"a/one.md": doc("One")})
	ix := watchedIndex(t, dir)
	moved := filepath.Join(base, "moved")
	mustDo(t, os.Rename(dir, moved))
	t.Cleanup(func() { os.Rename(moved, dir) })
	mustDo(t, os.WriteFile(filepath.Join(moved, "a/two.md"), []byte(doc("Two")), 0o644))
	want := map[string]string{"a/one.md": "One", "a/two.md": "Two"}
	if got := titles(catalogOf(t, ix)); !reflect.DeepEqual(got, want) {
		t.Errorf("catalog after the root was renamed:\n got %v\nwant %v", got, want)
	}
	age(t, moved, 0)
	if got := titles(catalogOf(t, ix)); !reflect.DeepEqual(got, want) {
		t.Errorf("catalog after the root was touched:\n got %v\nwant %v", got, want)
	}
	if !ix.isWatching() {
		t.Fatal("not watching after the root's own events")
	}
}

// TestKeptBytes: ReadFile hands out the bytes the first Catalog read, once,
// with no I/O, for small regular files that are not symlinks; after an
// edit (even one keeping the stamp) it reads the file.
func TestKeptBytes(t *testing.T) {
	dir := t.TempDir()
	big := "# Big\n" + strings.Repeat("x", keepMaxFile)
	writeTree(t, dir, map[string]string{"a.md": doc("A"), "b.md": doc("B"), "c.md": doc("C"), "big.md": big})
	if err := os.Symlink("a.md", filepath.Join(dir, "link.md")); err != nil {
		t.Skipf("cannot make symlinks here: %v", err)
	}
	ix := watchedIndex(t, dir)
	ctx := context.Background()
	ix.watchMu.Lock()
	var kept []string
	for p := range ix.kept {
		kept = append(kept, p)
	}
	ix.watchMu.Unlock()
	slices.Sort(kept)
	if want := []string{"a.md", "b.md", "c.md"}; !slices.Equal(kept, want) {
		t.Errorf("kept %q, want %q (not the big file, not the symlink)", kept, want)
	}

	// With the root handle swapped for a closed one, any I/O fails: what
	// ReadFile returns now came from memory.
	other, err := os.OpenRoot(t.TempDir())
	mustDo(t, err)
	mustDo(t, other.Close())
	saved := ix.root
	ix.root = other
	got, stamp, err := ix.ReadFile(ctx, "a.md")
	_, _, again := ix.ReadFile(ctx, "a.md")
	ix.root = saved
	if err != nil || string(got) != doc("A") {
		t.Errorf("ReadFile(a.md) = %q, %v; want the kept bytes", got, err)
	}
	if again == nil {
		t.Error("a second ReadFile(a.md) needed no I/O; want the kept bytes handed out once")
	}
	if st, _ := ix.Stat(ctx, "a.md"); st != stamp {
		t.Errorf("ReadFile(a.md) stamp %+v, Stat %+v", stamp, st)
	}

	// b.md is edited keeping its stamp, c.md removed, with no Catalog
	// since: ReadFile must not serve what it kept.
	writeSameStamp(t, filepath.Join(dir, "b.md"), doc("Z"))
	mustDo(t, os.Remove(filepath.Join(dir, "c.md")))
	if got, _, err := ix.ReadFile(ctx, "b.md"); err != nil || string(got) != doc("Z") {
		t.Errorf("ReadFile(b.md) after an edit = %q, %v; want %q", got, err, doc("Z"))
	}
	if got, _, err := ix.ReadFile(ctx, "c.md"); !errors.Is(err, domain.ErrNotFound) || got != nil {
		t.Errorf("ReadFile(c.md) after its removal = %q, %v; want domain.ErrNotFound", got, err)
	}
	// The next Catalog applies the notices ReadFile drained.
	if got := titles(nextCatalog(t, ix)); !reflect.DeepEqual(got, map[string]string{"a.md": "A", "b.md": "Z", "big.md": "Big", "link.md": "A"}) {
		t.Errorf("catalog after the edits = %v", got)
	}
}

// TestCloseReleasesTheWatcher: Close closes the inotify descriptor.
func TestCloseReleasesTheWatcher(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.md": doc("A")})
	ix, err := New(dir)
	mustDo(t, err)
	catalogOf(t, ix)
	ix.watchMu.Lock()
	fd := ix.watch.fd
	ix.watchMu.Unlock()
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		t.Fatalf("inotify descriptor %d is not open while watching: %v", fd, err)
	}
	mustDo(t, ix.Close())
	if err := syscall.Fstat(fd, &st); err != syscall.EBADF {
		t.Errorf("fstat of the inotify descriptor %d after Close: %v, want EBADF", fd, err)
	}
}

// TestSameStampEditMovesTheCatalogStamp: an in-place edit that keeps size,
// modification time and inode is seen through its notification, and the
// catalog then carries the file's new change time, so a caller caching by
// stamp (the app's parse cache) reads the file again too.
func TestSameStampEditMovesTheCatalogStamp(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.md": doc("A"), "b.md": doc("B")})
	ix := watchedIndex(t, dir)
	stamps := func(cat *domain.Catalog) map[string]domain.Stamp {
		out := map[string]domain.Stamp{}
		for _, d := range cat.Docs {
			out[d.Path] = d.Stamp
		}
		return out
	}
	before := stamps(catalogOf(t, ix))
	writeSameStamp(t, filepath.Join(dir, "a.md"), doc("Z"))
	cat := nextCatalog(t, ix)
	if got := titles(cat); !reflect.DeepEqual(got, map[string]string{"a.md": "Z", "b.md": "B"}) {
		t.Errorf("titles after the edit = %v", got)
	}
	after := stamps(cat)
	if after["a.md"].Equal(before["a.md"]) {
		t.Errorf("catalog stamp of the edited a.md = %+v, as before the edit: want its new change time", after["a.md"])
	}
	if st, err := ix.Stat(context.Background(), "a.md"); err != nil || !st.Equal(after["a.md"]) {
		t.Errorf("catalog stamp of a.md = %+v, Stat = %+v (%v): want equal", after["a.md"], st, err)
	}
	if !after["b.md"].Equal(before["b.md"]) {
		t.Errorf("catalog stamp of the untouched b.md = %+v, was %+v", after["b.md"], before["b.md"])
	}
}
