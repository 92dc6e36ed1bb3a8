package domain

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestIndexEntries(t *testing.T) {
	tests := []struct {
		name, data string
		want       string // the problem, "" for none
		items      []string
	}{
		{"empty file", "", "index.json:1:1: invalid JSON: unexpected end of JSON input", nil},
		{"syntax error line and column", "{\"documents\": [\n  {\"id\": }]}",
			"index.json:2:10: invalid JSON: invalid character '}' looking for beginning of value", nil},
		{"column counts characters", "{\"documents\": [\n  {\"id\": \"ünï\" \"path\": \"a.md\"}]}",
			`index.json:2:16: invalid JSON: invalid character '"' after object key:value pair`, nil},
		{"trailing garbage", `{"documents": []} x`, "index.json:1:19: invalid JSON: invalid character 'x' after top-level value", nil},
		{"null", "null", `index.json: top level must be an object {"documents": [...]}, got null`, nil},
		{"string", `"documents"`, `index.json: top level must be an object {"documents": [...]}, got a string`, nil},
		{"list", `[{"id": "a"}]`, `index.json: top level must be an object {"documents": [...]}, got a list`, nil},
		{"number", " 12 ", `index.json: top level must be an object {"documents": [...]}, got a number`, nil},
		{"boolean", "true", `index.json: top level must be an object {"documents": [...]}, got a boolean`, nil},
		{"key missing", `{"images": []}`, `index.json: missing required field 'documents': the index must be {"documents": [...]}`, nil},
		{"key null", `{"documents": null}`, "index.json: 'documents' must be a list, got null", nil},
		{"key an object", `{"documents": {"id": "a"}}`, "index.json: 'documents' must be a list, got an object", nil},
		{"key a string", `{"documents": "a.md"}`, "index.json: 'documents' must be a list, got a string", nil},
		{"empty list", `{"documents": []}`, "", nil},
		{"items in order, other fields allowed", `{"version": 2, "documents": [{"id": "b"}, 3, null]}`, "",
			[]string{`{"id": "b"}`, "3", "null"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list, problem := IndexEntries("index.json", []byte(tt.data), "documents")
			got := ""
			if problem != nil {
				got = problem.String()
			}
			if got != tt.want {
				t.Errorf("problem = %q, want %q", got, tt.want)
			}
			var items []string
			for _, raw := range list {
				items = append(items, string(raw))
			}
			if !slices.Equal(items, tt.items) {
				t.Errorf("items = %q, want %q", items, tt.items)
			}
		})
	}
}

func TestIndexEntriesWordsTheKey(t *testing.T) {
	_, problem := IndexEntries("images.json", []byte("{}"), "images")
	want := `images.json: missing required field 'images': the index must be {"images": [...]}`
	if problem == nil || problem.String() != want {
		t.Errorf("problem = %v, want %q", problem, want)
	}
}

func TestReadIndexEntryRefusesWhatIsNotAnObject(t *testing.T) {
	tests := []struct {
		raw      string
		required []string
		want     string
	}{
		{"42", []string{"id", "path"}, "must be an object with 'id' and 'path', got 42"},
		{"null", []string{"id", "file"}, "must be an object with 'id' and 'file', got null"},
		{`[ "a",  "b" ]`, []string{"id"}, `must be an object with 'id', got ["a","b"]`},
		{`"x"`, []string{"a", "b", "c"}, `must be an object with 'a', 'b' and 'c', got "x"`},
		{"true", nil, "must be an object, got true"},
		{`["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc", "dddddddddd"]`, []string{"id", "path"},
			`must be an object with 'id' and 'path', got ["aaaaaaaaaa","bbbbbbbbbb","ccccccccc...`},
		{`"ééééééééééééééééééééééééééééééééééééééééé"`, []string{"id"}, // cut by characters, not bytes
			`must be an object with 'id', got "éééééééééééééééééééééééééééééééééééé...`},
	}
	for _, tt := range tests {
		e, got := ReadIndexEntry(json.RawMessage(tt.raw), tt.required...)
		if e != nil || got != tt.want {
			t.Errorf("ReadIndexEntry(%s) = %v, %q; want nil, %q", tt.raw, e, got, tt.want)
		}
	}
}

// readEntry reads raw, an object, failing the test if it is refused.
func readEntry(t *testing.T, raw string) *IndexEntry {
	t.Helper()
	e, problem := ReadIndexEntry(json.RawMessage(raw), "id")
	if e == nil {
		t.Fatalf("ReadIndexEntry(%s) refused it: %s", raw, problem)
	}
	return e
}

