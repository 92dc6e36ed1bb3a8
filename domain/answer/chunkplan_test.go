package answer

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
)

// sectioned is a 12-line doc with frontmatter (L1–3) and sections.
func sectioned() *DocText {
	content := strings.Repeat("line\n", 12)
	s := domain.Structure{FrontmatterEnd: 3, Sections: []domain.Section{
		{ID: "intro", Start: 4, End: 6},
		{ID: "tokens", Start: 7, End: 12},
		{ID: "tokens/rotation", Start: 9, End: 10},
		{ID: "keys/rotation", Start: 11, End: 12},
		{ID: "tokens/expiry", Start: 11, End: 12},
		{ID: "ghost", Start: 20, End: 25},
	}}
	return NewDocText(domain.Document{ID: "auth", Path: "backend/auth.md"}, []byte(content), s)
}

func TestPlanChunks(t *testing.T) {
	yes, no := true, false
	dt := sectioned()
	type got struct{ chunks, notes []string }
	show := func(cs []*Chunk, ns []domain.SelNote) got {
		var g got
		for _, c := range cs {
			g.chunks = append(g.chunks, c.Header()+" "+map[bool]string{true: "img", false: "-"}[c.Images]+map[bool]string{true: "code", false: "-"}[c.Code])
		}
		for _, n := range ns {
			g.notes = append(g.notes, n.Text)
		}
		return g
	}
	cases := []struct {
		name string
		sel  domain.Selector
		want got
	}{
		{"whole doc skips frontmatter", domain.Selector{Doc: "auth"}, got{chunks: []string{"=== auth (backend/auth.md) · L4–12 === -code"}}},
		{"selector settings override", domain.Selector{Doc: "auth", IncludeImages: &yes, IncludeCode: &no}, got{chunks: []string{"=== auth (backend/auth.md) · L4–12 === img-"}}},
		{"sections in the order given, by leaf", domain.Selector{Doc: "auth", Sections: []string{"tokens/rotation", "intro", "expiry"}}, got{chunks: []string{
			"=== auth (backend/auth.md) · section tokens/rotation · L9–10 === -code",
			"=== auth (backend/auth.md) · section intro · L4–6 === -code",
			"=== auth (backend/auth.md) · section tokens/expiry · L11–12 === -code",
		}}},
		{"ambiguous leaf", domain.Selector{Doc: "auth", Sections: []string{"rotation"}}, got{notes: []string{
			"select[2]: section 'rotation' of auth (backend/auth.md) is ambiguous: it may be tokens/rotation, keys/rotation; use the full id",
		}}},
		{"unknown section", domain.Selector{Doc: "auth", Sections: []string{"nosuch"}}, got{notes: []string{
			"select[2]: auth (backend/auth.md) has no section 'nosuch'; its sections: intro, tokens, tokens/rotation, keys/rotation, tokens/expiry, ghost",
		}}},
		{"section past the file", domain.Selector{Doc: "auth", Sections: []string{"ghost"}}, got{notes: []string{
			"select[2]: section 'ghost' of auth (backend/auth.md) has no lines in the file",
		}}},
		{"lines clamped", domain.Selector{Doc: "auth", Lines: &domain.LineRange{From: 10, To: 99}}, got{
			chunks: []string{"=== auth (backend/auth.md) · L10–12 === -code"},
			notes:  []string{"select[2]: lines [10, 99] of auth (backend/auth.md) clamped to L10–12: the file has 12 lines"},
		}},
		{"lines outside", domain.Selector{Doc: "auth", Lines: &domain.LineRange{From: 13, To: 14}}, got{notes: []string{
			"select[2]: lines [13, 14] are outside auth (backend/auth.md), which has 12 lines: nothing returned",
		}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cs, ns := PlanChunks(domain.Target{Sel: 2, Doc: dt.Doc}, tc.sel, dt, false, true)
			if g := show(cs, ns); !reflect.DeepEqual(g, tc.want) {
				t.Errorf("got %q\nwant %q", g, tc.want)
			}
		})
	}
	var many domain.Structure
	for i := 0; i < 42; i++ {
		many.Sections = append(many.Sections, domain.Section{ID: "s" + itoa(i)})
	}
	if got := SectionList(many); !strings.HasSuffix(got, "s39, ... (2 more: the doc's outline lists them all)") || SectionList(domain.Structure{}) != "(none)" {
		t.Errorf("SectionList = %q", got)
	}
}

