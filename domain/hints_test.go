package domain

import (
	"strings"
	"testing"
)

// hintCatalog is a small library for the did-you-mean hints.
func hintCatalog() *Catalog {
	return &Catalog{Docs: []Document{
		{ID: "auth", Path: "backend/auth.md"},
		{ID: "caching", Path: "backend/storage/caching.md"},
		{ID: "daisyui/components/button", Path: "daisyui/components/button.md"},
		{ID: "intro", Path: "guides/intro.md"},
	}}
}

// TestUnknownDocHints: an unknown doc suggests the docs near its name (a
// typo), a folder's root selector, or where to see every doc, naming the
// operations as the reader runs them.
func TestUnknownDocHints(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		cmds Commands
		want string
	}{
		{"auht", Commands{}, "unknown doc 'auht': no document has this id or path (did you mean: auth?)"},
		{"cachng", Commands{}, "(did you mean: caching?)"},
		{"daisyui/components/buton", Commands{}, "(did you mean: daisyui/components/button?)"},
		{"buton", CLICommands, "(did you mean: daisyui/components/button?)"},
		{"backend/auht.md", Commands{}, "(did you mean: auth?)"}, // near a path: the doc's id is suggested
		{"backend", Commands{}, `('backend' is a folder: select its docs with {"root": "backend"})`},
		{"backend/storage/", CLICommands, `('backend/storage' is a folder: select its docs with librarian get '{"root": "backend/storage"}')`},
		{"quillwort", Commands{}, "(list_documents shows every doc)"},
		{"quillwort", CLICommands, "(librarian ls shows every doc)"},
	} {
		_, notes := ResolveTargets(hintCatalog(), []Selector{{Doc: tc.doc}}, tc.cmds)
		if len(notes) != 1 || !strings.Contains(notes[0].Text, tc.want) {
			t.Errorf("ResolveTargets(%q, %+v) notes = %v, want one containing %q", tc.doc, tc.cmds, notes, tc.want)
		}
	}
}

// TestUnknownFolderHints: an unknown folder suggests the folders near its
// name, at any depth.
func TestUnknownFolderHints(t *testing.T) {
	for _, tc := range []struct{ root, want string }{
		{"bakend", "no folder 'bakend' in the library (did you mean: backend/?)"},
		{"backend/storag", "(did you mean: backend/storage/?)"},
		{"storag", "(did you mean: backend/storage/?)"},
		{"daisyui/component", "(did you mean: daisyui/components/?)"},
		{"backend/auth.md", "('backend/auth.md' is a document, not a folder: select it by its id)"},
		{"zzzzzz", "; folders at the top: backend/, daisyui/, guides/"},
	} {
		_, _, err := ScopeDocs(hintCatalog(), Scope{Root: tc.root, Depth: -1})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ScopeDocs(%q) = %v, want an error containing %q", tc.root, err, tc.want)
		}
	}
}
