package markdowntest

import (
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
)

// TestCheckAcceptsTheSuite shows that every wanted structure of the suite
// holds the invariants, so Check and the tables agree.
func TestCheckAcceptsTheSuite(t *testing.T) {
	for _, prop := range properties() {
		for _, c := range prop.cases {
			if err := Check([]byte(c.src), c.want); err != nil {
				t.Errorf("%s/%s: Check(want) = %v, want nil", prop.name, c.name, err)
			}
		}
	}
}

// TestCheckRejects shows that Check finds each kind of broken structure.
func TestCheckRejects(t *testing.T) {
	const src = "## A\n### B\ntext\n## C\n```\nx\n```\n" // 7 lines
	valid := func() domain.Structure {
		return domain.Structure{
			Lines: 7,
			Sections: []domain.Section{
				top("a", "A", 2, 1, 3),
				sec("a/b", "B", 3, 2, 3, 0, 2),
				top("c", "C", 2, 4, 7),
			},
			CodeBlocks: []domain.CodeBlock{code("", "```", "", 5, 7, true)},
			Images:     []domain.ImageStub{img("x", 3)},
		}
	}
	if err := Check([]byte(src), valid()); err != nil {
		t.Fatalf("Check(valid) = %v, want nil", err)
	}
	tests := []struct {
		name   string
		breakS func(*domain.Structure)
		want   string // a fragment of the error
	}{
		{"line count", func(s *domain.Structure) { s.Lines = 8 }, "input has 7 lines"},
		{"frontmatter past the end", func(s *domain.Structure) { s.FrontmatterEnd = 9 }, "FrontmatterEnd = 9"},
		{"section in frontmatter", func(s *domain.Structure) { s.FrontmatterEnd = 2 }, "outside the body"},
		{"end before start", func(s *domain.Structure) { s.Sections[2].End = 3 }, "outside the body"},
		{"end past the last line", func(s *domain.Structure) { s.Sections[2].End = 8 }, "outside the body"},
		{"duplicate id", func(s *domain.Structure) { s.Sections[2].ID, s.Sections[2].Slug = "a", "a" }, "already used"},
		{"empty slug", func(s *domain.Structure) { s.Sections[2].ID, s.Sections[2].Slug = "", "" }, "empty or has a '/'"},
		{"out of order", func(s *domain.Structure) { s.Sections[2].Start = 2 }, "starts at or before"},
		{"parent after child", func(s *domain.Structure) { s.Sections[1].Parent = 2 }, "does not come before"},
		{"outside its parent", func(s *domain.Structure) { s.Sections[0].End = 2 }, "not inside its parent"},
		{"wrong depth", func(s *domain.Structure) { s.Sections[1].Depth = 1 }, "under parent"},
		{"id not nested", func(s *domain.Structure) { s.Sections[1].ID = "b" }, "under parent"},
		{"overlap", func(s *domain.Structure) { s.Sections[0].End, s.Sections[1].End = 4, 4 }, "overlaps"},
		{"level 0 heading", func(s *domain.Structure) { s.Sections[2].Level = 0 }, "level 0"},
		{"code past the end", func(s *domain.Structure) { s.CodeBlocks[0].End = 8 }, "outside the body"},
		{"code overlap", func(s *domain.Structure) {
			s.CodeBlocks = append(s.CodeBlocks, code("", "```", "", 6, 7, true))
		}, "starts before CodeBlocks[0] ends"},
		{"short fence", func(s *domain.Structure) { s.CodeBlocks[0].Fence = "``" }, "fence"},
		{"mixed fence", func(s *domain.Structure) { s.CodeBlocks[0].Fence = "``~" }, "fence"},
		{"indent not blank", func(s *domain.Structure) { s.CodeBlocks[0].Indent = "> " }, "indent"},
		{"closed on its opening line", func(s *domain.Structure) { s.CodeBlocks[0].End = 5 }, "closed on its opening line"},
		{"image past the end", func(s *domain.Structure) { s.Images[0].Line = 8 }, "outside the body"},
		{"image in code", func(s *domain.Structure) { s.Images[0].Line = 6 }, "inside the code block"},
		{"images out of order", func(s *domain.Structure) {
			s.Images = append(s.Images, img("y", 1))
		}, "before Images[0]"},
		{"empty image id", func(s *domain.Structure) { s.Images[0].ID = " " }, "empty id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := valid()
			tt.breakS(&s)
			err := Check([]byte(src), s)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Check = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestDiff shows that diff reports each difference and treats nil and empty
// slices alike.
func TestDiff(t *testing.T) {
	a := domain.Structure{Lines: 1, Sections: []domain.Section{preamble(1, 1)}}
	if d := diff(a, a); d != "" {
		t.Errorf("diff(a, a) = %q, want \"\"", d)
	}
	if d := diff(domain.Structure{Images: []domain.ImageStub{}}, domain.Structure{}); d != "" {
		t.Errorf("diff(empty, nil) = %q, want \"\"", d)
	}
	b := domain.Structure{Lines: 2, Sections: []domain.Section{preamble(1, 2)}, Images: []domain.ImageStub{img("x", 1)}}
	d := diff(a, b)
	for _, want := range []string{"Lines: got 1, want 2", "Sections[0]:", "Images[0]: missing"} {
		if !strings.Contains(d, want) {
			t.Errorf("diff(a, b) = %q, want it to contain %q", d, want)
		}
	}
}
