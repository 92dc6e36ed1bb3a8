package domain

import (
	"fmt"
	"path"
	"strings"

	"github.com/librarian/librarian/domain/wording"
)

// Target is one doc a get_documents selector names, directly or through
// its root.
type Target struct {
	Sel  int // the selector's index in the select list
	Doc  Document
	Root *string // the cleaned root it came from; nil for a doc selector
}

// ResolveTargets turns selectors into the catalog's docs, in select order;
// roots expand in path order (the catalog's). Unknown docs and roots, and
// the catalog's notes about docs they would have named, become notes; an
// unknown doc's note suggests what was meant, naming the operations as cmds
// does (the zero value: the MCP tools).
func ResolveTargets(cat *Catalog, sels []Selector, cmds Commands) ([]Target, []SelNote) {
	var notes []SelNote
	note := func(sel int, format string, args ...any) {
		notes = append(notes, SelNote{Sel: sel, Text: fmt.Sprintf(format, args...)})
	}
	// One pass over the catalog finds every named doc, by id and by path.
	byID, byPath := map[string]int{}, map[string]int{}
	for _, s := range sels {
		if !s.IsRoot {
			byID[s.Doc], byPath[CleanDocPath(s.Doc)] = -1, -1
		}
	}
	for i, d := range cat.Docs {
		if j, ok := byID[d.ID]; ok && j < 0 {
			byID[d.ID] = i
		}
		if j, ok := byPath[d.Path]; ok && j < 0 {
			byPath[d.Path] = i
		}
	}
	var out []Target
	notedIndex := map[string]bool{} // catalog notes already passed on
	for i, s := range sels {
		if s.IsRoot {
			docs, root, err := ScopeDocs(cat, Scope{Root: s.Root, Depth: -1})
			if err != nil {
				note(i, "select[%d]: root %s: %v", i, wording.QuoteInput(s.Root, '\''), err)
				continue
			}
			if len(docs) == 0 {
				note(i, "select[%d]: root %s holds no documents", i, wording.QuoteInput(wording.FolderName(root), '\''))
				continue
			}
			for _, d := range docs {
				out = append(out, Target{Sel: i, Doc: d, Root: &root})
			}
			for _, n := range cat.Notes {
				if !notedIndex[n] && (root == "" || mentionsFolder(n, root)) {
					notedIndex[n] = true
					note(i, "select[%d]: root %s: the index left a doc out: %s", i, wording.QuoteInput(wording.FolderName(root), '\''), n)
				}
			}
			continue
		}
		if j := byID[s.Doc]; j >= 0 {
			out = append(out, Target{Sel: i, Doc: cat.Docs[j]})
			continue
		}
		if j := byPath[CleanDocPath(s.Doc)]; j >= 0 {
			out = append(out, Target{Sel: i, Doc: cat.Docs[j]})
			continue
		}
		if why := catalogNotesAbout(cat, s.Doc); why != "" {
			note(i, "select[%d]: doc %s was left out by the index: %s", i, wording.QuoteInput(s.Doc, '\''), why)
			continue
		}
		note(i, "select[%d]: unknown doc %s: no document has this id or path%s", i, wording.QuoteInput(s.Doc, '\''), docHint(cat, s.Doc, cmds.OrTools()))
	}
	return out, notes
}

// CleanDocPath reads a doc path as agents write it: "./backend/auth.md" and
// "/backend/auth.md" both mean "backend/auth.md".
func CleanDocPath(p string) string {
	p = strings.TrimSpace(p)
	if strings.ContainsRune(p, '\\') {
		return p
	}
	return strings.TrimPrefix(path.Clean("/"+p), "/")
}

// docHint suggests what an unknown doc name meant: the root selector of a
// folder of that name, else the docs whose id or path is near it (a typo:
// wording.Suggest), else where to see every doc.
func docHint(cat *Catalog, name string, cmds Commands) string {
	clean := strings.Trim(CleanDocPath(name), "/")
	if clean == "" {
		return ""
	}
	for _, d := range cat.Docs {
		if InFolder(d.Path, clean) {
			sel := fmt.Sprintf(`{"root": %q}`, clean)
			return fmt.Sprintf(" ('%s' is a folder: select its docs with %s)", clean, cmds.Selecting(sel))
		}
	}
	// Ids and paths both: "buton" is near an id, "backend/auht.md" a path.
	candidates := make([]string, 0, 2*len(cat.Docs))
	idOf := make(map[string]string, 2*len(cat.Docs))
	for _, d := range cat.Docs {
		candidates = append(candidates, d.ID, d.Path)
		idOf[d.ID] = d.ID
		if _, taken := idOf[d.Path]; !taken {
			idOf[d.Path] = d.ID
		}
	}
	var near []string
	seen := map[string]bool{}
	for _, c := range wording.Suggest(clean, candidates, 10) {
		if id := idOf[c]; !seen[id] && len(near) < 5 {
			seen[id] = true
			near = append(near, id)
		}
	}
	if len(near) == 0 {
		return fmt.Sprintf(" (%s shows every doc)", cmds.List)
	}
	return " (did you mean: " + strings.Join(near, ", ") + "?)"
}

// catalogNotesAbout returns the index source's notes that name the doc, so
// that a doc the index refused is explained where it is asked for.
func catalogNotesAbout(cat *Catalog, name string) string {
	var found []string
	for _, n := range cat.Notes {
		// The frontmatter convention's ids are paths without ".md", and
		// its notes name the file.
		if mentions(n, name) || !strings.HasSuffix(name, ".md") && mentions(n, name+".md") {
			found = append(found, n)
		}
	}
	return strings.Join(found, "; ")
}

// mentions reports whether text holds name as a whole word (not as part of
// a longer id or path).
func mentions(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(name)
		if (start == 0 || !isNameByte(text[start-1])) && (end == len(text) || !isNameByte(text[end])) {
			return true
		}
		i = start + 1
	}
}

// mentionsFolder reports whether text names a path inside folder dir.
func mentionsFolder(text, dir string) bool {
	prefix := dir + "/"
	for i := 0; ; {
		j := strings.Index(text[i:], prefix)
		if j < 0 {
			return false
		}
		if start := i + j; start == 0 || !isNameByte(text[start-1]) {
			return true
		}
		i += j + 1
	}
}

func isNameByte(c byte) bool {
	return c == '-' || c == '_' || c == '.' || c == '/' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
