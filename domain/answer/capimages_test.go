package answer

import (
	"strings"
	"testing"
)

func TestCapImagesKeepsImagesInOrderUpToTheLimit(t *testing.T) {
	img := func(id string, n int) Part {
		return Part{Image: &ImagePart{ID: id, Caption: "c " + id, Data: make([]byte, n)}}
	}
	a := Answer{Parts: []Part{
		{Text: "a\n![[image:x]]\n"}, img("x", 6), {Text: "b\n![[image:y]]\n"}, img("y", 6),
		{Text: "c\n![[image:z]]\n"}, img("z", 3), {Text: "d\n"},
	}}
	got := capImages(a, 10)
	var ids []string
	var text strings.Builder
	for _, p := range got.Parts {
		if p.Image != nil {
			ids = append(ids, p.Image.ID)
		} else {
			text.WriteString(p.Text)
		}
	}
	if strings.Join(ids, ",") != "x,z" {
		t.Errorf("images kept = %v, want x and z (y would pass the limit, z still fits)", ids)
	}
	want := "a\n![[image:x]]\nb\n![[image:y]]\n[image omitted: y — c y (this answer already carries 6 bytes of images, the limit for one answer: ask for this doc again with include_images)]\nc\n![[image:z]]\n"
	if !strings.HasPrefix(text.String(), want) {
		t.Errorf("text =\n%s\nwant it to start\n%s", text.String(), want)
	}
	for i := 1; i < len(got.Parts); i++ {
		if got.Parts[i].Image == nil && got.Parts[i-1].Image == nil {
			t.Errorf("adjacent text parts %d and %d were not merged", i-1, i)
		}
	}
}