func TestIndexEntryRequiredString(t *testing.T) {
	tests := []struct {
		raw    string
		want   string
		wantOK bool
		bad    []string
	}{
		{`{"id": "dots", "other": 1}`, "dots", true, nil},
		{`{"id": " dots "}`, " dots ", true, nil},
		{`{"ID": "dots"}`, "", false, []string{"missing required field 'id'"}},
		{`{"id": 12}`, "", false, []string{"'id' must be a string, got 12"}},
		{`{"id": null}`, "", false, []string{"'id' must be a string, got null"}},
		{`{"id": {"a":  1}}`, "", false, []string{`'id' must be a string, got {"a":1}`}},
		{`{"id": ""}`, "", false, []string{"'id' is empty"}},
		{`{"id": " \t"}`, "", false, []string{"'id' is empty"}},
	}
	for _, tt := range tests {
		e := readEntry(t, tt.raw)
		got, ok := e.RequiredString("id")
		if got != tt.want || ok != tt.wantOK || !slices.Equal(e.Problems(), tt.bad) {
			t.Errorf("RequiredString(id) of %s = %q, %v, problems %q; want %q, %v, %q",
				tt.raw, got, ok, e.Problems(), tt.want, tt.wantOK, tt.bad)
		}
	}
}

func TestIndexEntryRequiredPath(t *testing.T) {
	tests := []struct {
		raw    string
		want   string
		wantOK bool
		bad    []string
	}{
		{`{"path": "backend/auth.md"}`, "backend/auth.md", true, nil},
		{`{"path": "a/./b//c.md"}`, "a/b/c.md", true, nil},
		{`{}`, "", false, []string{"missing required field 'path'"}},
		{`{"path": 3}`, "", false, []string{"'path' must be a string, got 3"}},
		{`{"path": " "}`, "", false, []string{"'path' is empty"}},
		{`{"path": "/etc/passwd"}`, "", false, []string{"'path' must be relative, not absolute"}},
		{`{"path": "a/../../b.md"}`, "", false, []string{"'path' may not contain '..'"}},
		{`{"path": "a\\b.md"}`, "", false, []string{`'path' may not contain '\' (use '/')`}},
		{`{"path": "a\u0000b.md"}`, "", false, []string{"'path' may not contain a NUL byte"}},
	}
	for _, tt := range tests {
		e := readEntry(t, tt.raw)
		got, ok := e.RequiredPath("path")
		if got != tt.want || ok != tt.wantOK || !slices.Equal(e.Problems(), tt.bad) {
			t.Errorf("RequiredPath(path) of %s = %q, %v, problems %q; want %q, %v, %q",
				tt.raw, got, ok, e.Problems(), tt.want, tt.wantOK, tt.bad)
		}
	}
}

func TestIndexEntryOptionalString(t *testing.T) {
	tests := []struct {
		raw  string
		want string
		bad  []string
	}{
		{`{"title": "Dots"}`, "Dots", nil},
		{`{"title": ""}`, "", nil},
		{`{}`, "", nil},
		{`{"title": null}`, "", []string{"'title' must be a string, got null"}},
		{`{"title": false}`, "", []string{"'title' must be a string, got false"}},
		{`{"title": ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc", "dddddddddd"]}`, "",
			[]string{`'title' must be a string, got ["aaaaaaaaaa","bbbbbbbbbb","ccccccccc...`}},
	}
	for _, tt := range tests {
		e := readEntry(t, tt.raw)
		got := e.OptionalString("title")
		if got != tt.want || !slices.Equal(e.Problems(), tt.bad) {
			t.Errorf("OptionalString(title) of %s = %q, problems %q; want %q, %q", tt.raw, got, e.Problems(), tt.want, tt.bad)
		}
	}
}

func TestIndexEntryOptionalCount(t *testing.T) {
	tests := []struct {
		raw    string
		want   int
		wantOK bool
		bad    []string
	}{
		{`{"n": 353}`, 353, true, nil},
		{`{"n": 0}`, 0, true, nil},
		{`{}`, 0, false, nil},
		{`{"n": 353.0}`, 0, false, []string{"'n' must be a non-negative integer, got 353.0"}},
		{`{"n": 3.5e2}`, 0, false, []string{"'n' must be a non-negative integer, got 3.5e2"}},
		{`{"n": -1}`, 0, false, []string{"'n' must be a non-negative integer, got -1"}},
		{`{"n": "353"}`, 0, false, []string{`'n' must be a non-negative integer, got "353"`}},
		{`{"n": null}`, 0, false, []string{"'n' must be a non-negative integer, got null"}},
		{`{"n": 99999999999999999999}`, 0, false, []string{"'n' must be a non-negative integer, got 99999999999999999999"}},
	}
	for _, tt := range tests {
		e := readEntry(t, tt.raw)
		got, ok := e.OptionalCount("n")
		if got != tt.want || ok != tt.wantOK || !slices.Equal(e.Problems(), tt.bad) {
			t.Errorf("OptionalCount(n) of %s = %d, %v, problems %q; want %d, %v, %q",
				tt.raw, got, ok, e.Problems(), tt.want, tt.wantOK, tt.bad)
		}
	}
}

