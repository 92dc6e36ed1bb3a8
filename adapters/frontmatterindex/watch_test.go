package frontmatterindex

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/rootfs"
	"github.com/librarian/librarian/domain"
)

// The change tests edit a watched library in every way an author, an editor
// or git does, and check that the very next Catalog shows the edit: inotify
// queues an event before the system call that caused it returns, so no
// sleep is needed. On Linux they also check the edit was seen through the
// notifications (no full walk); elsewhere the walk sees it.

// isWatching reports whether ix watches for changes.
func (ix *Index) isWatching() bool {
	ix.watchMu.Lock()
	defer ix.watchMu.Unlock()
	return ix.watch != nil
}

// watchedIndex opens an index over dir and builds its first catalog; on
// Linux it must be watching from then on.
func watchedIndex(t *testing.T, dir string, opts ...Option) *Index {
	t.Helper()
	ix := openIndex(t, dir, opts...)
	catalogOf(t, ix)
	if runtime.GOOS == "linux" && !ix.isWatching() {
		t.Fatal("the index does not watch the library after its first Catalog")
	}
	return ix
}

// nextCatalog returns the next catalog and, while watching, checks it came
// from the notifications, not from a full walk.
func nextCatalog(t *testing.T, ix *Index) *domain.Catalog {
	t.Helper()
	watching := ix.isWatching()
	walks := ix.walks.Load()
	cat := catalogOf(t, ix)
	if watching && ix.walks.Load() != walks {
		t.Errorf("Catalog walked the whole library again; want only the folders the notifications name")
	}
	return cat
}

// titles maps each doc's path to its title.
func titles(cat *domain.Catalog) map[string]string {
	out := map[string]string{}
	for _, d := range cat.Docs {
		out[d.Path] = d.Title
	}
	return out
}

