package answer

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
)

// standardDoc is docs/guide.md: a standard image of each kind on lines 3
// to 12, with stubs of the image index among them.
func standardDoc() *DocText {
	lines := []string{
		"# Guide",
		"",
		"![Architecture](../img/arch.png)", // 3: sent
		"![[image:ok]] ![again](./../img/arch.png \"t\")", // 4: a stub, then arch.png again
		"![Big](big.png)",                         // 5: over the per-image limit
		"![Gone](gone.png)",                       // 6: no such file
		"![Text](notes.txt)",                      // 7: not an image
		"![Logo](https://example.com/logo.png)",   // 8: remote
		"![Pixel](data:image/gif;base64,R0lGOD=)", // 9: data
		"![Secret](../../etc/passwd.png)",         // 10: out of the root
		"<img src=\"/abs/x.png\" alt=\"Abs\">",    // 11: absolute
		"![](unread.png)",                         // 12: not read (the answer's images full)
	}
	var stubs []domain.ImageStub
	std := func(line int, src, alt string) {
		stubs = append(stubs, domain.ImageStub{Line: line, Src: src, Alt: alt})
	}
	std(3, "../img/arch.png", "Architecture")
	stubs = append(stubs, domain.ImageStub{ID: "ok", Line: 4})
	stubs = append(stubs, domain.ImageStub{Line: 4, Src: "./../img/arch.png", Alt: "again", Title: "t"})
	std(5, "big.png", "Big")
	std(6, "gone.png", "Gone")
	std(7, "notes.txt", "Text")
	std(8, "https://example.com/logo.png", "Logo")
	std(9, "data:image/gif;base64,R0lGOD=", "Pixel")
	std(10, "../../etc/passwd.png", "Secret")
	std(11, "/abs/x.png", "Abs")
	std(12, "unread.png", "")
	return NewDocText(domain.Document{ID: "docs/guide", Path: "docs/guide.md"}, []byte(strings.Join(lines, "\n")+"\n"),
		domain.Structure{Lines: len(lines), Images: stubs})
}

// partsOf writes an answer's parts, each image as IMAGE and its fields.
func partsOf(a Answer) string {
	var parts []string
	for _, p := range a.Parts {
		if p.Image != nil {
			parts = append(parts, fmt.Sprintf("IMAGE %s %s %s %q", p.Image.ID, p.Image.File, p.Image.MIME, p.Image.Caption))
			continue
		}
		parts = append(parts, p.Text)
	}
	return strings.Join(parts, "|")
}

func TestRenderStandardImages(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n....")
	dt := standardDoc()
	index := map[string]domain.Image{"ok": {ID: "ok", File: "ok.png", Path: "images/ok.png", Caption: "Indexed"}}
	chunks, _ := PlanChunks(domain.Target{Doc: dt.Doc}, domain.Selector{Doc: dt.Doc.ID}, dt, true, true)
	wantSources := []ImageSource{{Path: "img/arch.png"}, {ID: "ok"}, {Path: "docs/big.png"}, {Path: "docs/gone.png"},
		{Path: "docs/notes.txt"}, {Path: "docs/unread.png"}}
	if got := ImageSources(chunks, index); !slices.Equal(got, wantSources) {
		t.Errorf("ImageSources = %v, want %v (first appearance, once each, local files and known ids only)", got, wantSources)
	}
	if got, want := FilesToRead(chunks), []string{"img/arch.png", "docs/big.png", "docs/gone.png", "docs/notes.txt", "docs/unread.png"}; !slices.Equal(got, want) {
		t.Errorf("FilesToRead = %v, want %v", got, want)
	}
	imgs := Images{Index: index, MaxBytes: 5 << 20,
		Files: map[string]ImageFile{"ok": {Data: png, MIME: "image/png"}},
		Local: map[string]ImageFile{
			"img/arch.png":   {Data: png, MIME: "image/png"},
			"docs/big.png":   {Err: fmt.Errorf("%w: 9 MB", domain.ErrTooLarge)},
			"docs/gone.png":  {Err: fmt.Errorf("%w: image 'docs/gone.png': file not found", domain.ErrNotFound)},
			"docs/notes.txt": {Data: []byte("hello"), MIME: "text/plain"},
		}}
	ans, _ := renderDoc(t, dt, true, imgs, 0)
	want := "=== docs/guide (docs/guide.md) · L1–12 ===\n# Guide\n\n![Architecture](../img/arch.png)\n" +
		`|IMAGE img/arch.png img/arch.png image/png "Architecture"|` +
		"![[image:ok]] ![again](./../img/arch.png \"t\")\n" +
		`|IMAGE ok images/ok.png image/png "Indexed"|` +
		"[image img/arch.png: shown above, at L3]\n" +
		"![Big](big.png)\n[image omitted: docs/big.png — Big (larger than the 5 MB limit, LIBRARY_MAX_IMAGE_BYTES)]\n" +
		"![Gone](gone.png)\n[image unavailable: docs/gone.png — Gone (see Notes)]\n" +
		"![Text](notes.txt)\n[image unavailable: docs/notes.txt — Text (see Notes)]\n" +
		"![Logo](https://example.com/logo.png)\n[image omitted: https://example.com/logo.png — Logo (remote, never fetched)]\n" +
		"![Pixel](data:image/gif;base64,R0lGOD=)\n[image omitted: data:image/gif;base64,… — Pixel (a data: URI, not sent as an image)]\n" +
		"![Secret](../../etc/passwd.png)\n[image unavailable: '../../etc/passwd.png' — Secret (see Notes)]\n" +
		"<img src=\"/abs/x.png\" alt=\"Abs\">\n[image unavailable: '/abs/x.png' — Abs (see Notes)]\n" +
		"![](unread.png)\n[image omitted: docs/unread.png (this answer already carries 10 MB of images, the limit for one answer: ask for this doc again with include_images)]\n" +
		"\nNotes:\n" +
		"- select[0]: image 'gone.png' (docs/gone.png) in docs/guide (docs/guide.md) L6: file not found\n" +
		"- select[0]: image 'notes.txt' (docs/notes.txt) in docs/guide (docs/guide.md) L7: not an image (its bytes read as text/plain)\n" +
		"- select[0]: refused: image '../../etc/passwd.png' in docs/guide (docs/guide.md) L10 leads outside the library root\n" +
		"- select[0]: refused: image '/abs/x.png' in docs/guide (docs/guide.md) L11 is an absolute path; an image path is relative to the doc's folder\n"
	if got := partsOf(ans); got != want {
		t.Errorf("answer:\n%s\nwant:\n%s", got, want)
	}
	if s := ans.String(); !strings.Contains(s, "\n[image img/arch.png: image/png, 12 bytes]\n") {
		t.Errorf("a standard image's placeholder names its file once:\n%s", s)
	}
}

