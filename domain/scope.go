package domain

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/librarian/librarian/domain/wording"
)

// Scope is the folder, tag and depth filter that list, search, tags and
// root selectors share, with seed 001's meanings.
type Scope struct {
	// Root is a folder relative to the library root ("", "." and "/" are the root).
	Root string
	// Tags keeps docs carrying ANY of these tags (exact, case-sensitive); empty keeps all.
	Tags []string
	// Depth counts path segments below Root, the file name included (1 =
	// docs directly in Root); negative is unlimited. Root's own index.md is
	// always in scope, even at depth 0.
	Depth int
}

// ScopeDocs returns the catalog's docs inside the scope, in path order, and
// the cleaned root. A root that holds no document at all is ErrNotFound,
// worded for the agent with the folders that do exist.
func ScopeDocs(cat *Catalog, s Scope) ([]Document, string, error) {
	root, err := CleanFolder(s.Root)
	if err != nil {
		return nil, "", err
	}
	if root == "" && len(s.Tags) == 0 && s.Depth < 0 {
		return cat.Docs, root, nil // the whole library: no copy (callers only read)
	}
	inRoot := cat.Docs
	if root != "" {
		// Docs are in path order, so a folder's docs are one run.
		lo := sort.Search(len(cat.Docs), func(i int) bool { return cat.Docs[i].Path >= root+"/" })
		hi := lo
		for hi < len(cat.Docs) && InFolder(cat.Docs[hi].Path, root) {
			hi++
		}
		inRoot = cat.Docs[lo:hi]
	}
	if len(inRoot) == 0 && root != "" {
		return nil, root, fmt.Errorf("%w: no folder %s in the library%s", ErrNotFound, wording.QuoteInput(root, '\''), folderHint(cat, root))
	}
	out := make([]Document, 0, len(inRoot))
	for _, d := range inRoot {
		if s.Depth >= 0 && DepthBelow(d.Path, root) > s.Depth && !IsFolderIndex(d.Path, root) {
			continue
		}
		if len(s.Tags) > 0 && !HasAnyTag(d.Tags, s.Tags) {
			continue
		}
		out = append(out, d)
	}
	return out, root, nil
}

// HasAnyTag reports whether have holds any of want.
func HasAnyTag(have, want []string) bool {
	for _, w := range want {
		for _, h := range have {
			if h == w {
				return true
			}
		}
	}
	return false
}

// folderHint suggests what the agent may have meant by an unknown folder:
// a doc of that path, the folders near its name (a typo: Suggest), or the
// folders next to where it looked.
func folderHint(cat *Catalog, root string) string {
	for _, d := range cat.Docs {
		if d.Path == root || d.ID == root || strings.TrimSuffix(d.Path, ".md") == root {
			return fmt.Sprintf(" (%s is a document, not a folder: select it by its id)", wording.QuoteInput(root, '\''))
		}
	}
	if near := wording.Suggest(root, libraryFolders(cat), 3); len(near) > 0 {
		return " (did you mean: " + strings.Join(near, "/, ") + "/?)"
	}
	parent := path.Dir(root)
	if parent == "." {
		parent = ""
	}
	seen := map[string]bool{}
	var near []string
	for _, d := range cat.Docs {
		if !InFolder(d.Path, parent) {
			continue
		}
		rel := strings.TrimPrefix(d.Path, parent+"/")
		if parent == "" {
			rel = d.Path
		}
		if i := strings.IndexByte(rel, '/'); i >= 0 {
			f := rel[:i+1]
			if parent != "" {
				f = parent + "/" + f
			}
			if !seen[f] {
				seen[f] = true
				near = append(near, f)
			}
		}
	}
	if len(near) == 0 {
		return ""
	}
	sort.Strings(near)
	if len(near) > 20 {
		near = append(near[:20], "...")
	}
	where := "at the top"
	if parent != "" {
		where = "in '" + parent + "/'"
	}
	return fmt.Sprintf("; folders %s: %s", where, strings.Join(near, ", "))
}

// libraryFolders lists every folder that holds a doc, at any depth, in
// path order, without the trailing '/'.
func libraryFolders(cat *Catalog) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range cat.Docs {
		for dir := path.Dir(d.Path); dir != "." && !seen[dir]; dir = path.Dir(dir) {
			seen[dir] = true
			out = append(out, dir)
		}
	}
	sort.Strings(out)
	return out
}

// ScopedNotes returns the catalog's notes an answer about the docs under
// root shows: those about a doc under root, and those about no doc (the
// index itself). A note about a doc elsewhere costs tokens on every answer
// and says nothing of what was asked: they are counted in one closing
// note instead, which names the command that lists them all (check).
// Under the whole library (root "") every note is kept. At most
// MaxScopedNotes are listed, the last one counting the rest.
func ScopedNotes(notes []string, root string, commands Commands) []string {
	root, err := CleanFolder(root)
	if err != nil || root == "" || len(notes) == 0 {
		return capNotes(append([]string(nil), notes...), commands)
	}
	under := func(p string) bool { return p == root || strings.HasPrefix(p, root+"/") }
	return notesAbout(notes, under, "docs outside "+root+"/", commands)
}

// ShownNotes returns the notes a search answer carries: those about no doc
// (the index itself) and those about a doc the answer shows (shown says
// which). A search shows a handful of docs; a library with 30 broken
// frontmatters would otherwise add 20 lines about other docs to every
// answer (the Svelte documentation's ranked answers doubled). The others
// are counted in one closing note that names the command listing them all.
func ShownNotes(notes []string, shown func(path string) bool, commands Commands) []string {
	return notesAbout(notes, shown, "docs this answer does not show", commands)
}

// notesAbout keeps the notes about no doc and those about a doc keep
// takes, and counts the others in one note about the others ("docs
// outside api/") naming check; at most MaxScopedNotes in all.
func notesAbout(notes []string, keep func(path string) bool, others string, commands Commands) []string {
	var kept []string
	left := 0
	for _, n := range notes {
		if subject, isPath := noteDocPath(n); isPath && !keep(subject) {
			left++
			continue
		}
		kept = append(kept, n)
	}
	if left > 0 {
		kept = append(kept, fmt.Sprintf("%d %s about %s: %s lists every problem of the library",
			left, wording.Plural(left, "note", "notes"), others, commands.Check()))
	}
	return capNotes(kept, commands)
}

// MaxScopedNotes caps the catalog notes one answer carries: they ride on
// every listing and search of their scope, and a library of 1,000 broken
// docs would otherwise add 1,000 lines to each.
const MaxScopedNotes = 20

// capNotes keeps the first MaxScopedNotes notes and counts the rest.
func capNotes(notes []string, commands Commands) []string {
	if len(notes) <= MaxScopedNotes {
		return notes
	}
	rest := len(notes) - MaxScopedNotes + 1
	return append(notes[:MaxScopedNotes-1:MaxScopedNotes-1], fmt.Sprintf("%d more %s: %s lists every problem of the library",
		rest, wording.Plural(rest, "note", "notes"), commands.Check()))
}

// noteDocPath is the library path a catalog note is about: its first
// quoted name, when that reads as a markdown file's path.
func noteDocPath(note string) (string, bool) {
	_, rest, ok := strings.Cut(note, "'")
	if !ok {
		return "", false
	}
	subject, _, ok := strings.Cut(rest, "'")
	low := strings.ToLower(subject)
	if !ok || !(strings.HasSuffix(low, ".md") || strings.HasSuffix(low, ".markdown")) {
		return "", false
	}
	return strings.TrimPrefix(subject, "/"), true
}