func doc(title string) string { return "---\ntitle: " + title + "\n---\n# Body\n" }

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// writeSameStamp rewrites a file in place with content of the same size and
// puts its modification time back, so its size, time and inode are
// unchanged. Only its change time moves (user space cannot set it), and a
// watched Catalog stats no file: only the notification can tell.
func writeSameStamp(t *testing.T, p, content string) {
	t.Helper()
	info, err := os.Stat(p)
	mustDo(t, err)
	if int64(len(content)) != info.Size() {
		t.Fatalf("the test needs content of the same size: %d bytes, the file has %d", len(content), info.Size())
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	mustDo(t, err)
	_, err = f.WriteAt([]byte(content), 0)
	mustDo(t, err)
	mustDo(t, f.Close())
	mustDo(t, os.Chtimes(p, info.ModTime(), info.ModTime()))
	after, err := os.Stat(p)
	mustDo(t, err)
	if got, was := withoutChangeTime(rootfs.Stamp(after)), withoutChangeTime(rootfs.Stamp(info)); got != was {
		t.Fatalf("the stamp changed beyond its change time: %+v, was %+v", got, was)
	}
}

func TestChangesShowInTheNextCatalog(t *testing.T) {
	base := map[string]string{
		"index.md":          "---\ntags: [root]\n---\n",
		"top.md":            doc("Top"),
		"docs/index.md":     "---\ntags: [docs]\n---\n",
		"docs/a.md":         doc("A"),
		"docs/b.md":         doc("B"),
		"docs/deep/c.md":    doc("C"),
		"docs/deep/x/y.md":  doc("Y"),
		"other/keep.md":     doc("Keep"),
		"other/sub/more.md": doc("More"),
	}
	tests := []struct {
		name          string
		sameStampOnly bool // only change notification can see it
		change        func(t *testing.T, dir string)
		want          map[string]string // path -> title; nil entries absent
	}{
		{
			name:          "edit in place, same size and time",
			sameStampOnly: true,
			change: func(t *testing.T, dir string) {
				writeSameStamp(t, filepath.Join(dir, "docs/a.md"), doc("Z"))
			},
			want: map[string]string{"docs/a.md": "Z"},
		},
		{
			name: "edit that changes the size",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.WriteFile(filepath.Join(dir, "docs/a.md"), []byte(doc("A, edited")), 0o644))
			},
			want: map[string]string{"docs/a.md": "A, edited"},
		},
		{
			name: "add a file",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.WriteFile(filepath.Join(dir, "docs/deep/new.md"), []byte(doc("New")), 0o644))
			},
			want: map[string]string{"docs/deep/new.md": "New"},
		},
		{
			name: "add a file in the root",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.WriteFile(filepath.Join(dir, "new.md"), []byte(doc("New")), 0o644))
			},
			want: map[string]string{"new.md": "New"},
		},
		{
			name: "remove a file",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.Remove(filepath.Join(dir, "docs/b.md")))
			},
			want: map[string]string{"docs/b.md": ""},
		},
		{
			name: "rename a file in its folder",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.Rename(filepath.Join(dir, "docs/b.md"), filepath.Join(dir, "docs/renamed.md")))
			},
			want: map[string]string{"docs/b.md": "", "docs/renamed.md": "B"},
		},
		{
			name: "move a file to another folder",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.Rename(filepath.Join(dir, "docs/b.md"), filepath.Join(dir, "other/sub/b.md")))
			},
			want: map[string]string{"docs/b.md": "", "other/sub/b.md": "B"},
		},
		{
			name: "rename a file to a non-doc name",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.Rename(filepath.Join(dir, "docs/b.md"), filepath.Join(dir, "docs/b.txt")))
			},
			want: map[string]string{"docs/b.md": ""},
		},
		{
			name: "rename a folder",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.Rename(filepath.Join(dir, "docs/deep"), filepath.Join(dir, "docs/moved")))
			},
			want: map[string]string{"docs/deep/c.md": "", "docs/deep/x/y.md": "", "docs/moved/c.md": "C", "docs/moved/x/y.md": "Y"},
		},
		{
			name: "rename a folder, then edit a file in it",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.Rename(filepath.Join(dir, "docs/deep"), filepath.Join(dir, "docs/moved")))
				writeSameStamp(t, filepath.Join(dir, "docs/moved/x/y.md"), doc("Q"))
			},
			want: map[string]string{"docs/deep/c.md": "", "docs/deep/x/y.md": "", "docs/moved/c.md": "C", "docs/moved/x/y.md": "Q"},
		},
		{
			name: "move a folder under another",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.Rename(filepath.Join(dir, "other"), filepath.Join(dir, "docs/deep/other")))
			},
			want: map[string]string{"other/keep.md": "", "other/sub/more.md": "", "docs/deep/other/keep.md": "Keep", "docs/deep/other/sub/more.md": "More"},
		},
		{
			name: "hide a folder, and show another",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.Rename(filepath.Join(dir, "other"), filepath.Join(dir, ".other")))
				mustDo(t, os.MkdirAll(filepath.Join(dir, ".drafts/d"), 0o755))
				mustDo(t, os.WriteFile(filepath.Join(dir, ".drafts/d/draft.md"), []byte(doc("Draft")), 0o644))
				mustDo(t, os.Rename(filepath.Join(dir, ".drafts"), filepath.Join(dir, "drafts")))
			},
			want: map[string]string{"other/keep.md": "", "other/sub/more.md": "", "drafts/d/draft.md": "Draft"},
		},
		{
			name: "move a folder in from outside the root",
			change: func(t *testing.T, dir string) {
				outside := t.TempDir()
				writeTree(t, outside, map[string]string{"in/one.md": doc("One"), "in/two/two.md": doc("Two")})
				mustDo(t, os.Rename(filepath.Join(outside, "in"), filepath.Join(dir, "docs/in")))
			},
			want: map[string]string{"docs/in/one.md": "One", "docs/in/two/two.md": "Two"},
		},
		{
			name: "new subfolders with files made at once",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.MkdirAll(filepath.Join(dir, "fresh/a/b"), 0o755))
				mustDo(t, os.WriteFile(filepath.Join(dir, "fresh/top.md"), []byte(doc("Fresh top")), 0o644))
				mustDo(t, os.WriteFile(filepath.Join(dir, "fresh/a/b/deep.md"), []byte(doc("Fresh deep")), 0o644))
			},
			want: map[string]string{"fresh/top.md": "Fresh top", "fresh/a/b/deep.md": "Fresh deep"},
		},
		{
			name: "remove a folder",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.RemoveAll(filepath.Join(dir, "docs/deep")))
			},
			want: map[string]string{"docs/deep/c.md": "", "docs/deep/x/y.md": ""},
		},
		{
			name: "remove a folder of the root and make it again, same names and sizes",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.RemoveAll(filepath.Join(dir, "other")))
				writeTree(t, dir, map[string]string{"other/keep.md": doc("Kept"), "other/sub/more.md": doc("Mare")})
			},
			want: map[string]string{"other/keep.md": "Kept", "other/sub/more.md": "Mare"},
		},
		{
			name: "atomic save: write a temporary file, rename it over the doc",
			change: func(t *testing.T, dir string) {
				tmp := filepath.Join(dir, "docs/.a.md.swp")
				mustDo(t, os.WriteFile(tmp, []byte(doc("Saved")), 0o644))
				mustDo(t, os.Rename(tmp, filepath.Join(dir, "docs/a.md")))
			},
			want: map[string]string{"docs/a.md": "Saved"},
		},
		{
			name: "atomic save with a backup: rename the doc away, write it anew",
			change: func(t *testing.T, dir string) {
				p := filepath.Join(dir, "docs/a.md")
				mustDo(t, os.Rename(p, p+"~"))
				mustDo(t, os.WriteFile(p, []byte(doc("Rewritten")), 0o644))
			},
			want: map[string]string{"docs/a.md": "Rewritten"},
		},
		{
			name: "replace a folder by a file of the same name",
			change: func(t *testing.T, dir string) {
				mustDo(t, os.RemoveAll(filepath.Join(dir, "other")))
				mustDo(t, os.WriteFile(filepath.Join(dir, "other"), []byte("not a folder"), 0o644))
			},
			want: map[string]string{"other/keep.md": "", "other/sub/more.md": ""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.sameStampOnly && runtime.GOOS != "linux" {
				t.Skip("only change notification (Linux) sees an edit that keeps the stamp")
			}
			dir := t.TempDir()
			writeTree(t, dir, base)
			ix := watchedIndex(t, dir)
			want := titles(catalogOf(t, ix))
			for p, title := range tt.want {
				if title == "" {
					delete(want, p)
				} else {
					want[p] = title
				}
			}
			tt.change(t, dir)
			cat := nextCatalog(t, ix)
			if got := titles(cat); !reflect.DeepEqual(got, want) {
				t.Errorf("catalog after the change:\n got %v\nwant %v", got, want)
			}
			// The catalog carries current stamps, and settles: the next
			// call, with nothing changed, gives the same.
			for _, d := range cat.Docs {
				if st, err := ix.Stat(context.Background(), d.Path); err != nil || st != d.Stamp {
					t.Errorf("stamp of %s = %+v, Stat = %+v (%v)", d.Path, d.Stamp, st, err)
				}
			}
			if again := titles(nextCatalog(t, ix)); !reflect.DeepEqual(again, want) {
				t.Errorf("catalog a call later:\n got %v\nwant %v", again, want)
			}
			// The folders made or moved by the change are watched: an edit
			// in any of them shows too.
			for _, d := range cat.Docs {
				p := filepath.Join(dir, filepath.FromSlash(d.Path))
				mustDo(t, os.WriteFile(p, []byte(doc("Last "+d.Path)), 0o644))
				want[d.Path] = "Last " + d.Path
			}
			if got := titles(nextCatalog(t, ix)); !reflect.DeepEqual(got, want) {
				t.Errorf("catalog after editing every doc:\n got %v\nwant %v", got, want)
			}
		})
	}
}