// Not asked for, a standard image needs nothing read: the file's name and
// alt text, or what the text alone says (remote, data); a refused path is
// only omitted, with no note (check reports it): docs written for a web
// site often use site-root paths, and every fetch would carry their notes.
func TestRenderStandardImagesNotAskedFor(t *testing.T) {
	dt := standardDoc()
	chunks, _ := PlanChunks(domain.Target{Doc: dt.Doc}, domain.Selector{Doc: dt.Doc.ID}, dt, false, true)
	if got := ImageSources(chunks, nil); len(got) != 0 {
		t.Errorf("ImageSources without include_images = %v, want none", got)
	}
	ans, _ := renderDoc(t, dt, false, Images{Index: map[string]domain.Image{"ok": {ID: "ok", File: "ok.png"}}}, 0)
	s := ans.String()
	for _, want := range []string{
		"![Architecture](../img/arch.png)\n[image omitted: img/arch.png — Architecture]\n",
		"![[image:ok]] ![again](./../img/arch.png \"t\")\n[image omitted: ok]\n[image omitted: img/arch.png — again]\n",
		"![Gone](gone.png)\n[image omitted: docs/gone.png — Gone]\n",
		"[image omitted: https://example.com/logo.png — Logo (remote, never fetched)]\n",
		"![Secret](../../etc/passwd.png)\n[image omitted: '../../etc/passwd.png' — Secret]\n",
		"<img src=\"/abs/x.png\" alt=\"Abs\">\n[image omitted: '/abs/x.png' — Abs]\n",
		"![](unread.png)\n[image omitted: docs/unread.png]\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("include_images=false: no %q in\n%s", want, s)
		}
	}
	if strings.Contains(s, "Notes:") {
		t.Errorf("include_images=false: notes for images nothing tried to read:\n%s", s)
	}
}

// The image index is read only for its stubs: a doc of standard images
// alone does without it, and no index is no problem for them.
func TestStandardImagesNeedNoImageIndex(t *testing.T) {
	src := "![A](a.png)\n"
	dt := NewDocText(domain.Document{ID: "d", Path: "d.md"}, []byte(src),
		domain.Structure{Lines: 1, Images: []domain.ImageStub{{Line: 1, Src: "a.png", Alt: "A"}}})
	chunks, _ := PlanChunks(domain.Target{Doc: dt.Doc}, domain.Selector{Doc: "d"}, dt, true, true)
	if NeedsImageIndex(chunks) {
		t.Error("NeedsImageIndex for a doc of standard images alone")
	}
	png := []byte("\x89PNG\r\n\x1a\n")
	ans, _ := renderDoc(t, dt, true, Images{Unavailable: "the library has no image index",
		Local: map[string]ImageFile{"a.png": {Data: png, MIME: "image/png"}}}, 0)
	if got, want := partsOf(ans), "=== d (d.md) · L1 ===\n![A](a.png)\n|IMAGE a.png a.png image/png \"A\""; got != want {
		t.Errorf("answer %q, want %q", got, want)
	}
}
