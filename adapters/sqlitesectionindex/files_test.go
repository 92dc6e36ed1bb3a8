package sqlitesectionindex_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/sqlitesectionindex"
)

// TestFilesListsAndRemoves: each index file Open writes records the root
// it serves, so the folder lists every library's index with its root (and
// whether it still exists), its files' size and its last use; Remove takes
// every file of one index and leaves the others; a foreign SQLite file is
// listed with its problem.
func TestFilesListsAndRemoves(t *testing.T) {
	ctx := context.Background()
	dir, libs := t.TempDir(), t.TempDir()
	open := func(name string) string {
		root := filepath.Join(libs, name)
		if err := os.MkdirAll(root, 0o755); err != nil {
			t.Fatal(err)
		}
		ix, err := sqlitesectionindex.Open(ctx, root, dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
		real, _ := filepath.EvalSymlinks(root)
		return real
	}
	kept, gone := open("kept"), open("gone")
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	// Another index's metadata cache beside it, and a foreign database.
	keptFile, _ := sqlitesectionindex.FileFor(dir, kept)
	os.WriteFile(strings.TrimSuffix(keptFile, ".sqlite")+".frontmatter", []byte("cache"), 0o644)
	os.WriteFile(filepath.Join(dir, "other-0000000000000000.sqlite"), []byte("not a database at all, longer than a header would need to be to be read as one"), 0o644)

	files, err := sqlitesectionindex.NewFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	list, err := files.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byRoot := map[string]int{}
	for i, f := range list {
		byRoot[f.Root] = i
		if f.Root != "" && (f.Bytes == 0 || time.Since(f.LastUsed) > time.Minute || f.Files[0] != f.Path) {
			t.Errorf("%s: %+v, want its size, a recent last use and its database first", f.Root, f)
		}
	}
	if len(list) != 3 {
		t.Fatalf("listed %d index files, want 3: %+v", len(list), list)
	}
	k, g := list[byRoot[kept]], list[byRoot[gone]]
	if !k.RootExists || g.RootExists || k.Root != kept || g.Root != gone {
		t.Errorf("roots: kept %+v, gone %+v", k, g)
	}
	if !strings.Contains(strings.Join(k.Files, " "), ".frontmatter") {
		t.Errorf("the kept index's files %q lack its metadata cache", k.Files)
	}
	foreign := list[byRoot[""]]
	if foreign.Problem == "" {
		t.Errorf("a file that is not an index: %+v, want its problem", foreign)
	}

	if err := files.Remove(ctx, g); err != nil {
		t.Fatal(err)
	}
	for _, p := range g.Files {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still there after Remove: %v", p, err)
		}
	}
	if after, _ := files.List(ctx); len(after) != 2 {
		t.Errorf("after Remove: %d files listed, want 2", len(after))
	}
}
