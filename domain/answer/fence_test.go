package answer

import (
	"reflect"
	"testing"

	"github.com/librarian/librarian/domain"
)

// fenced is a doc with frontmatter, a closed python block (L4–7) and an
// unclosed block (L9–10) at the end of the file.
func fenced() *DocText {
	content := "---\nid: x\n---\n```  python  \na = 1\nb = 2\n```\ntext\n~~~~\nopen\n"
	s := domain.Structure{FrontmatterEnd: 3, CodeBlocks: []domain.CodeBlock{
		{Info: "", Fence: "~~~~", Start: 9, End: 12, Closed: false}, // End past the file: clamped
		{Info: "python", Fence: "```", Start: 4, End: 7, Closed: true},
	}, Images: []domain.ImageStub{{ID: "a", Line: 8}, {ID: "b", Line: 8}}}
	return NewDocText(domain.Document{ID: "x", Path: "d/x.md"}, []byte(content), s)
}

func TestDocText(t *testing.T) {
	dt := fenced()
	if dt.N != 10 || dt.BodyFrom != 4 || dt.Name() != "x (d/x.md)" {
		t.Fatalf("N=%d BodyFrom=%d Name=%q", dt.N, dt.BodyFrom, dt.Name())
	}
	if got := string(dt.Line(8)); got != "text" {
		t.Errorf("Line(8) = %q", got)
	}
	if got := dt.BytesOf(4, 5); got != len("```  python  \na = 1\n") {
		t.Errorf("BytesOf(4, 5) = %d", got)
	}
	if dt.BytesOf(5, 4) != 0 {
		t.Error("BytesOf of an empty range")
	}
	cases := []struct {
		line      int
		wantStart int // 0: no block
	}{{3, 0}, {4, 4}, {6, 4}, {7, 4}, {8, 0}, {10, 9}}
	for _, tc := range cases {
		b := dt.BlockAt(tc.line)
		if got := 0; b != nil {
			got = b.Start
			if got != tc.wantStart {
				t.Errorf("BlockAt(%d).Start = %d, want %d", tc.line, got, tc.wantStart)
			}
		} else if tc.wantStart != 0 {
			t.Errorf("BlockAt(%d) = nil, want block at %d", tc.line, tc.wantStart)
		}
	}
	if !dt.HasCode(1, 4) || dt.HasCode(8, 8) || !dt.HasStubs(8, 8) || dt.HasStubs(1, 7) {
		t.Error("HasCode/HasStubs")
	}
	if !reflect.DeepEqual(dt.StubsAt(8), []string{"a", "b"}) {
		t.Errorf("StubsAt(8) = %v", dt.StubsAt(8))
	}
	if e := NewDocText(domain.Document{}, nil, domain.Structure{}); e.N != 0 || e.BodyFrom != 1 {
		t.Errorf("empty: N=%d BodyFrom=%d", e.N, e.BodyFrom)
	}
}

func TestFenceRepairs(t *testing.T) {
	dt := fenced()
	cases := []struct {
		name string
		got  []string
		want []string
	}{
		{"open inside python", dt.OpeningRepair(5), []string{"[fence re-opened: L5 is inside the python code block of L4–7]", "```  python"}},
		{"open at the fence", dt.OpeningRepair(4), nil},
		{"open outside code", dt.OpeningRepair(8), nil},
		{"close inside python", dt.ClosingRepair(5), []string{"```", "[fence closed: the python code block of L4–7 continues after L5]"}},
		{"close at the fence", dt.ClosingRepair(7), nil},
		{"close outside code", dt.ClosingRepair(8), nil},
		{"close never closed", dt.ClosingRepair(10), []string{"~~~~", "[fence closed: the code block of L9–10 is never closed in the file]"}},
		{"close inside unclosed", dt.ClosingRepair(9), []string{"~~~~", "[fence closed: the code block of L9–10 continues after L9]"}},
	}
	for _, tc := range cases {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestOpeningFence(t *testing.T) {
	cases := []struct {
		line string
		blk  domain.CodeBlock
		want string
	}{
		{"```go", domain.CodeBlock{Fence: "```", Info: "go"}, "```go"},
		{"  ```` go  {.x}  \r", domain.CodeBlock{Fence: "````", Indent: "  ", Info: "go  {.x}"}, "  ```` go  {.x}"},
		{"```", domain.CodeBlock{Fence: "```"}, "```"},
		{"odd", domain.CodeBlock{Fence: "```", Info: "sh"}, "``` sh"},
	}
	for _, tc := range cases {
		tc.blk.Start, tc.blk.End = 1, 1
		dt := NewDocText(domain.Document{}, []byte(tc.line+"\n"), domain.Structure{})
		if got := dt.OpeningFence(&tc.blk); got != tc.want {
			t.Errorf("OpeningFence(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestCodePlaceholder(t *testing.T) {
	cases := []struct {
		blk  domain.CodeBlock
		want string
	}{
		{domain.CodeBlock{Info: "python extra", Start: 22, End: 34, Closed: true}, "[code block omitted: python, 11 lines, L22–34]"},
		{domain.CodeBlock{Start: 3, End: 5, Closed: true}, "[code block omitted: 1 lines, L3–5]"},
		{domain.CodeBlock{Info: "sh", Start: 3, End: 5}, "[code block omitted: sh, 2 lines, L3–5]"},
	}
	for _, tc := range cases {
		if got := CodePlaceholder(&tc.blk); got != tc.want {
			t.Errorf("CodePlaceholder(%+v) = %q, want %q", tc.blk, got, tc.want)
		}
	}
	if BlockName(&domain.CodeBlock{}) != "code block" || BlockName(&domain.CodeBlock{Info: "go x"}) != "go code block" {
		t.Error("BlockName")
	}
}
