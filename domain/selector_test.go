package domain

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func raws(items ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(items))
	for i, s := range items {
		out[i] = json.RawMessage(s)
	}
	return out
}

func boolp(b bool) *bool { return &b }

func TestParseSelectors(t *testing.T) {
	got, err := ParseSelectors(raws(
		`"getting-started"`,
		`{"root": "backend/storage"}`,
		`{"doc": "auth", "sections": ["login-flow", "refresh-tokens/rotation"]}`,
		`{"doc": "auth", "lines": [43, 50]}`,
		`{"doc": "caching", "include_images": true, "include_code": false}`,
	))
	if err != nil {
		t.Fatal(err)
	}
	want := []Selector{
		{Doc: "getting-started"},
		{Root: "backend/storage", IsRoot: true},
		{Doc: "auth", Sections: []string{"login-flow", "refresh-tokens/rotation"}},
		{Doc: "auth", Lines: &LineRange{43, 50}},
		{Doc: "caching", IncludeImages: boolp(true), IncludeCode: boolp(false)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestParseSelectorsRejects(t *testing.T) {
	for _, tc := range []struct {
		items []string
		want  string
	}{
		{nil, "'select' is empty"},
		{[]string{`{"doc": "auth", "root": "backend"}`}, "select[0]: has both 'doc' and 'root'"},
		{[]string{`"a"`, `{"doc": "auth", "section": ["x"]}`}, "select[1]: unknown field 'section' (did you mean 'sections'?)"},
		{[]string{`{"doc": "auth", "sections": []}`}, "select[0]: 'sections' is empty"},
		{[]string{`{"doc": "auth", "lines": [50, 43]}`}, "'lines' must be two positive integers [from, to] with from <= to, got [50, 43]"},
		{[]string{`{"doc": "auth", "lines": [0, 3]}`}, "'lines' must be two positive integers"},
		{[]string{`{"doc": "auth", "lines": [1]}`}, "'lines' must be two positive integers"},
		{[]string{`{"doc": "auth", "lines": [1.5, 3]}`}, "'lines' must be two positive integers"},
		{[]string{`{"doc": "auth", "lines": ["1", "3"]}`}, "'lines' must be two positive integers"},
		{[]string{`{"doc": "auth", "sections": "intro"}`}, "'sections' must be a list of section ids"},
		{[]string{`{"doc": "auth", "sections": ["a"], "lines": [1, 2]}`}, "has both 'sections' and 'lines'"},
		{[]string{`{"root": "x", "sections": ["a"]}`}, "'root' cannot take 'sections' or 'lines'"},
		{[]string{`{}`}, "needs 'doc'"},
		{[]string{`{"doc": 3}`}, "'doc' must be a string"},
		{[]string{`{"doc": "a", "include_images": "yes"}`}, "'include_images' must be true or false"},
		{[]string{`42`}, "must be a doc id string or a selector object"},
		{[]string{`""`}, "empty doc id"},
		{[]string{`{"doc": "a", "sectons": ["x"], "path": "y"}`}, "unknown field 'path' (did you mean 'doc'?), unknown field 'sectons'"},
	} {
		_, err := ParseSelectors(raws(tc.items...))
		if err == nil || !errors.Is(err, ErrInvalidSelector) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSelectors(%v) error = %v, want ErrInvalidSelector containing %q", tc.items, err, tc.want)
		}
	}
}

func TestParseSelectorsReportsEveryItem(t *testing.T) {
	_, err := ParseSelectors(raws(`{"doc": "a", "root": "b"}`, `"ok"`, `{"doc": "a", "sections": []}`))
	if err == nil || !strings.Contains(err.Error(), "select[0]") || !strings.Contains(err.Error(), "select[2]") {
		t.Errorf("error = %v, want both select[0] and select[2] named", err)
	}
}

func TestSelectorJSONRoundTrips(t *testing.T) {
	for _, item := range []string{
		`"auth"`,
		`{"root": "backend"}`,
		`{"doc": "auth", "sections": ["a", "b/c"]}`,
		`{"doc": "auth", "lines": [3, 9], "include_code": false}`,
		`{"doc": "x", "include_images": true}`,
	} {
		s, err := ParseSelectors(raws(item))
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseSelectors(raws(s[0].JSON()))
		if err != nil {
			t.Fatalf("%s: JSON() = %s does not parse: %v", item, s[0].JSON(), err)
		}
		if !reflect.DeepEqual(s, again) {
			t.Errorf("%s: round trip gave %+v, want %+v", item, again, s)
		}
	}
}

func FuzzParseSelectors(f *testing.F) {
	for _, s := range []string{`"auth"`, `{"root": "a/b"}`, `{"doc": "a", "sections": ["x"]}`, `{"doc": "a", "lines": [1, 2]}`,
		`{"doc": "a", "lines": [2, 1]}`, `{"doc":"a","include_images":true}`, `[1,2]`, `{"doc": "a", "lines": [1e3, 2e3]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, item string) {
		sels, err := ParseSelectors(raws(item))
		if err != nil {
			if !errors.Is(err, ErrInvalidSelector) {
				t.Fatalf("error %v does not wrap ErrInvalidSelector", err)
			}
			return
		}
		s := sels[0]
		if s.Lines != nil && (s.Lines.From < 1 || s.Lines.From > s.Lines.To) {
			t.Fatalf("accepted bad line range %+v", *s.Lines)
		}
		if s.Sections != nil && len(s.Sections) == 0 {
			t.Fatal("accepted an empty sections list")
		}
		if s.IsRoot == (s.Doc != "") {
			t.Fatalf("selector %+v is neither or both of doc and root", s)
		}
		again, err := ParseSelectors(raws(s.JSON()))
		if err != nil || !reflect.DeepEqual(sels, again) {
			t.Fatalf("JSON() %s does not round-trip: %v", s.JSON(), err)
		}
	})
}
