package engine

import (
	"strings"
	"testing"
)

func TestEvalRank(t *testing.T) {
	locate := "Locations for 'x' (source: index):\n- [heading] A -> a.md:1\n- [function] f -> b.md:3  (x)\n- [entry] c -> c.md:1\n    depends_on: auth"
	ask := "From the library:\n\n[1] a (a.md) § s · L1–2\n  L1: nothing\n\n[2] b (b.md) § ttl-rules · L3–4\n  L3: TTL\n\nAll of them in one call: get_documents [{\"doc\": \"z\"}]\n"
	brief := "Brief for \"t\":\n\nWhat the library has:\n1. a (a.md) ~10 tokens\n   § x\n2. caching (c.md) ~5 tokens\n"
	for _, tc := range []struct {
		skill, answer, want string
		rank                int
		ranked              bool
	}{
		{"locate", locate, "b.md:3", 2, true},
		{"locate", locate, "depends_on: AUTH", 3, true},
		{"locate", locate, "zzz", 0, true},
		{"ask_librarian", ask, "ttl-rules", 2, true},
		{"ask_librarian", ask, `"doc": "z"`, 0, true},
		{"brief", brief, "caching (c.md)", 2, true},
		{"depends", "Dependencies of 'x':", "x", 0, false},
		{"ask_librarian", "It is redis.", "redis", 0, false},
	} {
		q := EvalQuestion{ID: "q", Skill: tc.skill, Expect: EvalExpect{AnyOf: []string{tc.want}}}
		if rank, ranked := EvalRank(q, tc.answer); rank != tc.rank || ranked != tc.ranked {
			t.Errorf("%s %q: rank %d ranked %v, want %d %v", tc.skill, tc.want, rank, ranked, tc.rank, tc.ranked)
		}
	}
	r := EvalReport{Results: []EvalResult{
		{Question: EvalQuestion{ID: "l1", Skill: "locate", Expect: EvalExpect{AnyOf: []string{"c.md"}}}, Answer: locate},
		{Question: EvalQuestion{ID: "d1", Skill: "depends", Expect: EvalExpect{AnyOf: []string{"x"}}}, Answer: "x"},
	}}
	if got := r.RetrievalText(); !strings.Contains(got, "  l1 [locate]: rank 3\n") || !strings.HasSuffix(got, "Top 3: 1/1 ranked answers\n") {
		t.Errorf("retrieval text:\n%s", got)
	}
}
