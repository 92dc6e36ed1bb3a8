package fileimages_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"image/color"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/fileimages"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/imagestore"
	"github.com/librarian/librarian/ports/imagestore/imagestoretest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixtures holds the malformed image indexes shared at the repository root.
const fixtures = "../../testdata/indexes/image-index"

type indexEntry struct {
	ID      string `json:"id"`
	File    string `json:"file"`
	Caption string `json:"caption,omitempty"`
}

// writeLibrary lays images out as seed 000 does: dir/images/index.json and
// each file relative to dir/images.
func writeLibrary(t *testing.T, dir string, images []imagestoretest.Image) {
	t.Helper()
	var entries []indexEntry
	for _, img := range images {
		writeFile(t, filepath.Join(dir, "images", filepath.FromSlash(img.File)), img.Bytes)
		entries = append(entries, indexEntry{ID: img.ID, File: img.File, Caption: img.Caption})
	}
	if entries == nil {
		entries = []indexEntry{}
	}
	data, err := json.MarshalIndent(map[string][]indexEntry{"images": entries}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	// In place, as a person editing the index would.
	if err := os.MkdirAll(filepath.Join(dir, "images"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "images", "index.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, p string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	// Remove first, so a symlink in the way is replaced, not written through.
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, dir, index string) *fileimages.Store {
	t.Helper()
	s, err := fileimages.New(dir, index)
	if err != nil {
		t.Fatalf("New(%q, %q): %v", dir, index, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot make symlinks here: %v", err)
	}
}

func TestContract(t *testing.T) {
	imagestoretest.Run(t, func(t *testing.T, dir string, images []imagestoretest.Image) imagestore.Store {
		writeLibrary(t, dir, images)
		return open(t, dir, "")
	})
}

func TestMissingIndexMeansNoImages(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir, "")
	ctx := context.Background()
	if m, err := s.Images(ctx); err != nil || m == nil || len(m) != 0 {
		t.Errorf("Images() without an index = %v (nil %t), %v; want an empty map, no error", m, m == nil, err)
	}
	if _, err := s.Read(ctx, "img-any", 1<<20); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Read without an index: %v, want domain.ErrNotFound", err)
	}
	// An index that appears later is seen, and one removed again is gone.
	img := imagestoretest.Images(t)[0]
	writeLibrary(t, dir, []imagestoretest.Image{img})
	if m, err := s.Images(ctx); err != nil || m[img.ID].Caption != img.Caption {
		t.Errorf("Images() after the index appeared = %v, %v; want %q", m, err, img.ID)
	}
	os.Remove(filepath.Join(dir, "images", "index.json"))
	if m, err := s.Images(ctx); err != nil || len(m) != 0 {
		t.Errorf("Images() after the index was removed = %v, %v; want none", m, err)
	}
}

func TestReadErrorsAreWorded(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "lib")
	png := imagestoretest.PNG(t, 2, 2, color.RGBA{R: 255, A: 255})
	writeFile(t, filepath.Join(base, "outside", "secret.png"), png)
	writeFile(t, filepath.Join(dir, "not-images", "other.png"), png)
	writeFile(t, filepath.Join(dir, "images", "ok.png"), png)
	writeFile(t, filepath.Join(dir, "images", "real", "inner.png"), png)
	if err := os.MkdirAll(filepath.Join(dir, "images", "folder.png"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "../../outside/secret.png", filepath.Join(dir, "images", "out.png"))
	symlink(t, "../not-images/other.png", filepath.Join(dir, "images", "sideways.png"))
	symlink(t, "real/inner.png", filepath.Join(dir, "images", "alias.png"))
	index := `{"images": [
		{"id": "ok", "file": "ok.png"},
		{"id": "out", "file": "out.png"},
		{"id": "sideways", "file": "sideways.png"},
		{"id": "alias", "file": "alias.png"},
		{"id": "gone", "file": "gone.png"},
		{"id": "folder", "file": "folder.png"}
	]}`
	writeFile(t, filepath.Join(dir, "images", "index.json"), []byte(index))
	s := open(t, dir, "")
	ctx := context.Background()
	tests := []struct {
		id      string
		max     int64
		want    error
		wantMsg string
	}{
		{"ok", 1 << 20, nil, ""},
		{"alias", 1 << 20, nil, ""},
		{"out", 1 << 20, domain.ErrRefused, "image 'out': 'out.png' resolves outside the image folder 'images'"},
		{"sideways", 1 << 20, domain.ErrRefused, "image 'sideways': 'sideways.png' resolves outside the image folder 'images'"},
		{"gone", 1 << 20, domain.ErrNotFound, "image 'gone': file 'gone.png' not found"},
		{"folder", 1 << 20, domain.ErrRefused, "image 'folder': 'folder.png' is not a regular file"},
		{"nope", 1 << 20, domain.ErrNotFound, "image 'nope' not found in images/index.json"},
		{"ok", int64(len(png)) - 1, domain.ErrTooLarge, "image 'ok': 'ok.png' is " + strconv.Itoa(len(png)) + " bytes, over the limit of " + strconv.Itoa(len(png)-1)},
	}
	for _, tt := range tests {
		got, err := s.Read(ctx, tt.id, tt.max)
		if tt.want == nil {
			if err != nil || !bytes.Equal(got, png) {
				t.Errorf("Read(%q) = %d bytes, %v; want the PNG", tt.id, len(got), err)
			}
			continue
		}
		if !errors.Is(err, tt.want) || got != nil || err.Error() != tt.wantMsg {
			t.Errorf("Read(%q, %d) = %d bytes, %v; want no bytes and %q wrapping %v", tt.id, tt.max, len(got), err, tt.wantMsg, tt.want)
		}
	}
}

// A refused setting or an index outside the root does not stop New: every
// call fails with the reason, and Read says the same as Images.
func TestIndexMustBeInsideTheRoot(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "lib")
	writeFile(t, filepath.Join(base, "outside", "index.json"), []byte(`{"images": []}`))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	checkRefused := func(s *fileimages.Store, want string) {
		t.Helper()
		for range 2 {
			if m, err := s.Images(ctx); !errors.Is(err, domain.ErrRefused) || m != nil || err.Error() != want {
				t.Errorf("Images() = %v, %v; want %q wrapping domain.ErrRefused", m, err, want)
			}
			if got, err := s.Read(ctx, "img-any", 1<<20); !errors.Is(err, domain.ErrRefused) || got != nil || err.Error() != want {
				t.Errorf("Read() = %d bytes, %v; want %q wrapping domain.ErrRefused", len(got), err, want)
			}
		}
	}
	for setting, want := range map[string]string{
		"../outside/index.json": "image index setting '../outside/index.json' refused: 'image index' may not contain '..'",
		"/etc/passwd":           "image index setting '/etc/passwd' refused: 'image index' must be relative, not absolute",
		`images\index.json`:     `image index setting 'images\index.json' refused: 'image index' may not contain '\' (use '/')`,
	} {
		checkRefused(open(t, dir, setting), want)
	}
	for _, target := range []string{"../outside", filepath.Join(base, "outside")} {
		symlink(t, target, filepath.Join(dir, "images"))
		checkRefused(open(t, dir, ""), "image index 'images/index.json' resolves outside the library root")
		os.Remove(filepath.Join(dir, "images"))
	}

	// Swapped after New: every call is refused.
	writeFile(t, filepath.Join(dir, "images", "index.json"), []byte(`{"images": []}`))
	s := open(t, dir, "")
	if _, err := s.Images(ctx); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, "images"))
	symlink(t, "../outside", filepath.Join(dir, "images"))
	if _, err := s.Images(ctx); !errors.Is(err, domain.ErrRefused) {
		t.Errorf("Images() with images/ swapped for a symlink out: %v; want domain.ErrRefused", err)
	}
}

