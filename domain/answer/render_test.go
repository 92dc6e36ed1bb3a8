package answer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
)

// imageDoc is a doc with an image stub on each of lines 3 to 7, and a
// second stub of the first image on line 8.
func imageDoc() *DocText {
	lines := []string{"# Pics", ""}
	ids := []string{"ok", "big", "gone", "text", "nope", "ok"}
	var stubs []domain.ImageStub
	for i, id := range ids {
		lines = append(lines, fmt.Sprintf("![[image:%s]]", id))
		stubs = append(stubs, domain.ImageStub{ID: id, Line: 3 + i})
	}
	return NewDocText(domain.Document{ID: "pics", Path: "pics.md"}, []byte(strings.Join(lines, "\n")+"\n"),
		domain.Structure{Lines: len(lines), Images: stubs})
}

// renderDoc plans one whole-doc selector of dt and renders it.
func renderDoc(t *testing.T, dt *DocText, images bool, imgs Images, budget int) (Answer, []*Chunk) {
	t.Helper()
	sel := domain.Selector{Doc: dt.Doc.ID}
	chunks, notes := PlanChunks(domain.Target{Doc: dt.Doc}, sel, dt, images, true)
	AssignLines(chunks)
	return Render(Call{Chunks: chunks, Notes: notes, Budget: budget, Selectors: 1, Images: imgs}), chunks
}

func TestRenderImages(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n....")
	index := map[string]domain.Image{
		"ok":   {ID: "ok", File: "ok.png", Caption: "A fine diagram"},
		"big":  {ID: "big", File: "big.png"},
		"gone": {ID: "gone", File: "gone.png"},
		"text": {ID: "text", File: "text.png"},
	}
	dt := imageDoc()
	chunks, _ := PlanChunks(domain.Target{Doc: dt.Doc}, domain.Selector{Doc: "pics"}, dt, true, true)
	if got, want := strings.Join(ImagesToRead(chunks, index), ","), "ok,big,gone,text"; got != want {
		t.Errorf("ImagesToRead = %s, want %s (known ids, first appearance, once each)", got, want)
	}
	imgs := Images{Index: index, MaxBytes: 5 << 20, Files: map[string]ImageFile{
		"ok":   {Data: png, MIME: "image/png"},
		"big":  {Err: fmt.Errorf("%w: 9 MB", domain.ErrTooLarge)},
		"gone": {Err: domain.ErrNotFound},
		"text": {Data: []byte("hello"), MIME: "text/plain"},
	}}
	ans, _ := renderDoc(t, dt, true, imgs, 0)
	var parts []string
	for _, p := range ans.Parts {
		if p.Image != nil {
			parts = append(parts, "IMAGE "+p.Image.ID+" "+p.Image.File+" "+p.Image.MIME)
			continue
		}
		parts = append(parts, p.Text)
	}
	got := strings.Join(parts, "|")
	want := "=== pics (pics.md) · L1–8 ===\n# Pics\n\n![[image:ok]]\n|IMAGE ok ok.png image/png|" +
		"![[image:big]]\n[image omitted: big (larger than the 5 MB limit, LIBRARY_MAX_IMAGE_BYTES)]\n" +
		"![[image:gone]]\n[image unavailable: gone (see Notes)]\n" +
		"![[image:text]]\n[image unavailable: text (see Notes)]\n" +
		"![[image:nope]]\n[image unknown: nope (see Notes)]\n" +
		"![[image:ok]]\n[image ok: shown above, at L3]\n" +
		"\nNotes:\n" +
		"- select[0]: image 'gone' (gone.png) in pics (pics.md) L5: file not found\n" +
		"- select[0]: image 'text' (text.png) in pics (pics.md) L6: not an image (its bytes read as text/plain)\n" +
		"- select[0]: unknown image 'nope' in pics (pics.md) L7: not in the image index\n"
	if got != want {
		t.Errorf("answer:\n%s\nwant:\n%s", got, want)
	}
}

func TestRenderImagesWithoutAnIndexOrNotAskedFor(t *testing.T) {
	dt := imageDoc()
	ans, _ := renderDoc(t, dt, true, Images{Unavailable: "the library has no image index"}, 0)
	if s := ans.String(); !strings.Contains(s, "[image unknown: ok (see Notes)]") ||
		!strings.Contains(s, "unknown image 'ok' in pics (pics.md) L3: the library has no image index") {
		t.Errorf("no image index:\n%s", s)
	}
	index := map[string]domain.Image{"ok": {ID: "ok", File: "ok.png", Caption: "A fine diagram"}}
	ans, _ = renderDoc(t, dt, false, Images{Index: index}, 0)
	if s := ans.String(); !strings.Contains(s, "![[image:ok]]\n[image omitted: ok — A fine diagram]\n") {
		t.Errorf("include_images=false:\n%s", s)
	}
	// An image the caller did not read (over its reading limit) says the
	// answer's images are full.
	ans, _ = renderDoc(t, dt, true, Images{Index: index, Files: map[string]ImageFile{}}, 0)
	if s := ans.String(); !strings.Contains(s, "[image omitted: ok — A fine diagram (this answer already carries 10 MB of images") {
		t.Errorf("an image not read:\n%s", s)
	}
}

func TestRenderCapsTheAnswersImages(t *testing.T) {
	dt := imageDoc()
	big := make([]byte, 6<<20)
	copy(big, "\x89PNG\r\n\x1a\n")
	index := map[string]domain.Image{"ok": {ID: "ok", File: "ok.png"}, "big": {ID: "big", File: "big.png"}}
	files := map[string]ImageFile{"ok": {Data: big, MIME: "image/png"}, "big": {Data: big, MIME: "image/png"}}
	ans, _ := renderDoc(t, dt, true, Images{Index: index, Files: files, MaxBytes: 8 << 20}, 0)
	sent := 0
	for _, p := range ans.Parts {
		if p.Image != nil {
			sent++
		}
	}
	if s := ans.String(); sent != 1 || !strings.Contains(s, "[image omitted: big (this answer already carries 6 MB of images") {
		t.Errorf("two 6 MB images sent %d:\n%.600s", sent, s)
	}
}

func TestRenderBudgetCutsAndLeavesOut(t *testing.T) {
	var lines []string
	for i := 1; i <= 40; i++ {
		lines = append(lines, fmt.Sprintf("line %02d of the doc", i))
	}
	dt := NewDocText(domain.Document{ID: "d", Path: "d.md"}, []byte(strings.Join(lines, "\n")+"\n"), domain.Structure{Lines: 40})
	second := NewDocText(domain.Document{ID: "e", Path: "e.md"}, []byte("only line\n"), domain.Structure{Lines: 1})
	var chunks []*Chunk
	for i, d := range []*DocText{dt, second} {
		cs, _ := PlanChunks(domain.Target{Doc: d.Doc, Sel: i}, domain.Selector{Doc: d.Doc.ID}, d, false, true)
		chunks = append(chunks, cs...)
	}
	AssignLines(chunks)
	ans := Render(Call{Chunks: chunks, Budget: 100, Selectors: 2})
	s := ans.String()
	if !strings.HasPrefix(s, "=== d (d.md) · ") || !strings.Contains(s, "Left out") || chunks[0].State != Kept || chunks[0].CutTo == 0 || chunks[1].State != LeftOut {
		t.Errorf("a 40-line doc and another at max_tokens=100: states %v %v, cut at %d:\n%s", chunks[0].State, chunks[1].State, chunks[0].CutTo, s)
	}
	if len(ans.Unmatched) != 0 {
		t.Errorf("unmatched = %v, want none (a chunk the budget left out still matched)", ans.Unmatched)
	}
}
