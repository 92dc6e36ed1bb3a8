package rootfs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/rootfs"
	"github.com/librarian/librarian/domain"
)

// openRoot makes the files (slash paths to content) under a new folder and
// opens it as a root with its Links.
func openRoot(t *testing.T, files map[string]string) (string, *os.Root, rootfs.Links) {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return dir, r, rootfs.NewLinks(r, dir, rootfs.EscapeError(r))
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot make symlinks here: %v", err)
	}
}

func TestEscapeError(t *testing.T) {
	_, r, l := openRoot(t, map[string]string{"a.md": "a"})
	escape := rootfs.EscapeError(r)
	if escape == nil {
		t.Fatal("EscapeError = nil, want the root's error for a path leaving it")
	}
	for _, p := range []string{"..", "../x"} {
		if _, err := r.Stat(p); !errors.Is(err, escape) || !l.Escapes(err) {
			t.Errorf("Stat(%q) = %v; want the escape error, and Escapes true", p, err)
		}
	}
	if _, err := r.Stat("nope"); l.Escapes(err) || l.Escapes(nil) {
		t.Errorf("Escapes(%v) or Escapes(nil) = true, want false", err)
	}
}

// TestStamp: the stamp's size and time are the FileInfo's; on Unix it
// carries the inode, on Linux the change time, which an in-place edit of
// the same size with its times put back still moves.
func TestStamp(t *testing.T) {
	dir, _, _ := openRoot(t, map[string]string{"a.md": "old"})
	p := filepath.Join(dir, "a.md")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	stamp := func() (fs.FileInfo, domain.Stamp) {
		t.Helper()
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi, rootfs.Stamp(fi)
	}
	fi, was := stamp()
	if was.Size != 3 || !was.ModTime.Equal(fi.ModTime()) {
		t.Errorf("Stamp = %+v, want size 3 and time %v", was, fi.ModTime())
	}
	if unix := runtime.GOOS != "windows" && runtime.GOOS != "plan9" && runtime.GOOS != "js" && runtime.GOOS != "wasip1"; unix != (was.Inode != 0) {
		t.Errorf("Stamp inode = %d on %s", was.Inode, runtime.GOOS)
	}
	if linux := runtime.GOOS == "linux"; linux == was.Changed.IsZero() {
		t.Fatalf("Stamp change time = %v on %s", was.Changed, runtime.GOOS)
	}
	if runtime.GOOS != "linux" {
		return
	}
	if err := os.WriteFile(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	_, now := stamp()
	// A kernel with coarse timestamps may give the rewrite the first
	// write's tick; touching the times again moves it on.
	for deadline := time.Now().Add(2 * time.Second); now.Changed.Equal(was.Changed) && time.Now().Before(deadline); _, now = stamp() {
		time.Sleep(10 * time.Millisecond)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if now.Size != was.Size || !now.ModTime.Equal(was.ModTime) || now.Inode != was.Inode {
		t.Fatalf("the test needs size, time and inode kept: %+v, was %+v", now, was)
	}
	if now.Equal(was) || !now.Changed.After(was.Changed) {
		t.Errorf("Stamp after an in-place edit with its times put back = %+v, was %+v: want a later change time", now, was)
	}
}

func TestRegular(t *testing.T) {
	_, r, _ := openRoot(t, map[string]string{"a.md": "text", "sub/b.md": "b"})
	f, fi, err := rootfs.Regular(rootfs.Open(r, "a.md"))
	if err != nil || fi.Size() != 4 {
		t.Fatalf("Regular(Open(a.md)) = %v, %v; want the file, 4 bytes", fi, err)
	}
	f.Close()
	if _, _, err := rootfs.Regular(rootfs.Open(r, "sub")); !errors.Is(err, rootfs.ErrNotRegular) {
		t.Errorf("Regular(Open(sub)) error = %v, want ErrNotRegular", err)
	}
	if _, _, err := rootfs.Regular(rootfs.Open(r, "nope.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Regular(Open(nope.md)) error = %v, want the open's fs.ErrNotExist", err)
	}
}

// TestLinks: relative links inside the root and absolute ones that land
// inside are followed; those that land outside keep the root's escape
// error; a loop is ELOOP.
func TestLinks(t *testing.T) {
	dir, r, l := openRoot(t, map[string]string{"docs/a.md": "a", "images/i.png": "png"})
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"relative.md":        "docs/a.md",
		"absolute.md":        filepath.Join(dir, "docs", "a.md"),
		"absolute-folder":    filepath.Join(dir, "docs"),
		"outside.md":         outside,
		"loop-a.md":          filepath.Join(dir, "loop-b.md"),
		"loop-b.md":          filepath.Join(dir, "loop-a.md"),
		"images/absolute.md": filepath.Join(dir, "docs", "a.md"),
		"images/own.png":     filepath.Join(dir, "images", "i.png"),
	} {
		symlink(t, target, filepath.Join(dir, filepath.FromSlash(link)))
	}
	escape := rootfs.EscapeError(r)
	open := func(p string) (*os.File, error) { return rootfs.Open(r, p) }
	tests := []struct {
		path    string
		size    int64 // when no error
		escapes bool
		loop    bool
	}{
		{path: "docs/a.md", size: 1},
		{path: "relative.md", size: 1},
		{path: "absolute.md", size: 1},
		{path: "absolute-folder/a.md", size: 1},
		{path: "outside.md", escapes: true},
		{path: "loop-a.md", loop: true},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			fi, err := rootfs.ResolvingLinks(l, tt.path, r.Stat)
			switch {
			case tt.escapes:
				if !errors.Is(err, escape) {
					t.Errorf("Stat = %v, %v; want the escape error", fi, err)
				}
			case tt.loop:
				if !errors.Is(err, syscall.ELOOP) {
					t.Errorf("Stat = %v, %v; want ELOOP", fi, err)
				}
			case err != nil || fi.Size() != tt.size:
				t.Errorf("Stat = %v, %v; want %d bytes", fi, err, tt.size)
			}
			if tt.escapes || tt.loop {
				if _, err := rootfs.ResolvingLinks(l, tt.path, open); err == nil {
					t.Error("Open succeeded, want the Stat's error")
				}
				return
			}
			f, err := rootfs.ResolvingLinks(l, tt.path, open)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			f.Close()
		})
	}
	if sub, err := rootfs.ResolvingLinks(l, "absolute-folder", r.OpenRoot); err != nil {
		t.Errorf("OpenRoot(absolute-folder): %v", err)
	} else {
		sub.Close()
	}

	// Within the image folder, an absolute link is inside only when it
	// lands in that folder, even if it lands inside the root.
	images, err := r.OpenRoot("images")
	if err != nil {
		t.Fatal(err)
	}
	defer images.Close()
	in := l.Within(images, "images")
	for name, inside := range map[string]bool{"own.png": true, "absolute.md": false} {
		_, err := images.Stat(name)
		if !in.Escapes(err) {
			t.Fatalf("images.Stat(%q) = %v, want the escape error of an absolute link", name, err)
		}
		resolved, err := in.Resolve(name, err)
		if inside && (err != nil || resolved != "i.png") {
			t.Errorf("Within(images).Resolve(%q) = %q, %v; want i.png", name, resolved, err)
		}
		if !inside && !errors.Is(err, escape) {
			t.Errorf("Within(images).Resolve(%q) = %q, %v; want the escape error", name, resolved, err)
		}
	}
}