// Absolute links that land inside: the index, the image folder, and an
// image file are all fine; an image must still land in the image folder.
func TestAbsoluteSymlinksInside(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "lib")
	png := imagestoretest.PNG(t, 2, 3, color.RGBA{G: 255, A: 255})
	writeFile(t, filepath.Join(dir, "assets", "pics", "a.png"), png)
	writeFile(t, filepath.Join(dir, "assets", "index-real.json"), []byte(`{"images": [
		{"id": "direct", "file": "pics/a.png"},
		{"id": "abs", "file": "abs.png"},
		{"id": "abs-by-link-name", "file": "abs-by-link-name.png"},
		{"id": "abs-dir", "file": "abs-dir/a.png"},
		{"id": "sideways", "file": "sideways.png"},
		{"id": "prefix", "file": "prefix.png"},
		{"id": "loop", "file": "loop.png"}
	]}`))
	writeFile(t, filepath.Join(dir, "other", "b.png"), png)
	writeFile(t, filepath.Join(dir, "assets_evil", "c.png"), png)
	symlink(t, filepath.Join(dir, "assets"), filepath.Join(dir, "images")) // the image folder
	symlink(t, filepath.Join(dir, "assets", "index-real.json"), filepath.Join(dir, "assets", "index.json"))
	symlink(t, filepath.Join(dir, "assets", "pics", "a.png"), filepath.Join(dir, "assets", "abs.png"))
	symlink(t, filepath.Join(dir, "images", "pics", "a.png"), filepath.Join(dir, "assets", "abs-by-link-name.png"))
	symlink(t, filepath.Join(dir, "assets", "pics"), filepath.Join(dir, "assets", "abs-dir"))
	symlink(t, filepath.Join(dir, "other", "b.png"), filepath.Join(dir, "assets", "sideways.png"))
	symlink(t, filepath.Join(dir, "assets_evil", "c.png"), filepath.Join(dir, "assets", "prefix.png"))
	symlink(t, filepath.Join(dir, "assets", "loop.png"), filepath.Join(dir, "assets", "loop.png"))
	s := open(t, dir, "")
	ctx := context.Background()
	if m, err := s.Images(ctx); err != nil || len(m) != 7 {
		t.Fatalf("Images() = %v, %v; want 7 images", m, err)
	}
	for _, id := range []string{"direct", "abs", "abs-by-link-name", "abs-dir"} {
		if got, err := s.Read(ctx, id, 1<<20); err != nil || !bytes.Equal(got, png) {
			t.Errorf("Read(%q) = %d bytes, %v; want the PNG", id, len(got), err)
		}
	}
	for id, want := range map[string]string{
		"sideways": "image 'sideways': 'sideways.png' resolves outside the image folder 'images'",
		"prefix":   "image 'prefix': 'prefix.png' resolves outside the image folder 'images'",
		"loop":     "image 'loop': 'loop.png' cannot be read: resolve loop.png: too many levels of symbolic links",
	} {
		if got, err := s.Read(ctx, id, 1<<20); !errors.Is(err, domain.ErrRefused) || got != nil || err.Error() != want {
			t.Errorf("Read(%q) = %d bytes, %v; want %q wrapping domain.ErrRefused", id, len(got), err, want)
		}
	}
}

