package domain

import (
	"reflect"
	"strings"
	"testing"
)

func TestHitWindows(t *testing.T) {
	tests := []struct {
		name               string
		hits, extra        []int
		context, first, to int
		want               []LineWindow
	}{
		{"no context: one line each", []int{3, 9}, nil, 0, 1, 20, []LineWindow{{3, 3}, {9, 9}}},
		{"adjacent hits merge", []int{3, 4}, nil, 0, 1, 20, []LineWindow{{3, 4}}},
		{"windows that touch merge (grep -C)", []int{3, 6}, nil, 1, 1, 20, []LineWindow{{2, 7}}},
		{"windows apart stay apart", []int{3, 8}, nil, 1, 1, 20, []LineWindow{{2, 4}, {7, 9}}},
		{"clamped to the body", []int{2, 19}, nil, 3, 2, 20, []LineWindow{{2, 5}, {16, 20}}},
		{"unsorted hits", []int{9, 3}, nil, 0, 1, 20, []LineWindow{{3, 3}, {9, 9}}},
		{"a table header alone, merged when it touches", []int{10, 5}, []int{2, 4}, 0, 1, 20, []LineWindow{{2, 2}, {4, 5}, {10, 10}}},
		{"a header inside a window", []int{5}, []int{4}, 2, 1, 20, []LineWindow{{3, 7}}},
		{"negative context is none", []int{5}, nil, -2, 1, 20, []LineWindow{{5, 5}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := HitWindows(tc.hits, tc.extra, tc.context, tc.first, tc.to)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("HitWindows(%v, %v, %d, %d, %d) = %v, want %v", tc.hits, tc.extra, tc.context, tc.first, tc.to, got, tc.want)
			}
		})
	}
}

func TestTableHeaderRow(t *testing.T) {
	doc := strings.Split(strings.Join([]string{
		"# Title",              // 1
		"",                     // 2
		"| Name | Type |",      // 3
		"| :--- | ---: |",      // 4
		"| port | int |",       // 5
		"| host | string |",    // 6
		"",                     // 7
		"a | b is not a table", // 8
		"c | d",                // 9
		"",                     // 10
		"Name | Type",          // 11 (no outer pipes)
		"--- | ---",            // 12
		"port | int",           // 13
		"",                     // 14
		"| lone | row |",       // 15
	}, "\n"), "\n")
	text := func(l int) string { return doc[l-1] }
	tests := []struct {
		line, first int
		want        int
		ok          bool
	}{
		{5, 0, 3, true},
		{6, 0, 3, true},
		{3, 0, 0, false}, // the header row itself
		{4, 0, 0, false}, // the delimiter row
		{9, 0, 0, false}, // pipes but no delimiter row
		{13, 0, 11, true},
		{15, 0, 0, false},
		{1, 0, 0, false},
		{6, 4, 0, false}, // the walk never reaches before first
	}
	for _, tc := range tests {
		got, ok := TableHeaderRow(tc.line, tc.first, text)
		if got != tc.want || ok != tc.ok {
			t.Errorf("TableHeaderRow(%d, first %d) = %d, %v; want %d, %v", tc.line, tc.first, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCodeBlockAt(t *testing.T) {
	blocks := []CodeBlock{{Start: 3, End: 6, Closed: true}, {Start: 10, End: 12, Closed: false}}
	for line, want := range map[int]int{1: -1, 3: -1, 4: 0, 5: 0, 6: -1, 7: -1, 10: -1, 11: 1, 12: 1, 13: -1} {
		if got := CodeBlockAt(blocks, line); got != want {
			t.Errorf("CodeBlockAt(L%d) = %d, want %d", line, got, want)
		}
	}
}