// TestIndexEditReachesEveryDocBelow: an index.md edit changes the tags
// every doc below it inherits, down to the deepest.
func TestIndexEditReachesEveryDocBelow(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"index.md":         "---\ntags: [root]\n---\n",
		"a/index.md":       "---\ntags: [aa]\n---\n",
		"a/doc.md":         "---\ntags: [own]\n---\n",
		"a/b/c/deep.md":    "# Deep\n",
		"z/untouched.md":   "# Z\n",
		"a/b/c/index.md":   "---\ntags: [c]\n---\n",
		"a/b/c/d/below.md": "# Below\n",
	})
	ix := watchedIndex(t, dir)
	for _, edit := range []struct {
		name    string
		content string
		want    map[string][]string
	}{
		{"edit a folder's index.md", "---\ntags: [ab]\n---\n", map[string][]string{
			"a/b/c/d/below.md": {"root", "ab", "c"},
			"a/b/c/deep.md":    {"root", "ab", "c"},
			"a/b/c/index.md":   {"root", "ab", "c"},
			"a/doc.md":         {"root", "ab", "own"},
			"a/index.md":       {"root", "ab"},
			"index.md":         {"root"},
			"z/untouched.md":   {"root"},
		}},
		{"same size and time", "---\ntags: [xy]\n---\n", map[string][]string{
			"a/b/c/d/below.md": {"root", "xy", "c"},
			"a/b/c/deep.md":    {"root", "xy", "c"},
			"a/b/c/index.md":   {"root", "xy", "c"},
			"a/doc.md":         {"root", "xy", "own"},
			"a/index.md":       {"root", "xy"},
			"index.md":         {"root"},
			"z/untouched.md":   {"root"},
		}},
	} {
		p := filepath.Join(dir, "a/index.md")
		if edit.name == "same size and time" {
			if runtime.GOOS != "linux" {
				continue
			}
			writeSameStamp(t, p, edit.content)
		} else {
			mustDo(t, os.WriteFile(p, []byte(edit.content), 0o644))
		}
		if got := tagsByPath(nextCatalog(t, ix)); !reflect.DeepEqual(got, edit.want) {
			t.Errorf("%s: tags:\n got %q\nwant %q", edit.name, got, edit.want)
		}
	}
	// Removing the root's index.md takes its tag off everything.
	mustDo(t, os.Remove(filepath.Join(dir, "index.md")))
	for p, tags := range tagsByPath(nextCatalog(t, ix)) {
		if len(tags) > 0 && tags[0] == "root" {
			t.Errorf("%s still has the root's tag after its index.md was removed: %q", p, tags)
		}
	}
}

