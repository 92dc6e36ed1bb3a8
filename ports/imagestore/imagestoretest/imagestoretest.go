// Package imagestoretest is the contract suite of the imagestore port: every
// image store (adapters/fileimages, ...) runs Run unchanged, in the manner
// of testing/fstest.TestFS. The suite owns the images (real PNGs made with
// image/png); the adapter's open function lays them out its own way.
//
// The suite does not know that layout, so to reach a file it looks for the
// one holding an image's bytes, and to edit the index it calls open again
// on the same folder and keeps using the store it opened first.
package imagestoretest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/imagestore"
)

// Image is one image of the suite: an index entry and the file's bytes.
type Image struct {
	ID, File, Caption string
	Bytes             []byte
}

// openFunc is Run's open: it writes images (the index and the files) under
// dir in the adapter's layout, replacing what it wrote there before, and
// opens a store over dir.
type openFunc = func(t *testing.T, dir string, images []Image) imagestore.Store

// PNG encodes a small w×h image of one colour, a real PNG for tests.
func PNG(t testing.TB, w, h int, c color.RGBA) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Images returns the suite's images: one in a subfolder, one without a
// caption, a non-ASCII caption, each with distinct bytes.
func Images(t testing.TB) []Image {
	return []Image{
		{ID: "img-login-sequence", File: "login-sequence.png", Caption: "Login sequence: client, gateway, token service",
			Bytes: PNG(t, 3, 2, color.RGBA{R: 200, A: 255})},
		{ID: "img-fanout", File: "diagrams/fanout.png", Caption: "Fan-out deletes – “before” and after",
			Bytes: PNG(t, 4, 4, color.RGBA{G: 180, A: 255})},
		{ID: "img-plain", File: "plain.png", Bytes: PNG(t, 1, 1, color.RGBA{B: 160, A: 255})},
	}
}

const noLimit = 1 << 30

// Run checks every property of the imagestore.Store contract, one subtest
// each. open writes images (the index and the files) under dir in the
// adapter's layout, replacing what it wrote there before, and opens a store
// over dir.
func Run(t *testing.T, open func(t *testing.T, dir string, images []Image) imagestore.Store) {
	t.Helper()
	t.Run("ImagesListsIDsWithCaptions", func(t *testing.T) { testImages(t, open) })
	t.Run("ReadReturnsExactBytes", func(t *testing.T) { testRead(t, open) })
	t.Run("UnknownIDIsNotFound", func(t *testing.T) { testUnknown(t, open) })
	t.Run("OverMaxBytesIsTooLarge", func(t *testing.T) { testTooLarge(t, open) })
	t.Run("SymlinkOutsideImageFolderIsRefused", func(t *testing.T) { testSymlinkOutside(t, open) })
	t.Run("SymlinkInsideImageFolderIsFine", func(t *testing.T) { testSymlinkInside(t, open) })
	t.Run("IndexEditsShowNextCall", func(t *testing.T) { testEdits(t, open) })
	t.Run("ConcurrentCallsAreSafe", func(t *testing.T) { testConcurrent(t, open) })
	t.Run("ReadFileReadsAnyFileOfTheRoot", func(t *testing.T) { testReadFile(t, open) })
	t.Run("ReadFileMissingIsNotFound", func(t *testing.T) { testReadFileMissing(t, open) })
	t.Run("ReadFileOverMaxBytesIsTooLarge", func(t *testing.T) { testReadFileTooLarge(t, open) })
	t.Run("ReadFileOutsideTheRootIsRefused", func(t *testing.T) { testReadFileOutside(t, open) })
	t.Run("ReadFileSymlinkInsideTheRootIsFine", func(t *testing.T) { testReadFileLinksInside(t, open) })
}

// A standard image's file, written by the suite under the library root:
// outside any image index folder, in a subfolder of the docs.
const docImage = "docs/img/arch.png"

func writeFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func testReadFile(t *testing.T, open openFunc) {
	_, dir := library(t)
	imgs := Images(t)
	arch := PNG(t, 7, 3, color.RGBA{R: 70, G: 70, A: 255})
	writeFile(t, filepath.Join(dir, filepath.FromSlash(docImage)), arch)
	top := PNG(t, 2, 2, color.RGBA{B: 70, A: 255})
	writeFile(t, filepath.Join(dir, "top.png"), top)
	s := open(t, dir, imgs)
	ctx := context.Background()
	want := map[string][]byte{docImage: arch, "top.png": top}
	for _, img := range imgs { // the index's files are files of the root too
		rel, err := filepath.Rel(dir, fileOf(t, dir, img))
		if err != nil {
			t.Fatal(err)
		}
		want[filepath.ToSlash(rel)] = img.Bytes
	}
	for p, b := range want {
		if got, err := s.ReadFile(ctx, p, noLimit); err != nil || !bytes.Equal(got, b) {
			t.Errorf("ReadFile(%q) = %d bytes, %v; want its %d bytes", p, len(got), err, len(b))
		}
		if got, err := s.ReadFile(ctx, p, int64(len(b))); err != nil || !bytes.Equal(got, b) {
			t.Errorf("ReadFile(%q, maxBytes = its size) = %d bytes, %v; want its bytes", p, len(got), err)
		}
	}
	// No image index at all: the files still read.
	bare := t.TempDir()
	writeFile(t, filepath.Join(bare, "top.png"), top)
	if got, err := open(t, bare, nil).ReadFile(ctx, "top.png", noLimit); err != nil || !bytes.Equal(got, top) {
		t.Errorf("ReadFile(%q) in a library without images = %d bytes, %v; want its bytes", "top.png", len(got), err)
	}
}

func testReadFileMissing(t *testing.T, open openFunc) {
	_, dir := library(t)
	writeFile(t, filepath.Join(dir, filepath.FromSlash(docImage)), PNG(t, 1, 1, color.RGBA{A: 255}))
	s := open(t, dir, Images(t))
	for _, p := range []string{"nope.png", "docs/img/nope.png", "no/such/folder.png", docImage + "/under-a-file.png"} {
		got, err := s.ReadFile(context.Background(), p, noLimit)
		if !errors.Is(err, domain.ErrNotFound) || got != nil {
			t.Errorf("ReadFile(%q) = %d bytes, %v; want no bytes and domain.ErrNotFound", p, len(got), err)
		}
	}
}

func testReadFileTooLarge(t *testing.T, open openFunc) {
	_, dir := library(t)
	arch := PNG(t, 7, 3, color.RGBA{R: 70, A: 255})
	writeFile(t, filepath.Join(dir, filepath.FromSlash(docImage)), arch)
	s := open(t, dir, nil)
	for _, limit := range []int64{int64(len(arch)) - 1, 0, -1} {
		got, err := s.ReadFile(context.Background(), docImage, limit)
		if !errors.Is(err, domain.ErrTooLarge) || got != nil {
			t.Errorf("ReadFile(%q, maxBytes %d) of a %d-byte file = %d bytes, %v; want no bytes and domain.ErrTooLarge", docImage, limit, len(arch), len(got), err)
		}
	}
}

func testReadFileOutside(t *testing.T, open openFunc) {
	base, dir := library(t)
	secret := PNG(t, 5, 5, color.RGBA{R: 1, G: 2, B: 3, A: 255})
	outside := filepath.Join(base, "outside", "secret.png")
	writeFile(t, outside, secret)
	writeFile(t, filepath.Join(dir, filepath.FromSlash(docImage)), PNG(t, 1, 1, color.RGBA{A: 255}))
	s := open(t, dir, nil)
	ctx := context.Background()
	check := func(p, how string) {
		t.Helper()
		got, err := s.ReadFile(ctx, p, noLimit)
		if !errors.Is(err, domain.ErrRefused) || got != nil {
			t.Errorf("ReadFile(%q), %s = %d bytes, %v; want no bytes and domain.ErrRefused", p, how, len(got), err)
		}
		if out := strings.Contains(how, "out of the library") || strings.Contains(how, "sibling"); out != errors.Is(err, domain.ErrOutsideRoot) {
			t.Errorf("ReadFile(%q), %s: %v; wraps domain.ErrOutsideRoot: %v, want %v", p, how, err, !out, out)
		}
	}
	// Paths that are no clean relative path are refused before any look.
	for _, p := range []string{"../outside/secret.png", "docs/../../outside/secret.png", "/etc/passwd", outside, `docs\img\arch.png`, "", ".", "docs//img/arch.png", "./top.png"} {
		check(p, "a path that is no clean relative path")
	}
	check("docs", "a folder")

	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("cannot make symlinks here: %v", err)
		}
	}
	rel, err := filepath.Rel(dir, outside)
	if err != nil {
		t.Fatal(err)
	}
	link(rel, "relative-out.png")
	check("relative-out.png", "a relative symlink out of the library")
	link(outside, "absolute-out.png")
	check("absolute-out.png", "an absolute symlink out of the library")
	link(filepath.Join(base, "outside"), "outdir")
	check("outdir/secret.png", "a folder on the way a symlink out of the library")
	evil := dir + "_evil"
	writeFile(t, filepath.Join(evil, "secret.png"), secret)
	link(filepath.Join(evil, "secret.png"), "prefix-out.png")
	check("prefix-out.png", "an absolute symlink to a sibling folder sharing the root's name as a prefix")
	link(filepath.Join(dir, "loop.png"), "loop.png")
	check("loop.png", "an absolute symlink to itself")
	link("self.png", "self.png")
	check("self.png", "a relative symlink to itself")
}

