package browse_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/domain"
)

// TestGetDocumentsTailWithinBudget (issue 20.1): the Notes, Overlaps and
// Left out blocks count against max_tokens like the chunks. 1,000 copies
// of one doc id answered 27,462 tokens at the default 20,000 budget (one
// overlap line per copy), and 100,000 copies 11 MB.
func TestGetDocumentsTailWithinBudget(t *testing.T) {
	lib := openTestLibrary(t)
	ctx := context.Background()
	repeat := func(sel string, n int) string {
		return "[" + strings.TrimSuffix(strings.Repeat(sel+",", n), ",") + "]"
	}
	var mixed []string
	for i := range 300 {
		switch i % 3 {
		case 0:
			mixed = append(mixed, `"auth"`)
		case 1:
			mixed = append(mixed, fmt.Sprintf(`"missing-%d"`, i))
		default:
			mixed = append(mixed, `{"doc": "caching", "lines": [1, 30]}`)
		}
	}
	cases := []struct {
		name, sel string
		budgets   []int
	}{
		{"one doc 1,000 times", repeat(`"auth"`, 1000), []int{20000, 2000, 500}},
		{"one unknown doc 1,000 times", repeat(`"nope"`, 1000), []int{20000, 500}},
		{"300 mixed", "[" + strings.Join(mixed, ",") + "]", []int{20000, 2000, 500}},
		{"a root 200 times", repeat(`{"root": "."}`, 200), []int{20000, 1000}},
	}
	for _, tc := range cases {
		for _, budget := range tc.budgets {
			t.Run(fmt.Sprintf("%s/%d", tc.name, budget), func(t *testing.T) {
				ans, err := browse.New(lib).GetDocuments(ctx, browse.GetRequest{Select: parseSelect(t, tc.sel), IncludeCode: true, MaxTokens: intPtr(budget)})
				if err != nil {
					t.Fatal(err)
				}
				text := ans.String()
				if got := domain.EstimateTokens(int64(len(text))); got > budget {
					t.Fatalf("~%d tokens at max_tokens=%d (%d bytes); its end:\n%s", got, budget, len(text), endOf(text, 1500))
				}
			})
		}
	}
}

// TestGetDocumentsGroupsRepeatedNotes: notes and overlaps that say the same
// of many selectors are one line naming them, so 100,000 copies of one id
// (a 900 KB request) answer a few kilobytes, not 11 MB.
func TestGetDocumentsGroupsRepeatedNotes(t *testing.T) {
	lib := openTestLibrary(t)
	ids := make([]string, 100_000)
	for i := range ids {
		ids[i] = "auth"
		if i%2 == 1 {
			ids[i] = "nope"
		}
	}
	raw, _ := json.Marshal(ids)
	ans, err := browse.New(lib).GetDocuments(context.Background(), browse.GetRequest{Select: parseSelect(t, string(raw)), IncludeCode: true, MaxTokens: intPtr(0)})
	if err != nil {
		t.Fatal(err)
	}
	text := ans.String()
	if len(text) > 8<<10 {
		t.Fatalf("%d bytes; its end:\n%s", len(text), endOf(text, 1500))
	}
	for _, want := range []string{
		"- select[1], select[3], select[5], select[7], select[9], select[11], … (50000 selectors): unknown doc 'nope'",
		"- select[2], select[4], select[6], select[8], select[10], select[12], … (49999 selectors), each (auth, whole doc), overlap select[0] (auth, whole doc): L1–53 already returned in select[0]'s chunk.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no line\n%s\nin\n%s", want, endOf(text, 1500))
		}
	}
}

func endOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
