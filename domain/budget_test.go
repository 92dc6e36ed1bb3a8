package domain

import (
	"strings"
	"testing"
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
	dt := NewDocText(Document{ID: "d", Path: "d.md"}, []byte(strings.Join(lines, "\n")+"\n"), Structure{
		Sections:   []Section{{ID: "a", Start: 1, End: 10}, {ID: "b", Start: 11, End: 20}},
		CodeBlocks: []CodeBlock{{Info: "python", Fence: "```", Start: 14, End: 16, Closed: true}},
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
