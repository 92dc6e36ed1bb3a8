//go:build unix

package fileimages_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/fileimages"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/imagestore/imagestoretest"
)

// TestHardLinksAreRefused: an image file that is a hard link (perhaps to a
// file outside the library) is refused unless AllowHardLinks.
func TestHardLinksAreRefused(t *testing.T) {
	dir := t.TempDir()
	writeLibrary(t, dir, []imagestoretest.Image{{ID: "img-ok", File: "ok.png", Bytes: []byte("\x89PNG\r\n\x1a\nok")}})
	outside := filepath.Join(t.TempDir(), "secret.png")
	if err := os.WriteFile(outside, []byte("\x89PNG\r\n\x1a\nsecret"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "images", "ok.png"))
	if err := os.Link(outside, filepath.Join(dir, "images", "ok.png")); err != nil {
		t.Skipf("cannot make hard links here: %v", err)
	}
	ctx := context.Background()
	for _, allow := range []bool{false, true} {
		s, err := fileimages.New(dir, "", fileimages.AllowHardLinks(allow))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		data, err := s.Read(ctx, "img-ok", 1<<20)
		switch {
		case !allow && (!errors.Is(err, domain.ErrRefused) || !strings.Contains(err.Error(), "2 hard links")):
			t.Errorf("Read(img-ok) = %q, %v; want a refusal saying it has 2 hard links", data, err)
		case allow && (err != nil || !strings.HasSuffix(string(data), "secret")):
			t.Errorf("with AllowHardLinks: Read = %q, %v", data, err)
		}
	}
}
