package answer

import (
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
)

func TestWriteOverlaps(t *testing.T) {
	dt := fenced() // code at L4–7 and L9–10, image stubs on L8
	plain := NewDocText(domain.Document{ID: "p", Path: "p.md"}, []byte(strings.Repeat("x\n", 10)), domain.Structure{})
	whole := func(d *DocText, sel int) *Chunk {
		return &Chunk{Sel: sel, Doc: d, Kind: WholeDoc, From: d.BodyFrom, To: d.N, Code: true}
	}
	lines := func(d *DocText, sel, from, to int) *Chunk {
		return &Chunk{Sel: sel, Doc: d, Kind: LinesChunk, From: from, To: to, Code: true}
	}
	cases := []struct {
		name   string
		chunks []*Chunk
		states []ChunkState
		setup  func(cs []*Chunk)
		want   string
	}{
		{"no overlap", []*Chunk{lines(plain, 0, 1, 3), lines(plain, 1, 4, 5)}, []ChunkState{Kept, Kept}, nil, ""},
		{"covered by an earlier chunk", []*Chunk{whole(plain, 0), lines(plain, 1, 2, 3)}, []ChunkState{Kept, Covered}, nil,
			"\nOverlaps:\n- select[1] (p, lines L2–3) overlaps select[0] (p, whole doc): L2–3 already returned in select[0]'s chunk.\n"},
		{"owner left out: no line", []*Chunk{whole(plain, 0), lines(plain, 1, 2, 3)}, []ChunkState{LeftOut, Covered}, nil, ""},
		{"cut owner: only its returned lines", []*Chunk{whole(plain, 0), lines(plain, 1, 2, 6)}, []ChunkState{Kept, Covered},
			func(cs []*Chunk) { cs[0].CutTo = 4 },
			"\nOverlaps:\n- select[1] (p, lines L2–6) overlaps select[0] (p, whole doc, cut after L4): L2–4 already returned in select[0]'s chunk.\n"},
		{"different settings over code and images", []*Chunk{whole(dt, 0), lines(dt, 1, 5, 8)}, []ChunkState{Kept, Covered},
			func(cs []*Chunk) { cs[0].Code, cs[1].Images = false, true },
			"\nOverlaps:\n- select[1] (x, lines L5–8) overlaps select[0] (x, whole doc): L5–8 already returned in select[0]'s chunk, with code blocks omitted (include_code=false) and with images omitted (include_images=false): ask for them again in a separate call to get the code blocks and images.\n"},
		{"different settings, no code in the lines", []*Chunk{whole(plain, 0), lines(plain, 1, 2, 2)}, []ChunkState{Kept, Covered},
			func(cs []*Chunk) { cs[1].Code = false },
			"\nOverlaps:\n- select[1] (p, lines L2) overlaps select[0] (p, whole doc): L2 already returned in select[0]'s chunk.\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			AssignLines(tc.chunks)
			for i, s := range tc.states {
				tc.chunks[i].State = s
			}
			if tc.setup != nil {
				tc.setup(tc.chunks)
			}
			var b strings.Builder
			WriteOverlaps(&b, tc.chunks)
			if b.String() != tc.want {
				t.Errorf("got  %q\nwant %q", b.String(), tc.want)
			}
		})
	}
}