func testReadFileLinksInside(t *testing.T, open openFunc) {
	_, dir := library(t)
	arch := PNG(t, 7, 3, color.RGBA{G: 70, A: 255})
	real := filepath.Join(dir, filepath.FromSlash(docImage))
	writeFile(t, real, arch)
	s := open(t, dir, nil)
	for name, target := range map[string]string{
		"relative.png":   filepath.FromSlash(docImage),
		"absolute.png":   real,
		"docs/alias.png": filepath.Join("img", "arch.png"),
		"imgdir":         filepath.Join(dir, "docs", "img"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Skipf("cannot make symlinks here: %v", err)
		}
	}
	for _, p := range []string{"relative.png", "absolute.png", "docs/alias.png", "imgdir/arch.png"} {
		if got, err := s.ReadFile(context.Background(), p, noLimit); err != nil || !bytes.Equal(got, arch) {
			t.Errorf("ReadFile(%q), a symlink inside the library = %d bytes, %v; want its bytes", p, len(got), err)
		}
	}
}

// library makes base/lib (passed to open) and base/outside.
func library(t *testing.T) (base, dir string) {
	t.Helper()
	base = t.TempDir()
	dir = filepath.Join(base, "lib")
	for _, d := range []string{dir, filepath.Join(base, "outside")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return base, dir
}

func images(t *testing.T, s imagestore.Store) map[string]domain.Image {
	t.Helper()
	m, err := s.Images(context.Background())
	if err != nil {
		t.Fatalf("Images: %v", err)
	}
	return m
}

func checkImages(t *testing.T, got map[string]domain.Image, want []Image) {
	t.Helper()
	var gotIDs, wantIDs []string
	for id := range got {
		gotIDs = append(gotIDs, id)
	}
	for _, w := range want {
		wantIDs = append(wantIDs, w.ID)
		if g, ok := got[w.ID]; ok && (g.ID != w.ID || g.Caption != w.Caption) {
			t.Errorf("Images()[%q] = {ID %q, Caption %q}, want {ID %q, Caption %q}", w.ID, g.ID, g.Caption, w.ID, w.Caption)
		}
	}
	slices.Sort(gotIDs)
	slices.Sort(wantIDs)
	if !slices.Equal(gotIDs, wantIDs) {
		t.Errorf("Images() ids = %q, want %q", gotIDs, wantIDs)
	}
}

func testImages(t *testing.T, open openFunc) {
	_, dir := library(t)
	want := Images(t)
	s := open(t, dir, want)
	checkImages(t, images(t, s), want)
	checkImages(t, images(t, s), want) // a second call, from the cache, agrees

	empty := open(t, t.TempDir(), nil)
	if got := images(t, empty); len(got) != 0 {
		t.Errorf("Images() of an empty index = %v, want none", got)
	}
}

func testRead(t *testing.T, open openFunc) {
	_, dir := library(t)
	imgs := Images(t)
	s := open(t, dir, imgs)
	for _, img := range imgs {
		got, err := s.Read(context.Background(), img.ID, noLimit)
		if err != nil || !bytes.Equal(got, img.Bytes) {
			t.Errorf("Read(%q) = %d bytes, %v; want its %d bytes", img.ID, len(got), err, len(img.Bytes))
			continue
		}
		if _, err := png.Decode(bytes.NewReader(got)); err != nil {
			t.Errorf("Read(%q) is not a PNG: %v", img.ID, err)
		}
		// A limit of exactly the size is not exceeded.
		if got, err := s.Read(context.Background(), img.ID, int64(len(img.Bytes))); err != nil || !bytes.Equal(got, img.Bytes) {
			t.Errorf("Read(%q, maxBytes = its size) = %d bytes, %v; want its bytes", img.ID, len(got), err)
		}
	}
}

func testUnknown(t *testing.T, open openFunc) {
	_, dir := library(t)
	s := open(t, dir, Images(t))
	for _, id := range []string{"img-missing", "", "IMG-LOGIN-SEQUENCE", "login-sequence.png", "../img-plain"} {
		got, err := s.Read(context.Background(), id, noLimit)
		if !errors.Is(err, domain.ErrNotFound) || got != nil {
			t.Errorf("Read(%q) = %d bytes, %v; want no bytes and an error wrapping domain.ErrNotFound", id, len(got), err)
		}
	}
}

func testTooLarge(t *testing.T, open openFunc) {
	_, dir := library(t)
	imgs := Images(t)
	s := open(t, dir, imgs)
	for _, img := range imgs {
		for _, limit := range []int64{int64(len(img.Bytes)) - 1, 0} {
			got, err := s.Read(context.Background(), img.ID, limit)
			if !errors.Is(err, domain.ErrTooLarge) || got != nil {
				t.Errorf("Read(%q, maxBytes %d) of a %d-byte image = %d bytes, %v; want no bytes and domain.ErrTooLarge",
					img.ID, limit, len(img.Bytes), len(got), err)
			}
		}
	}
}

// fileOf finds the file open laid out for img: the one holding its bytes.
func fileOf(t *testing.T, dir string, img Image) string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		if b, err := os.ReadFile(p); err == nil && bytes.Equal(b, img.Bytes) {
			found = append(found, p)
		}
		return nil
	})
	if err != nil || len(found) != 1 {
		t.Fatalf("looking for the file of %q under %s: found %q, %v; want exactly one", img.ID, dir, found, err)
	}
	return found[0]
}

func replaceWithSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot make symlinks here: %v", err)
	}
}

func testSymlinkOutside(t *testing.T, open openFunc) {
	base, dir := library(t)
	imgs := Images(t)
	secret := PNG(t, 5, 5, color.RGBA{R: 1, G: 2, B: 3, A: 255})
	if err := os.WriteFile(filepath.Join(base, "outside", "secret.png"), secret, 0o644); err != nil {
		t.Fatal(err)
	}
	s := open(t, dir, imgs)

	check := func(img Image, how string) {
		t.Helper()
		got, err := s.Read(context.Background(), img.ID, noLimit)
		if !errors.Is(err, domain.ErrRefused) || got != nil {
			t.Errorf("Read(%q), %s = %d bytes, %v; want no bytes and domain.ErrRefused", img.ID, how, len(got), err)
		}
	}

	// Out of the library altogether, by a relative and an absolute link.
	relFile := fileOf(t, dir, imgs[0])
	rel, err := filepath.Rel(filepath.Dir(relFile), filepath.Join(base, "outside", "secret.png"))
	if err != nil {
		t.Fatal(err)
	}
	replaceWithSymlink(t, rel, relFile)
	check(imgs[0], "a relative symlink out of the library")
	absFile := fileOf(t, dir, imgs[2])
	replaceWithSymlink(t, filepath.Join(base, "outside", "secret.png"), absFile)
	check(imgs[2], "an absolute symlink out of the library")

	// Inside the library but outside the image folder (the folder of a
	// top-level image's file), when those differ, by a relative and an
	// absolute link.
	folder := filepath.Dir(absFile)
	if folder != dir {
		sibling := filepath.Join(dir, "not-an-image-folder.png")
		if err := os.WriteFile(sibling, secret, 0o644); err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(folder, sibling)
		if err != nil {
			t.Fatal(err)
		}
		replaceWithSymlink(t, rel, absFile)
		check(imgs[2], "a symlink to the library root, outside the image folder")
		replaceWithSymlink(t, sibling, absFile)
		check(imgs[2], "an absolute symlink to the library root, outside the image folder")
	}

	// A sibling whose name starts with the folder's: "/x/images_evil" is not
	// inside "/x/images". One absolute link names it, another starts with
	// the folder's path and climbs out.
	evil := folder + "_evil"
	if err := os.MkdirAll(evil, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(evil, "secret.png"), secret, 0o644); err != nil {
		t.Fatal(err)
	}
	replaceWithSymlink(t, filepath.Join(evil, "secret.png"), absFile)
	check(imgs[2], "an absolute symlink to a sibling folder sharing the folder's name as a prefix")
	replaceWithSymlink(t, folder+string(filepath.Separator)+filepath.Join("..", filepath.Base(evil), "secret.png"), absFile)
	check(imgs[2], "an absolute symlink that starts inside the folder and climbs out")

	// Loops, absolute and relative, are refused, not followed forever.
	replaceWithSymlink(t, absFile, absFile)
	check(imgs[2], "an absolute symlink to itself")
	replaceWithSymlink(t, filepath.Base(absFile), absFile)
	check(imgs[2], "a relative symlink to itself")

	// The other images still read.
	if got, err := s.Read(context.Background(), imgs[1].ID, noLimit); err != nil || !bytes.Equal(got, imgs[1].Bytes) {
		t.Errorf("Read(%q) beside refused images = %d bytes, %v; want its bytes", imgs[1].ID, len(got), err)
	}
}

