package browse_test

import (
	"context"
	"encoding/json"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/fileimages"
	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/answer"
	"github.com/librarian/librarian/ports/imagestore/imagestoretest"
)

// guideDoc is guides/arch.md of imageLibrary: a standard image of every
// kind, and a stub of the image index.
const guideDoc = `# Architecture

![Architecture diagram](../img/arch.png)

The flow, in HTML: <img src="../img/flow%20chart.svg" alt="Flow">

![[image:img-login]]

Missing: ![Gone](../img/gone.png)

Not an image: ![Notes](notes.txt)

Outside: ![Secret](../../secret.png)

Linked out: ![Linked](../img/linked-out.png)

Remote: ![Badge](https://example.com/badge.svg)

![Again](../img/arch.png)
`

// imageLibrary writes a library of the convention under a fresh folder
// (which also holds, outside the library, the file a symlink points to):
// guides/arch.md (guideDoc), the files its images name, an image index of
// one image, and for json its doc index. It returns the root and the bytes
// of img/arch.png.
func imageLibrary(t *testing.T, convention string) (root string, arch []byte) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "lib")
	arch = imagestoretest.PNG(t, 4, 3, color.RGBA{R: 200, A: 255})
	secret := imagestoretest.PNG(t, 5, 5, color.RGBA{B: 9, A: 255})
	for name, data := range map[string][]byte{
		"guides/arch.md":       []byte(guideDoc),
		"guides/notes.txt":     []byte("plain words, not a picture\n"),
		"img/arch.png":         arch,
		"img/flow chart.svg":   []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>`),
		"images/login.png":     imagestoretest.PNG(t, 2, 2, color.RGBA{G: 99, A: 255}),
		"images/index.json":    []byte(`{"images": [{"id": "img-login", "file": "login.png", "caption": "Login"}]}`),
		"../secret.png":        secret,
		"../outside/elsewhere": secret,
	} {
		writeFile(t, filepath.Join(root, filepath.FromSlash(name)), string(data))
	}
	if err := os.Symlink(filepath.Join(base, "outside", "elsewhere"), filepath.Join(root, "img", "linked-out.png")); err != nil {
		t.Skipf("cannot make symlinks here: %v", err)
	}
	if convention == "json" {
		index, _ := json.Marshal(map[string]any{"documents": []map[string]string{{"id": "arch", "path": "guides/arch.md"}}})
		writeFile(t, filepath.Join(root, "index.json"), string(index))
	}
	return root, arch
}

// openImageLibrary opens root with the real adapters of a convention and
// an image store.
func openImageLibrary(t *testing.T, convention, root string) *browse.Browser {
	t.Helper()
	images, err := fileimages.New(root, "images/index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { images.Close() })
	if convention == "json" {
		src, err := jsonindex.New(root, "index.json")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { src.Close() })
		return browse.New(library.New(src, goldmarkmarkdown.New(), images, library.DefaultConfig()))
	}
	src, err := frontmatterindex.New(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return browse.New(library.New(src, goldmarkmarkdown.New(), images, library.DefaultConfig()))
}

// docID is guides/arch.md's id in a convention.
func docID(convention string) string {
	if convention == "json" {
		return "arch"
	}
	return "guides/arch"
}

// TestGetDocumentsStandardImages: with include_images, the files of
// standard images are sent after their line, in document order with the
// index's images, once per doc; what cannot be sent says why.
func TestGetDocumentsStandardImages(t *testing.T) {
	for _, conv := range conventions {
		t.Run(conv, func(t *testing.T) {
			root, arch := imageLibrary(t, conv)
			b := openImageLibrary(t, conv, root)
			id := docID(conv)
			ans, err := b.GetDocuments(context.Background(), browse.GetRequest{
				Select: []domain.Selector{{Doc: id}}, IncludeImages: true, IncludeCode: true})
			if err != nil {
				t.Fatal(err)
			}
			var images []*answer.ImagePart
			for _, p := range ans.Parts {
				if p.Image != nil {
					images = append(images, p.Image)
				}
			}
			if len(images) != 3 || images[0].File != "img/arch.png" || string(images[0].Data) != string(arch) ||
				images[0].MIME != "image/png" || images[0].Caption != "Architecture diagram" ||
				images[1].File != "img/flow chart.svg" || images[1].MIME != "image/svg+xml" ||
				images[2].ID != "img-login" {
				t.Fatalf("images sent: %+v; want arch.png, the flow chart (SVG), then the index's img-login", images)
			}
			text := ans.String()
			name := id + " (guides/arch.md)"
			for _, want := range []string{
				"![Architecture diagram](../img/arch.png)\n[image img/arch.png: image/png, ",
				"<img src=\"../img/flow%20chart.svg\" alt=\"Flow\">\n[image img/flow chart.svg: image/svg+xml, ",
				"![[image:img-login]]\n[image img-login: images/login.png, image/png, ",
				"![Gone](../img/gone.png)\n[image unavailable: img/gone.png — Gone (see Notes)]\n",
				"![Notes](notes.txt)\n[image unavailable: guides/notes.txt — Notes (see Notes)]\n",
				"![Secret](../../secret.png)\n[image unavailable: '../../secret.png' — Secret (see Notes)]\n",
				"![Linked](../img/linked-out.png)\n[image unavailable: img/linked-out.png — Linked (see Notes)]\n",
				"![Badge](https://example.com/badge.svg)\n[image omitted: https://example.com/badge.svg — Badge (remote, never fetched)]\n",
				"![Again](../img/arch.png)\n[image img/arch.png: shown above, at L3]\n",
				"- select[0]: image '../img/gone.png' (img/gone.png) in " + name + " L9: file not found\n",
				"- select[0]: image 'notes.txt' (guides/notes.txt) in " + name + " L11: not an image (its bytes read as text/plain)\n",
				"- select[0]: refused: image '../../secret.png' in " + name + " L13 leads outside the library root\n",
				"- select[0]: image '../img/linked-out.png' (img/linked-out.png) in " + name + " L15: refused: image 'img/linked-out.png' resolves outside the library root\n",
			} {
				if !strings.Contains(text, want) {
					t.Errorf("the answer lacks %q:\n%s", want, text)
				}
			}

			// Not asked for: placeholders, and nothing read.
			ans, err = b.GetDocuments(context.Background(), browse.GetRequest{Select: []domain.Selector{{Doc: id}}, IncludeCode: true})
			if err != nil {
				t.Fatal(err)
			}
			text = ans.String()
			for _, want := range []string{
				"![Architecture diagram](../img/arch.png)\n[image omitted: img/arch.png — Architecture diagram]\n",
				"![Gone](../img/gone.png)\n[image omitted: img/gone.png — Gone]\n",
				"![Again](../img/arch.png)\n[image omitted: img/arch.png — Again]\n",
			} {
				if !strings.Contains(text, want) {
					t.Errorf("include_images=false: the answer lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

// TestStandardImagesOverTheLimit: a standard image's file over
// LIBRARY_MAX_IMAGE_BYTES stands as the index's images do.
func TestStandardImagesOverTheLimit(t *testing.T) {
	root, _ := imageLibrary(t, "frontmatter")
	images, err := fileimages.New(root, "images/index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { images.Close() })
	src, err := frontmatterindex.New(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	cfg := library.DefaultConfig()
	cfg.MaxImageBytes = 20
	b := browse.New(library.New(src, goldmarkmarkdown.New(), images, cfg))
	ans, err := b.GetDocuments(context.Background(), browse.GetRequest{Select: []domain.Selector{{Doc: "guides/arch"}}, IncludeImages: true, IncludeCode: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "![Architecture diagram](../img/arch.png)\n[image omitted: img/arch.png — Architecture diagram (larger than the 20 bytes limit, LIBRARY_MAX_IMAGE_BYTES)]\n"; !strings.Contains(ans.String(), want) {
		t.Errorf("the answer lacks %q:\n%s", want, ans.String())
	}
}

// TestCheckStandardImages: check names the doc, line and path of each
// image whose file is missing, outside the library root or not an image,
// in both conventions; remote images are not its business.
func TestCheckStandardImages(t *testing.T) {
	for _, conv := range conventions {
		t.Run(conv, func(t *testing.T) {
			root, _ := imageLibrary(t, conv)
			rep, err := openImageLibrary(t, conv, root).Check(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			at := docID(conv) + " (guides/arch.md) "
			want := "4 problems in 1 doc (1 checked):\n" +
				"- missing image: " + at + "L9: '../img/gone.png' (img/gone.png): file not found\n" +
				"- unsupported image type: " + at + "L11: 'notes.txt' (guides/notes.txt) reads as text/plain, not an image\n" +
				"- image outside the library root: " + at + "L13: '../../secret.png' leads outside the library root\n" +
				"- image outside the library root: " + at + "L15: '../img/linked-out.png' (img/linked-out.png): image 'img/linked-out.png' resolves outside the library root"
			if got := rep.Text(); got != want {
				t.Errorf("check:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestCheckImagesOfTheIndexAndRefusedPaths: a stub whose indexed file is
// missing or not an image is a problem too; a path refused by its text
// alone (absolute, another scheme) is one without any look at the disk; a
// file over the per-image limit is a warning.
func TestCheckImagesOfTheIndexAndRefusedPaths(t *testing.T) {
	root, _ := imageLibrary(t, "frontmatter")
	writeFile(t, filepath.Join(root, "images", "index.json"), `{"images": [
		{"id": "img-login", "file": "login.png"}, {"id": "img-gone", "file": "gone.png"}, {"id": "img-text", "file": "text.png"}]}`)
	writeFile(t, filepath.Join(root, "images", "text.png"), "not a png\n")
	writeFile(t, filepath.Join(root, "guides", "arch.md"), "# A\n\n![[image:img-gone]] ![[image:img-text]] ![[image:img-login]]\n\n"+
		"![Abs](/images/x.png) <img src=\"file:///etc/passwd\"> ![Big](../img/arch.png)\n")
	images, err := fileimages.New(root, "images/index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { images.Close() })
	src, err := frontmatterindex.New(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	cfg := library.DefaultConfig()
	cfg.MaxImageBytes = 40
	rep, err := browse.New(library.New(src, goldmarkmarkdown.New(), images, cfg)).Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := "4 problems in 1 doc (1 checked):\n" +
		"- missing image: guides/arch (guides/arch.md) L3: ![[image:img-gone]] (images/gone.png): file not found\n" +
		"- unsupported image type: guides/arch (guides/arch.md) L3: ![[image:img-text]] (images/text.png) reads as text/plain, not an image\n" +
		"- image outside the library root: guides/arch (guides/arch.md) L5: '/images/x.png' is an absolute path; an image path is relative to the doc's folder\n" +
		"- refused image: guides/arch (guides/arch.md) L5: 'file:///etc/passwd' is a 'file:' URL; an image is a relative path inside the library, or an http(s) URL\n" +
		"2 warnings (these fail nothing):\n" +
		"- image over the size limit: guides/arch (guides/arch.md) L3: ![[image:img-login]] (images/login.png) is larger than 40 bytes (LIBRARY_MAX_IMAGE_BYTES): answers show a placeholder\n" +
		"- image over the size limit: guides/arch (guides/arch.md) L5: '../img/arch.png' (img/arch.png) is larger than 40 bytes (LIBRARY_MAX_IMAGE_BYTES): answers show a placeholder"
	if got := rep.Text(); got != want {
		t.Errorf("check:\n%s\nwant:\n%s", got, want)
	}
}

// TestImageListAndReadImage: the files standard images show are listed
// and read by library path beside the index's images; a file of the
// library no doc shows is not an image of it.
func TestImageListAndReadImage(t *testing.T) {
	root, arch := imageLibrary(t, "json")
	writeFile(t, filepath.Join(root, "img", "unshown.png"), string(arch))
	b := openImageLibrary(t, "json", root)
	ctx := context.Background()
	list, err := b.ImageList(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, img := range list {
		got = append(got, img.ID+"="+img.Caption)
	}
	// Every file a standard image names inside the library, found or not:
	// listing reads no image.
	want := "guides/notes.txt=Notes img-login=Login img/arch.png=Architecture diagram img/flow chart.svg=Flow img/gone.png=Gone img/linked-out.png=Linked"
	if strings.Join(got, " ") != want {
		t.Errorf("ImageList = %s\nwant       %s", strings.Join(got, " "), want)
	}
	data, mime, ok, err := b.ReadImage(ctx, "img/arch.png")
	if err != nil || !ok || mime != "image/png" || string(data) != string(arch) {
		t.Errorf("ReadImage(img/arch.png) = %d bytes %s %v %v; want its bytes", len(data), mime, ok, err)
	}
	for _, name := range []string{"img/unshown.png", "img/gone.png", "img/linked-out.png", "../secret.png", "guides/arch.md"} {
		if _, _, ok, err := b.ReadImage(ctx, name); ok || err != nil {
			t.Errorf("ReadImage(%q) = ok %v, %v; want not found", name, ok, err)
		}
	}
}