// TestSymlinkTargetEditIsSeen: an edit of a symlink's target raises events
// in the target's folder only; the link shows it too.
func TestSymlinkTargetEditIsSeen(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"docs/real.md":    doc("Real"),
		"aliases/keep.md": doc("Keep"),
		".hidden/h.md":    doc("Hidden"),
	})
	for link, target := range map[string]string{
		"aliases/alias.md":  "../docs/real.md",
		"aliases/hidden.md": "../.hidden/h.md",
		"aliases/later.md":  "../docs/later.md", // dangles at first
		// Absolute: os.Root refuses it; it is resolved through the root.
		"aliases/absolute.md": filepath.Join(dir, "docs", "real.md"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Skipf("cannot make symlinks here: %v", err)
		}
	}
	ix := watchedIndex(t, dir)
	check := func(step string, want map[string]string) {
		t.Helper()
		cat := nextCatalog(t, ix)
		if got := titles(cat); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %v\nwant %v", step, got, want)
		}
	}
	want := map[string]string{"aliases/absolute.md": "Real", "aliases/alias.md": "Real", "aliases/hidden.md": "Hidden", "aliases/keep.md": "Keep", "docs/real.md": "Real"}
	check("at first", want)

	mustDo(t, os.WriteFile(filepath.Join(dir, "docs/real.md"), []byte(doc("Real, edited")), 0o644))
	want["aliases/alias.md"], want["aliases/absolute.md"], want["docs/real.md"] = "Real, edited", "Real, edited", "Real, edited"
	check("after an edit of the target", want)

	if runtime.GOOS == "linux" {
		// Settle the target (read long after its modification time, so
		// its stamp is trusted), then edit it in place keeping the stamp.
		age(t, filepath.Join(dir, "docs/real.md"), time.Hour)
		check("after the target was aged", want)
		writeSameStamp(t, filepath.Join(dir, "docs/real.md"), doc("Rael, edited"))
		want["aliases/alias.md"], want["aliases/absolute.md"], want["docs/real.md"] = "Rael, edited", "Rael, edited", "Rael, edited"
		check("after an edit of the target keeping its stamp", want)
	}

	// A folder nobody watches (hidden): the link is stat'ed on every call.
	mustDo(t, os.WriteFile(filepath.Join(dir, ".hidden/h.md"), []byte(doc("Hidden, edited")), 0o644))
	want["aliases/hidden.md"] = "Hidden, edited"
	check("after an edit of a target in a hidden folder", want)

	mustDo(t, os.WriteFile(filepath.Join(dir, "docs/later.md"), []byte(doc("Later")), 0o644))
	want["aliases/later.md"], want["docs/later.md"] = "Later", "Later"
	check("after the target of a dangling link appeared", want)

	mustDo(t, os.Remove(filepath.Join(dir, "docs/real.md")))
	delete(want, "aliases/alias.md")
	delete(want, "aliases/absolute.md")
	delete(want, "docs/real.md")
	check("after the target was removed", want)
}

// TestHardLinkEditThroughAnotherNameIsSeen: a file with another name
// outside the root (served only with AllowHardLinks) is edited through that
// name: no event in the library, so such files are stat'ed on every call.
func TestHardLinkEditThroughAnotherNameIsSeen(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "elsewhere.md")
	writeTree(t, dir, map[string]string{"linked.md": doc("Linked"), "plain.md": doc("Plain")})
	if err := os.Link(filepath.Join(dir, "linked.md"), outside); err != nil {
		t.Skipf("cannot make hard links here: %v", err)
	}
	ix := watchedIndex(t, dir, AllowHardLinks(true))
	mustDo(t, os.WriteFile(outside, []byte(doc("Linked, edited")), 0o644))
	want := map[string]string{"linked.md": "Linked, edited", "plain.md": "Plain"}
	if got := titles(nextCatalog(t, ix)); !reflect.DeepEqual(got, want) {
		t.Errorf("after an edit through the other name:\n got %v\nwant %v", got, want)
	}
}
