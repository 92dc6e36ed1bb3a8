package jsonindex

import (
	"slices"
	"testing"
)

// Edge cases of the index's shape, beside the fixtures in testdata/indexes.
func TestParseIndexEdgeCases(t *testing.T) {
	tests := []struct {
		name, data string
		want       []string // problems; nil for a valid index
		docs       int
	}{
		{"empty file", "", []string{"index.json:1:1: invalid JSON: unexpected end of JSON input"}, 0},
		{"null", "null", []string{`index.json: top level must be an object {"documents": [...]}, got null`}, 0},
		{"string", `"documents"`, []string{`index.json: top level must be an object {"documents": [...]}, got a string`}, 0},
		{"empty object", "{}", []string{`index.json: missing required field 'documents': the index must be {"documents": [...]}`}, 0},
		{"documents null", `{"documents": null}`, []string{"index.json: 'documents' must be a list, got null"}, 0},
		{"no documents", `{"documents": []}`, nil, 0},
		{"column counts characters", "{\"documents\": [\n  {\"id\": \"ünï\" \"path\": \"a.md\"}]}",
			[]string{`index.json:2:16: invalid JSON: invalid character '"' after object key:value pair`}, 0},
		{"trailing garbage", `{"documents": []} x`, []string{"index.json:1:19: invalid JSON: invalid character 'x' after top-level value"}, 0},
		{"control character in id", `{"documents": [{"id": "a\nb", "path": "/a.md"}]}`,
			[]string{`documents[0] (id "a\nb"): 'path' must be relative, not absolute`}, 0},
		{"long value cut", `{"documents": [{"id": "a", "path": "a.md", "title": ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc", "dddddddddd"]}]}`,
			[]string{`documents[0] (id 'a'): 'title' must be a string, got ["aaaaaaaaaa","bbbbbbbbbb","ccccccccc...`}, 0},
		{"valid", `{"documents": [{"id": "b", "path": "b.md"}, {"id": "a", "path": "a.md", "approx_tokens": 12}]}`, nil, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries, _, problems := parseIndex("index.json", []byte(tt.data))
			var got []string
			for _, p := range problems {
				got = append(got, p.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("problems:\n got %q\nwant %q", got, tt.want)
			}
			if len(entries) != tt.docs {
				t.Errorf("%d entries, want %d", len(entries), tt.docs)
			}
		})
	}
}

// TestSamePathIsAWarning: seed 000 fails a call for a missing field, a
// wrong type, a duplicate id or a bad path; two entries with the same path
// are none of those (an alias), so both are kept, with a warning.
func TestSamePathIsAWarning(t *testing.T) {
	entries, warnings, problems := parseIndex("index.json", []byte(`{"documents": [
		{"id": "auth", "path": "backend/auth.md"}, {"id": "auth-again", "path": "./backend//auth.md"}, {"id": "x", "path": "x.md"}]}`))
	if len(problems) != 0 || len(entries) != 3 {
		t.Fatalf("problems %v, %d entries; want none and 3", problems, len(entries))
	}
	want := []string{"documents[1] (id 'auth-again'): same path 'backend/auth.md' as documents[0] (id 'auth'): both ids serve that file"}
	if !slices.Equal(warnings, want) {
		t.Errorf("warnings:\n got %q\nwant %q", warnings, want)
	}
	// An entry with problems of its own fails the index; it warns of nothing.
	_, warnings, problems = parseIndex("index.json", []byte(`{"documents": [{"id": "a", "path": "a.md"}, {"id": "a", "path": "a.md"}]}`))
	if len(problems) != 1 || len(warnings) != 0 {
		t.Errorf("a duplicate id with the same path: problems %v, warnings %q; want one problem, no warning", problems, warnings)
	}
}