func TestIndexEntryOptionalStrings(t *testing.T) {
	tests := []struct {
		raw  string
		want []string
		bad  []string
	}{
		{`{"tags": ["a", "b"]}`, []string{"a", "b"}, nil},
		{`{"tags": ["b", "a", "b", "a"]}`, []string{"b", "a"}, nil},
		{`{"tags": []}`, nil, nil},
		{`{}`, nil, nil},
		{`{"tags": "a"}`, nil, []string{`'tags' must be a list of strings, got "a"`}},
		{`{"tags": null}`, nil, []string{"'tags' must be a list of strings, got null"}},
		{`{"tags": ["a", 1, "", " ", null, "c"]}`, []string{"a", "c"}, []string{
			"'tags[1]' must be a string, got 1",
			"'tags[2]' is empty",
			"'tags[3]' is empty",
			"'tags[4]' must be a string, got null",
		}},
	}
	for _, tt := range tests {
		e := readEntry(t, tt.raw)
		got := e.OptionalStrings("tags")
		if !slices.Equal(got, tt.want) || !slices.Equal(e.Problems(), tt.bad) {
			t.Errorf("OptionalStrings(tags) of %s = %q, problems %q; want %q, %q", tt.raw, got, e.Problems(), tt.want, tt.bad)
		}
	}
}

func TestIndexEntryProblemsKeepReadingOrder(t *testing.T) {
	e := readEntry(t, `{"path": "/a.md", "title": 1, "approx_tokens": -2, "tags": [""]}`)
	e.RequiredString("id")
	e.RequiredPath("path")
	e.OptionalString("title")
	e.OptionalCount("approx_tokens")
	e.OptionalStrings("tags")
	want := []string{
		"missing required field 'id'",
		"'path' must be relative, not absolute",
		"'title' must be a string, got 1",
		"'approx_tokens' must be a non-negative integer, got -2",
		"'tags[0]' is empty",
	}
	got := e.Problems()
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n got %q\nwant %q", got, want)
	}
	// A caller's own problem appended to the list does not become the entry's.
	_ = append(got, "duplicate path 'a.md'")
	e.OptionalString("summary")
	if again := e.Problems(); !slices.Equal(again, want) {
		t.Errorf("problems after an append by the caller:\n got %q\nwant %q", again, want)
	}
	e = readEntry(t, `{"id": "a"}`)
	e.RequiredString("id")
	if got := e.Problems(); got != nil {
		t.Errorf("problems of a valid entry = %q, want nil", got)
	}
}

func TestIndexIDsClaim(t *testing.T) {
	ids := NewIndexIDs("images")
	for _, tc := range []struct {
		id   string
		i    int
		want string
	}{
		{"a", 0, ""},
		{"b", 1, ""},
		{"a", 2, "duplicate id 'a' (also images[0])"},
		{"a", 3, "duplicate id 'a' (also images[0])"}, // the first entry keeps it
		{"b", 4, "duplicate id 'b' (also images[1])"},
		{"it's", 5, ""},
		{"it's", 6, `duplicate id "it's" (also images[5])`},
	} {
		if got := ids.Claim(tc.id, tc.i); got != tc.want {
			t.Errorf("Claim(%q, %d) = %q, want %q", tc.id, tc.i, got, tc.want)
		}
	}
}

func TestIndexEntryWhere(t *testing.T) {
	for _, tc := range []struct {
		key  string
		i    int
		id   string
		want string
	}{
		{"documents", 3, "", "documents[3]"},
		{"documents", 3, "dots", "documents[3] (id 'dots')"},
		{"images", 0, "a b", "images[0] (id 'a b')"},
		{"documents", 0, "a\nb", `documents[0] (id "a\nb")`},
	} {
		if got := IndexEntryWhere(tc.key, tc.i, tc.id); got != tc.want {
			t.Errorf("IndexEntryWhere(%q, %d, %q) = %q, want %q", tc.key, tc.i, tc.id, got, tc.want)
		}
	}
}

func TestQuoteIndexValue(t *testing.T) {
	for in, want := range map[string]string{
		"dots":         "'dots'",
		"two words":    "'two words'",
		"ünï":          "'ünï'",
		"":             "''",
		"a\nb":         `"a\nb"`,
		"tab\there":    `"tab\there"`,
		"it's":         `"it's"`,
		"zero\u200bw":  `"zero\u200bw"`,
		"bell\x07ring": `"bell\aring"`,
	} {
		got := QuoteIndexValue(in)
		if got != want {
			t.Errorf("QuoteIndexValue(%q) = %s, want %s", in, got, want)
		}
		if strings.Contains(got, "\n") {
			t.Errorf("QuoteIndexValue(%q) = %q spans lines", in, got)
		}
	}
}
