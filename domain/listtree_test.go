package domain

import (
	"reflect"
	"testing"
)

// listTreeFixture: a/x.md, a/b/y.md, a/b/c/z.md, d/w.md, top.md.
func listTreeFixture(depth int) ListTree {
	paths := []string{"a/b/c/z.md", "a/b/y.md", "a/x.md", "d/w.md", "top.md"}
	tokens := []int{1, 2, 4, 8, 16}
	shown := make([]bool, len(paths))
	for i, p := range paths {
		shown[i] = depth < 0 || DepthBelow(p, "") <= depth
	}
	return BuildListTree("", paths, tokens, shown, depth)
}

func TestBuildListTree(t *testing.T) {
	tree := listTreeFixture(-1)
	var got []string
	for _, f := range tree.Folders {
		got = append(got, f.Path)
	}
	if want := []string{"", "a", "a/b", "a/b/c", "d"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("folders %q, want %q (tree order)", got, want)
	}
	root, a := tree.Folders[0], tree.Folders[1]
	if root.Docs != 5 || root.Tokens != 31 || a.Docs != 3 || a.Tokens != 7 || a.Level != 1 {
		t.Errorf("counts: root %+v, a %+v", root, a)
	}
	if !reflect.DeepEqual(root.Children, []int{1, 4}) || !reflect.DeepEqual(root.Own, []int{4}) {
		t.Errorf("root children %v own %v", root.Children, root.Own)
	}
	// depth 1: the root's docs, and the folders it stops at with counts.
	tree = listTreeFixture(1)
	got = got[:0]
	for _, f := range tree.Folders {
		got = append(got, f.Path)
	}
	if want := []string{"", "a", "d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("depth 1: folders %q, want %q", got, want)
	}
	if tree.Folders[1].Docs != 3 || len(tree.Folders[1].Own) != 0 {
		t.Errorf("depth 1: a is %+v, want its 3 docs counted, none shown", tree.Folders[1])
	}
}

func TestListTreePriority(t *testing.T) {
	tree := listTreeFixture(-1)
	got := tree.Priority()
	// root line; lines of a, d; root's doc; line of a/b; docs of a and d;
	// line of a/b/c; doc of a/b; doc of a/b/c.
	want := []ListItem{{0, -1}, {1, -1}, {4, -1}, {0, 4}, {2, -1}, {1, 2}, {4, 3}, {3, -1}, {2, 1}, {3, 0}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Priority = %v, want %v", got, want)
	}
}

func TestListTreeLeftOut(t *testing.T) {
	tree := listTreeFixture(-1)
	all := func(b bool) []bool { return []bool{b, b, b, b, b} }
	tests := []struct {
		name      string
		lineShown []bool
		ownShown  []int
		want      []LeftFolder
	}{
		{"everything shown", all(true), []int{1, 1, 1, 1, 1}, nil},
		{"only the top lines: the top folders", []bool{true, true, false, false, true}, []int{0, 0, 0, 0, 0},
			[]LeftFolder{{Path: "", OwnOnly: true}, {Path: "a", Level: 1}, {Path: "d", Level: 1}}},
		{"lines shown but no doc below: the folder, not its subfolders", all(true), []int{1, 0, 0, 0, 1},
			[]LeftFolder{{Path: "a", Level: 1}}},
		{"a's own doc shown: look inside a", []bool{true, true, true, false, true}, []int{1, 1, 0, 0, 1},
			[]LeftFolder{{Path: "a/b", Level: 2}}},
		{"a/b wholly shown but a/b/c not", all(true), []int{1, 1, 1, 0, 1},
			[]LeftFolder{{Path: "a/b/c", Level: 3}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tree.LeftOut(tc.lineShown, tc.ownShown); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("LeftOut = %+v, want %+v", got, tc.want)
			}
		})
	}
}