// testSymlinkInside: links that land inside the image folder are fine,
// relative or absolute (which os.Root refuses outright), to a file or to a
// folder on the way.
func testSymlinkInside(t *testing.T, open openFunc) {
	_, dir := library(t)
	imgs := Images(t)
	s := open(t, dir, imgs)
	folder := filepath.Dir(fileOf(t, dir, imgs[0])) // the folder of a top-level image
	files := make([]string, len(imgs))
	for i, img := range imgs {
		files[i] = fileOf(t, dir, img)
	}
	moved := filepath.Join(folder, "moved")
	if err := os.MkdirAll(moved, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, file := range files {
		target := filepath.Join(moved, fmt.Sprintf("%d.png", i))
		if err := os.Rename(file, target); err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 { // the odd ones relative, the even ones absolute
			rel, err := filepath.Rel(filepath.Dir(file), target)
			if err != nil {
				t.Fatal(err)
			}
			target = rel
		}
		if err := os.Symlink(target, file); err != nil {
			t.Skipf("cannot make symlinks here: %v", err)
		}
	}
	ctx := context.Background()
	read := func(how string) {
		t.Helper()
		for _, img := range imgs {
			if got, err := s.Read(ctx, img.ID, noLimit); err != nil || !bytes.Equal(got, img.Bytes) {
				t.Errorf("Read(%q), %s = %d bytes, %v; want its %d bytes", img.ID, how, len(got), err, len(img.Bytes))
			}
		}
	}
	read("its file a relative or absolute symlink inside the image folder")

	// A subfolder on the way, swapped for an absolute link to its copy.
	for _, file := range files {
		sub := filepath.Dir(file)
		if sub == folder {
			continue
		}
		if err := os.Rename(sub, sub+"-real"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(sub+"-real", sub); err != nil {
			t.Fatal(err)
		}
		read("a folder on the way an absolute symlink inside the image folder")
		break
	}
}

func testEdits(t *testing.T, open openFunc) {
	_, dir := library(t)
	imgs := Images(t)
	s := open(t, dir, imgs)
	checkImages(t, images(t, s), imgs)

	// Change a caption (to one of another length, so that even a coarse
	// file clock shows the change), drop an image, add one, change bytes.
	edited := slices.Clone(imgs)
	edited[0].Caption = "Login sequence, redrawn with a refresh step"
	edited[1].Bytes = PNG(t, 6, 6, color.RGBA{G: 90, A: 255})
	edited = slices.Delete(edited, 2, 3)
	added := Image{ID: "img-added", File: "added.png", Caption: "Added later", Bytes: PNG(t, 2, 7, color.RGBA{R: 9, A: 255})}
	edited = append(edited, added)
	open(t, dir, edited) // rewrite; keep using s

	checkImages(t, images(t, s), edited)
	ctx := context.Background()
	if got, err := s.Read(ctx, imgs[2].ID, noLimit); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Read(%q) after it left the index = %d bytes, %v; want domain.ErrNotFound", imgs[2].ID, len(got), err)
	}
	for _, img := range []Image{edited[1], added} {
		if got, err := s.Read(ctx, img.ID, noLimit); err != nil || !bytes.Equal(got, img.Bytes) {
			t.Errorf("Read(%q) after the edit = %d bytes, %v; want its new %d bytes", img.ID, len(got), err, len(img.Bytes))
		}
	}
}

func testConcurrent(t *testing.T, open openFunc) {
	_, dir := library(t)
	imgs := Images(t)
	s := open(t, dir, imgs)
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Go(func() {
			for r := range 20 {
				img := imgs[(w+r)%len(imgs)]
				m, err := s.Images(ctx)
				if err != nil || len(m) != len(imgs) || m[img.ID].Caption != img.Caption {
					t.Errorf("concurrent Images() = %d images, %v; want %d with %q captioned %q", len(m), err, len(imgs), img.ID, img.Caption)
				}
				if m != nil {
					m[img.ID] = domain.Image{ID: "scribbled"} // the caller's copy: must not reach the store
				}
				got, err := s.Read(ctx, img.ID, noLimit)
				if err != nil || !bytes.Equal(got, img.Bytes) {
					t.Errorf("concurrent Read(%q) = %d bytes, %v; want its %d bytes", img.ID, len(got), err, len(img.Bytes))
				}
			}
		})
	}
	wg.Wait()
	checkImages(t, images(t, s), imgs)
}