// An image index at the library root makes the root the image folder.
func TestIndexAtTheRoot(t *testing.T) {
	dir := t.TempDir()
	png := imagestoretest.PNG(t, 1, 2, color.RGBA{B: 255, A: 255})
	writeFile(t, filepath.Join(dir, "pics", "a.png"), png)
	writeFile(t, filepath.Join(dir, "image-index.json"), []byte(`{"images": [{"id": "a", "file": "./pics//a.png", "caption": "A"}]}`))
	s := open(t, dir, "image-index.json")
	m, err := s.Images(context.Background())
	if want := (domain.Image{ID: "a", File: "pics/a.png", Path: "pics/a.png", Caption: "A"}); err != nil || m["a"] != want {
		t.Errorf("Images() = %v, %v; want a: %+v (file cleaned)", m, err, want)
	}
	if got, err := s.Read(context.Background(), "a", 1<<20); err != nil || !bytes.Equal(got, png) {
		t.Errorf("Read(a) = %d bytes, %v; want the PNG", len(got), err)
	}
}

func TestMalformedIndexes(t *testing.T) {
	names, err := filepath.Glob(filepath.Join(fixtures, "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no fixtures in %s: %v", fixtures, err)
	}
	for _, name := range names {
		base := strings.TrimSuffix(filepath.Base(name), ".json")
		t.Run(base, func(t *testing.T) {
			ie := indexError(t, name)
			got := ie.Error() + "\n"
			golden := filepath.Join("testdata", "malformed", base+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("Images error for %s:\n got:\n%s\nwant:\n%s", base, got, want)
			}
		})
	}
}