func TestAssignLines(t *testing.T) {
	dt := sectioned()
	empty := NewDocText(domain.Document{ID: "e", Path: "e.md"}, nil, domain.Structure{})
	chunk := func(from, to int) *Chunk { return &Chunk{Doc: dt, From: from, To: to} }
	cases := []struct {
		name   string
		chunks []*Chunk
		want   [][]Segment
		states []ChunkState
	}{
		{"disjoint", []*Chunk{chunk(4, 6), chunk(7, 8)},
			[][]Segment{{{4, 6, 0}}, {{7, 8, 1}}}, []ChunkState{Pending, Pending}},
		{"later chunk inside an earlier one is covered", []*Chunk{chunk(4, 12), chunk(9, 10)},
			[][]Segment{{{4, 12, 0}}, {{9, 10, 0}}}, []ChunkState{Pending, Covered}},
		{"overlaps split into segments", []*Chunk{chunk(6, 7), chunk(9, 10), chunk(4, 12)},
			[][]Segment{{{6, 7, 0}}, {{9, 10, 1}}, {{4, 5, 2}, {6, 7, 0}, {8, 8, 2}, {9, 10, 1}, {11, 12, 2}}}, []ChunkState{Pending, Pending, Pending}},
		{"an empty doc is shown once", []*Chunk{{Doc: empty, From: 1, To: 0}, {Doc: empty, From: 1, To: 0}},
			[][]Segment{nil, nil}, []ChunkState{Pending, Covered}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			AssignLines(tc.chunks)
			for i, c := range tc.chunks {
				if !reflect.DeepEqual(c.Segments, tc.want[i]) || c.State != tc.states[i] {
					t.Errorf("chunk %d: segments %v state %v, want %v %v", i, c.Segments, c.State, tc.want[i], tc.states[i])
				}
			}
		})
	}
}

func TestChunkNames(t *testing.T) {
	dt := sectioned()
	root := "backend"
	c := &Chunk{Doc: dt, Kind: SectionChunk, Section: "tokens", From: 7, To: 12, Root: &root, Segments: []Segment{{7, 8, 1}, {9, 12, 0}}}
	cases := []struct{ got, want string }{
		{c.Header(), "=== auth (backend/auth.md) · section tokens · L7–12 ==="},
		{c.Asked(), "root backend: auth § tokens, L7–12"},
		{c.CutAt(9).Header(), "=== auth (backend/auth.md) · section tokens · L7–9 ==="},
		{(&Chunk{Doc: dt, Kind: WholeDoc, From: 4, To: 12, CutTo: 8}).Describe(), "auth, whole doc, cut after L8"},
		{(&Chunk{Doc: dt, Kind: LinesChunk, From: 5, To: 5}).Describe(), "auth, lines L5"},
		{(&Chunk{Doc: dt, Kind: WholeDoc, From: 1, To: 0}).Header(), "=== auth (backend/auth.md) · empty ==="},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if cut := c.CutAt(9); !reflect.DeepEqual(cut.Segments, []Segment{{7, 8, 1}, {9, 9, 0}}) || cut.Kind != LinesChunk {
		t.Errorf("CutAt(9) = %+v", cut)
	}
	if c.Untrimmed(1) || !c.HasNewLines(1) || c.HasNewLines(2) {
		t.Error("Untrimmed/HasNewLines")
	}
	whole := &Chunk{Doc: NewDocText(domain.Document{ID: "a", Path: "a.md", Tokens: 99, HasTokens: true}, []byte("abcdefgh\n"), domain.Structure{}), Kind: WholeDoc, From: 1, To: 1, Segments: []Segment{{1, 1, 0}}}
	if whole.Estimate(0) != 99 {
		t.Errorf("Estimate of an untrimmed whole doc = %d, want the index's 99", whole.Estimate(0))
	}
	whole.Kind = LinesChunk
	if got, want := whole.Estimate(0), domain.EstimateTokens(int64(len(whole.Header())+1+9)); got != want {
		t.Errorf("Estimate = %d, want %d", got, want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
