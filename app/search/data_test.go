package search

import (
	"fmt"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
)

// TestSearchDataIsTheTextAnswer: SearchData holds what SearchDocuments
// shows, nothing more or less: the same counts, and each hit line of the
// text answer (`L21: text`, `L26 [sql code]: text`) under its doc, in the
// same order, for strings, regexes, whole words and a max_results cut.
func TestSearchDataIsTheTextAnswer(t *testing.T) {
	lib := openSearchLibrary(t, "json", searchLibRoot)
	s := New(lib)
	for _, req := range []SearchRequest{
		{Query: "token", Scope: domain.Scope{Depth: -1}},
		{Query: "refresh|revoked", Mode: SearchRegex, Scope: domain.Scope{Depth: -1}, MaxResults: 4},
		{Query: "key", WholeWord: true, Scope: domain.Scope{Depth: -1}},
		{Query: "nothing-here-at-all", Scope: domain.Scope{Depth: -1}},
	} {
		text, err := s.SearchDocuments(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		data, err := s.SearchData(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		var fromData []string
		for _, g := range data.Groups {
			fromData = append(fromData, fmt.Sprintf("%s (%s) ~%d tokens", g.ID, g.Path, g.Tokens))
			for _, sec := range g.Sections {
				for _, h := range sec.Hits {
					mark := ""
					if h.InCode {
						mark = " [code]"
						if h.Code != "" {
							mark = " [" + h.Code + " code]"
						}
					}
					fromData = append(fromData, fmt.Sprintf("L%d%s: %s", h.Line, mark, h.Text))
				}
			}
		}
		var fromText []string
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "L") && strings.Contains(line, ": ") || strings.Contains(line, " tokens") && strings.Contains(line, ") ~") && !strings.HasPrefix(line, "§") {
				fromText = append(fromText, line)
			}
		}
		if (len(fromData) == 0) != (req.Query == "nothing-here-at-all") {
			t.Errorf("%+v: %d lines of data", req, len(fromData))
		}
		if strings.Join(fromData, "\n") != strings.Join(fromText, "\n") {
			t.Errorf("%+v: the data's lines\n%s\nare not the text's\n%s\n(answer:\n%s)", req, strings.Join(fromData, "\n"), strings.Join(fromText, "\n"), text)
		}
		if shown := strings.Count(strings.Join(fromText, "\n"), ": "); data.Shown > shown || data.Hits < data.Shown {
			t.Errorf("%+v: Shown %d, Hits %d, text shows %d", req, data.Shown, data.Hits, shown)
		}
	}
}