// indexError installs fixture as a library's images/index.json and returns
// the *domain.IndexError both Images and Read fail with.
func indexError(t *testing.T, fixture string) *domain.IndexError {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "images", "index.json"), data)
	s := open(t, dir, "")
	m, err := s.Images(context.Background())
	ie, ok := errors.AsType[*domain.IndexError](err)
	if !ok {
		t.Fatalf("Images() = %v, %v; want a *domain.IndexError", m, err)
	}
	if ie.File != "images/index.json" || len(ie.Problems) == 0 {
		t.Fatalf("IndexError file %q with %d problems, want images/index.json with some", ie.File, len(ie.Problems))
	}
	if _, rerr := s.Read(context.Background(), "img-login-sequence", 1<<20); rerr == nil || rerr.Error() != err.Error() {
		t.Errorf("Read with a malformed index: %v; want the index error", rerr)
	}
	return ie
}

func TestAllProblemsListsEveryClass(t *testing.T) {
	entryNumber := regexp.MustCompile(`images\[\d+\]`)
	messages := func(ie *domain.IndexError) []string {
		var out []string
		for _, p := range ie.Problems {
			out = append(out, entryNumber.ReplaceAllString(p.String(), "images[N]"))
		}
		return out
	}
	all := messages(indexError(t, filepath.Join(fixtures, "all-problems.json")))
	names, _ := filepath.Glob(filepath.Join(fixtures, "*.json"))
	wholeFile := map[string]bool{
		"all-problems": true, "invalid-json": true, "truncated-json": true,
		"top-level-not-object": true, "images-missing": true, "images-not-a-list": true,
	}
	for _, name := range names {
		base := strings.TrimSuffix(filepath.Base(name), ".json")
		if wholeFile[base] {
			continue
		}
		for _, m := range messages(indexError(t, name)) {
			if !slices.Contains(all, m) {
				t.Errorf("all-problems lacks %s's problem %q", base, m)
			}
		}
	}
}

func TestUnchangedIndexIsNotReparsed(t *testing.T) {
	dir := t.TempDir()
	imgs := imagestoretest.Images(t)
	writeLibrary(t, dir, imgs)
	s := open(t, dir, "")
	ctx := context.Background()
	for range 4 {
		if _, err := s.Images(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Read(ctx, imgs[0].ID, 1<<20); err != nil {
			t.Fatal(err)
		}
	}
	if got := fileimages.Parses(s); got != 1 {
		t.Errorf("8 calls over an unchanged index parsed it %d times, want 1", got)
	}
	writeFile(t, filepath.Join(dir, "images", "index.json"), []byte(`{"images": [{"id": "x"}]}`))
	for range 3 {
		if _, err := s.Images(ctx); !errors.As(err, new(*domain.IndexError)) {
			t.Fatalf("Images() of a broken index: %v; want a *domain.IndexError", err)
		}
	}
	if got := fileimages.Parses(s); got != 2 {
		t.Errorf("after one edit and 3 calls: %d parses, want 2", got)
	}
}
