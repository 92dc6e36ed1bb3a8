package mcpserver

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/domain"
)

// FuzzReadArguments: on any input readArguments never panics, refuses with
// a short ErrInvalidArgument message that quotes no more than a prefix of
// what it was sent, and what it accepts decodes again from its own
// arguments.
func FuzzReadArguments(f *testing.F) {
	for _, seed := range []string{
		`{}`, `null`, `[]`, `{"depth": 9223372036854775807}`, `{"depth": 1e0}`, `{"root": null}`,
		`{"tags": ["a", 5]}`, `{"rooot": "x"}`, `{"query": "x", "mode": "regex", "max_results": -1}`,
		`{"section_depth": 2, "line_bounds": true, "max_tokens": 0}`, `{"tags": [[[]]]}`, `{"depth": "1"}`,
	} {
		f.Add([]byte(seed))
	}
	list := schemaFor[listDocumentsArgs](map[string]any{"root": ".", "line_bounds": false, "tags": []string{}, "depth": -1, "max_tokens": 20000})
	search := schemaFor[searchDocumentsArgs](map[string]any{"mode": search.SearchString, "root": ".", "tags": []string{}, "depth": -1, "max_results": 50})
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, err := range []error{
			check[listDocumentsArgs](t, "list_documents", list, raw),
			check[searchDocumentsArgs](t, "search_documents", search, raw),
		} {
			if err == nil {
				continue
			}
			if !errors.Is(err, domain.ErrInvalidArgument) {
				t.Errorf("readArguments(%q) error %v is not ErrInvalidArgument", raw, err)
			}
			if len(err.Error()) > 400 {
				t.Errorf("readArguments(%q) error is %d bytes long: %.200s…", raw, len(err.Error()), err)
			}
		}
	})
}

// check reads raw as tool's arguments; what it accepts must encode and
// decode again.
func check[In any](t *testing.T, tool string, schema *jsonschema.Schema, raw []byte) error {
	in, err := readArguments[In](tool, schema, raw)
	if err != nil {
		return err
	}
	again, err := json.Marshal(in)
	if err != nil {
		t.Fatalf("%s: marshalling %+v: %v", tool, in, err)
	}
	var back In
	if err := json.Unmarshal(again, &back); err != nil {
		t.Errorf("%s: accepted %q as %s, which does not decode again: %v", tool, raw, again, err)
	}
	return nil
}
