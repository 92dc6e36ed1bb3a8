//go:build unix

package rootfs_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/rootfs"
)

// hardLink links outside (a new file in another folder) as name in dir,
// skipping the test where the file system cannot.
func hardLink(t *testing.T, dir, name string) {
	t.Helper()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, filepath.Join(dir, name)); err != nil {
		t.Skipf("cannot make hard links here: %v", err)
	}
}

// TestHardLinksAreRefused: a hard link inside the root to a file outside
// it is the same file, so no path check sees where it is; a regular file
// with more than one link is refused unless the Access allows it.
func TestHardLinksAreRefused(t *testing.T) {
	dir, r, _ := openRoot(t, map[string]string{"doc.md": "# Doc\n"})
	hardLink(t, dir, "secret.md")

	_, _, err := rootfs.Regular(rootfs.Open(r, "secret.md"))
	var hl *rootfs.HardLinkError
	if !errors.Is(err, rootfs.ErrHardLinked) || !errors.As(err, &hl) || hl.Links != 2 {
		t.Fatalf("Regular(Open(secret.md)) error = %v, want a *HardLinkError of 2 links", err)
	}
	if !strings.Contains(err.Error(), "LIBRARY_ALLOW_HARDLINKS") {
		t.Errorf("error %q does not say how to allow such files", err)
	}
	if _, _, err := (rootfs.Access{}).Regular(rootfs.Open(r, "secret.md")); !errors.Is(err, rootfs.ErrHardLinked) {
		t.Errorf("the zero Access served a hard link: %v", err)
	}
	f, fi, err := rootfs.Access{AllowHardLinks: true}.Regular(rootfs.Open(r, "secret.md"))
	if err != nil || fi.Size() != int64(len("secret\n")) {
		t.Fatalf("with AllowHardLinks: %v", err)
	}
	f.Close()
	f, _, err = rootfs.Regular(rootfs.Open(r, "doc.md"))
	if err != nil {
		t.Fatalf("a file with one link: %v", err)
	}
	f.Close()
	if err := (rootfs.Access{}).Check(fi); !errors.Is(err, rootfs.ErrHardLinked) {
		t.Errorf("Check(a 2-link FileInfo) = %v, want ErrHardLinked", err)
	}
}
