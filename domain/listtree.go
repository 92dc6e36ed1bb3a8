package domain

import (
	"path"
	"sort"
	"strings"
)

// The folder tree of a list_documents answer: which folders it shows, the
// order a budget spends itself on them (breadth first: every folder line of
// a level before any doc of that level's folders), and what a cut answer
// names as left out.

// TreeFolder is one folder of a listing.
type TreeFolder struct {
	Path   string // relative to the library root; "" is the library root
	Level  int    // path segments below the listing's root (the root is 0)
	Docs   int    // docs of its whole subtree (with the listing's tag filter)
	Tokens int    // their tokens
	// Own are the indices (into the listing's docs) of the docs directly in
	// it that the listing's depth shows, in path order.
	Own []int
	// Children are the indices (into ListTree.Folders) of its subfolders the
	// listing shows, in order.
	Children []int
}

// ListTree is a listing's folders in tree order (a folder, then its
// subfolders, each followed by theirs): Folders[0] is the listing's root.
type ListTree struct {
	Folders []TreeFolder
}

// BuildListTree makes the tree of a listing under root of docs (paths in
// path order, each with its tokens; shown[i] says whether the listing's
// depth shows doc i). Every folder holding a doc counts it, up to the root.
// depth (negative: unlimited) also bounds the folders shown, but never
// hides the folders it stops at: a folder whose level is at most depth
// (at most 1 for depth 0) is listed with its counts even when none of its
// docs is.
func BuildListTree(root string, paths []string, tokens []int, shown []bool, depth int) ListTree {
	maxLevel := -1
	if depth >= 0 {
		maxLevel = max(depth, 1)
	}
	byPath := map[string]int{}
	var folders []TreeFolder
	get := func(f string) int {
		if i, ok := byPath[f]; ok {
			return i
		}
		byPath[f] = len(folders)
		folders = append(folders, TreeFolder{Path: f, Level: folderLevel(f, root)})
		return len(folders) - 1
	}
	get(root)
	for i, p := range paths {
		dir := docDir(p)
		if shown[i] {
			fi := get(dir)
			folders[fi].Own = append(folders[fi].Own, i)
		}
		for f := dir; ; f = docDir(f) {
			if maxLevel < 0 || folderLevel(f, root) <= maxLevel {
				fi := get(f)
				folders[fi].Docs++
				folders[fi].Tokens += tokens[i]
			}
			if f == root || f == "" {
				break
			}
		}
	}
	// Tree order, then each folder's children.
	order := make([]int, len(folders))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return FolderLess(folders[order[a]].Path, folders[order[b]].Path) })
	sorted := make([]TreeFolder, len(folders))
	at := map[string]int{}
	for k, i := range order {
		sorted[k] = folders[i]
		at[folders[i].Path] = k
	}
	for k := 1; k < len(sorted); k++ {
		parent := at[docDir(sorted[k].Path)]
		sorted[parent].Children = append(sorted[parent].Children, k)
	}
	return ListTree{Folders: sorted}
}

// folderLevel counts f's path segments below root.
func folderLevel(f, root string) int {
	if f == root {
		return 0
	}
	return DepthBelow(f, root)
}

// FolderOf is the folder holding library path p ("" for the library root).
func FolderOf(p string) string { return docDir(p) }

// docDir is the folder holding p ("" for the library root).
func docDir(p string) string {
	if d := path.Dir(p); d != "." && d != "/" {
		return d
	}
	return ""
}

// ListItem is one thing a listing shows: a folder's line (Doc < 0) or one
// of its own docs (Doc is the doc's index).
type ListItem struct {
	Folder int
	Doc    int
}

// Priority is the order a budget spends itself on a listing, breadth
// first: the root's line; the lines of the folders directly under it; the
// root's own docs; the lines one level further down; the docs of the
// folders directly under the root; and so on. So a first look at any
// library always shows every folder under the root, with its counts,
// before any doc of a subfolder.
func (t ListTree) Priority() []ListItem {
	maxLevel := 0
	for _, f := range t.Folders {
		maxLevel = max(maxLevel, f.Level)
	}
	var items []ListItem
	for level := 0; level <= maxLevel+1; level++ {
		for i, f := range t.Folders {
			if f.Level == level {
				items = append(items, ListItem{Folder: i, Doc: -1})
			}
		}
		for i, f := range t.Folders {
			if f.Level == level-1 {
				for _, d := range f.Own {
					items = append(items, ListItem{Folder: i, Doc: d})
				}
			}
		}
	}
	return items
}

// LeftFolder is a folder a cut listing names to list next. OwnOnly means
// only the folder's own docs are missing, and its subfolders are named
// on their own: list it with depth 1.
type LeftFolder struct {
	Path    string
	Level   int
	OwnOnly bool
}

// LeftOut names what a cut listing did not show, as the highest folders
// not wholly shown: a folder whose line, some subfolder's line or some own
// doc is missing, or none of whose docs (at any depth) is shown, is named
// whole; any other is looked into, its subfolders named as they need.
// Never a folder and one of its descendants both. The listing's root, when its own docs are
// missing, is named OwnOnly (listing it whole would answer the same).
// lineShown is per folder; ownShown counts each folder's own docs shown.
func (t ListTree) LeftOut(lineShown []bool, ownShown []int) []LeftFolder {
	var out []LeftFolder
	var visit func(i int)
	visit = func(i int) {
		f := t.Folders[i]
		if t.whole(i, lineShown, ownShown) {
			return
		}
		complete := lineShown[i] && ownShown[i] == len(f.Own)
		for _, c := range f.Children {
			complete = complete && lineShown[c]
		}
		if i != 0 && (!complete || !t.anyDocShown(i, ownShown)) {
			out = append(out, LeftFolder{Path: f.Path, Level: f.Level})
			return
		}
		if i == 0 && ownShown[0] < len(f.Own) {
			out = append(out, LeftFolder{Path: f.Path, Level: 0, OwnOnly: true})
		}
		for _, c := range f.Children {
			visit(c)
		}
	}
	if len(t.Folders) > 0 {
		visit(0)
	}
	return out
}

// anyDocShown reports whether some doc of folder i's subtree was shown.
func (t ListTree) anyDocShown(i int, ownShown []int) bool {
	if ownShown[i] > 0 {
		return true
	}
	for _, c := range t.Folders[i].Children {
		if t.anyDocShown(c, ownShown) {
			return true
		}
	}
	return false
}

// whole reports whether folder i and everything under it were shown.
func (t ListTree) whole(i int, lineShown []bool, ownShown []int) bool {
	f := t.Folders[i]
	if !lineShown[i] || ownShown[i] < len(f.Own) {
		return false
	}
	for _, c := range f.Children {
		if !t.whole(c, lineShown, ownShown) {
			return false
		}
	}
	return true
}

// FolderLess orders folders so that each is followed by its subfolders:
// compare path segments, not bytes ("a/b" before "a-c").
func FolderLess(a, b string) bool {
	if a == "" {
		return b != ""
	}
	if b == "" {
		return false
	}
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if as[i] != bs[i] {
			return as[i] < bs[i]
		}
	}
	return len(as) < len(bs)
}
