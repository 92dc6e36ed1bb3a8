package answer

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/librarian/librarian/domain"
)

func TestBudgetFits(t *testing.T) {
	cases := []struct {
		b      Budget
		tokens int
		want   bool
	}{
		{Budget{Max: 0, Used: 500}, 1 << 20, true},
		{Budget{Max: 100, Used: 60}, 40, true},
		{Budget{Max: 100, Used: 60}, 41, false},
	}
	for _, tc := range cases {
		if got := tc.b.Fits(tc.tokens); got != tc.want {
			t.Errorf("%+v.Fits(%d) = %v", tc.b, tc.tokens, got)
		}
	}
}

func TestPlanCut(t *testing.T) {
	// 20 lines of 9 bytes ("line NN\n" padded); sections start at L1 and L11;
	// a python block at L14–16.
	var lines []string
	for i := 1; i <= 20; i++ {
		lines = append(lines, "line "+strings.Repeat("x", 3))
	}
	dt := NewDocText(domain.Document{ID: "d", Path: "d.md"}, []byte(strings.Join(lines, "\n")+"\n"), domain.Structure{
		Sections:   []domain.Section{{ID: "a", Start: 1, End: 10}, {ID: "b", Start: 11, End: 20}},
		CodeBlocks: []domain.CodeBlock{{Info: "python", Fence: "```", Start: 14, End: 16, Closed: true}},
	})
	whole := func() *Chunk {
		c := &Chunk{Doc: dt, Kind: WholeDoc, From: 1, To: 20, Code: true}
		AssignLines([]*Chunk{c})
		return c
	}
	head := len(whole().Header()) + 1
	// marks after every line, at the bytes of the whole rendering so far.
	var marks []LineMark
	for k := 1; k <= 20; k++ {
		marks = append(marks, LineMark{Line: k, Bytes: head + 9*k, Own: true})
	}
	full := head + 9*20
	// cost of cutting after line k, as PlanCut counts it (no fence repair).
	cost := func(k int) int { return len(whole().CutAt(k).Header()) + 1 + 9*k }
	tokensFor := func(bytes int) int { return (bytes + 3) / 4 }
	cases := []struct {
		name  string
		c     *Chunk
		b     Budget
		full  int
		marks []LineMark
		want  Cut
	}{
		{"empty doc, nothing kept", &Chunk{Doc: dt, From: 1, To: 0}, Budget{Max: 10, Used: 0}, 30, nil, Cut{Kind: CutKeepWhole}},
		{"empty doc after a kept chunk", &Chunk{Doc: dt, From: 1, To: 0}, Budget{Max: 10, Used: 5, KeptAny: true}, 30, nil, Cut{Kind: CutLeaveOut}},
		{"less than an eighth left", whole(), Budget{Max: 800, Used: 701, KeptAny: true}, full, marks, Cut{Kind: CutLeaveOut}},
		{"the index overrated it: whole, re-measured", whole(), Budget{Max: 1000}, full, marks, Cut{Kind: CutKeepMeasured}},
		{"as many lines as fit", whole(), Budget{Max: tokensFor(cost(5))}, full, marks, Cut{Kind: CutLines, To: 5}},
		{"before a heading in the last quarter", whole(), Budget{Max: tokensFor(cost(12))}, full, marks, Cut{Kind: CutLines, To: 10}},
		{"never just after an opening fence, nor inside a block its repair overfills", whole(), Budget{Max: tokensFor(cost(15))}, full, marks, Cut{Kind: CutLines, To: 13}},
		{"not one line fits, nothing kept: the first line", whole(), Budget{Max: 1}, full, marks, Cut{Kind: CutLines, To: 1}},
		{"not one line fits after a kept chunk", whole(), Budget{Max: 8, Used: 1, KeptAny: true}, full, marks, Cut{Kind: CutLeaveOut}},
		{"no place to cut: whole", whole(), Budget{Max: 1}, full, nil, Cut{Kind: CutKeepWhole}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := PlanCut(tc.c, 0, tc.b, tc.full, tc.marks); got != tc.want {
				t.Errorf("PlanCut = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestPlanCutInsideALine: a line alone over the budget, with nothing
// returned yet, is cut inside (issue 14.5: a one-line doc of 1,000,000
// characters fetched with max_tokens 100 came back whole).
func TestPlanCutInsideALine(t *testing.T) {
	big := strings.Repeat("é", 500000) // 1,000,000 bytes
	one := NewDocText(domain.Document{ID: "one", Path: "one.md"}, []byte(big+"\n"), domain.Structure{})
	two := NewDocText(domain.Document{ID: "two", Path: "two.md"}, []byte(big+"\nshort\n"), domain.Structure{})
	shortLine := NewDocText(domain.Document{ID: "s", Path: "s.md"}, []byte(strings.Repeat("x", MinLineCut)+"\n"), domain.Structure{})
	code := NewDocText(domain.Document{ID: "c", Path: "c.md"}, []byte("```\n"+big+"\n```\n"), domain.Structure{
		CodeBlocks: []domain.CodeBlock{{Fence: "```", Start: 1, End: 3, Closed: true}},
	})
	chunk := func(dt *DocText, code bool) *Chunk {
		c := &Chunk{Doc: dt, Kind: WholeDoc, From: 1, To: dt.N, Code: code}
		AssignLines([]*Chunk{c})
		return c
	}
	head := func(c *Chunk) int { return len(c.Header()) + 1 }
	c1 := chunk(one, true)
	c2 := chunk(two, true)
	cs := chunk(shortLine, true)
	cc := chunk(code, false)
	cases := []struct {
		name  string
		c     *Chunk
		b     Budget
		full  int
		marks []LineMark
		want  Cut
	}{
		{"one line over the budget", c1, Budget{Max: 100}, head(c1) + len(big) + 1, nil,
			Cut{Kind: CutInLine, To: 1, Keep: (400 - head(c1)) &^ 1}}, // é is 2 bytes
		{"first of two lines over the budget", c2, Budget{Max: 100}, head(c2) + len(big) + 7,
			[]LineMark{{Line: 1, Bytes: head(c2) + len(big) + 1, Own: true}, {Line: 2, Bytes: head(c2) + len(big) + 7, Own: true}},
			Cut{Kind: CutInLine, To: 1, Keep: (400 - len(c2.CutAt(1).Header()) - 1) &^ 1}},
		{"a tiny budget keeps MinLineCut bytes", c1, Budget{Max: 1}, head(c1) + len(big) + 1, nil,
			Cut{Kind: CutInLine, To: 1, Keep: MinLineCut}},
		{"a line of MinLineCut bytes goes whole", cs, Budget{Max: 1}, head(cs) + MinLineCut + 1, nil, Cut{Kind: CutKeepWhole}},
		{"after a kept chunk: left out", c1, Budget{Max: 100, Used: 10, KeptAny: true}, head(c1) + len(big) + 1, nil, Cut{Kind: CutLeaveOut}},
	}
	for _, tc := range cases {
		got := PlanCut(tc.c, 0, tc.b, tc.full, tc.marks)
		if got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
		if got.Kind == CutInLine && !utf8.Valid(tc.c.Doc.Line(got.To)[:got.Keep]) {
			t.Errorf("%s: the cut splits a character", tc.name)
		}
	}
	// An omitted block's placeholder stands for the long line: not cut.
	if got := PlanCut(cc, 0, Budget{Max: 10}, 100, []LineMark{{Line: 3, Bytes: 100, Own: true}}); got.Kind == CutInLine {
		t.Errorf("omitted code: got %+v", got)
	}
}
