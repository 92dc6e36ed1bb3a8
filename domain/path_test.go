package domain

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckIndexPath(t *testing.T) {
	for p, want := range map[string]string{
		"backend/auth.md":  "",
		"a/./b.md":         "",
		"../up.md":         "'path' may not contain '..'",
		"a/../../b.md":     "'path' may not contain '..'",
		"/etc/passwd":      "'path' must be relative, not absolute",
		"C:/x.md":          "'path' must be relative, not absolute",
		`a\b.md`:           `'path' may not contain '\' (use '/')`,
		"":                 "'path' is empty",
		"a..b/c.md":        "",
		"lib_evil/../x.md": "'path' may not contain '..'",
	} {
		if got := CheckIndexPath("path", p); got != want {
			t.Errorf("CheckIndexPath(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestCleanFolder(t *testing.T) {
	for in, want := range map[string]string{
		"": "", ".": "", "/": "", "./": "", "backend/": "backend", "/daisyui": "daisyui",
		"backend//storage/": "backend/storage", "./backend/./storage": "backend/storage",
	} {
		got, err := CleanFolder(in)
		if err != nil || got != want {
			t.Errorf("CleanFolder(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"..", "../x", "a/../../b", `a\b`, "a\x00b"} {
		if _, err := CleanFolder(in); !errors.Is(err, ErrRefused) {
			t.Errorf("CleanFolder(%q) error = %v, want ErrRefused", in, err)
		}
	}
}

func TestInFolderComparesWholeSegments(t *testing.T) {
	for _, tc := range []struct {
		p, dir string
		want   bool
	}{
		{"lib/a.md", "lib", true},
		{"lib_evil/a.md", "lib", false},
		{"lib", "lib", false},
		{"anything.md", "", true},
		{"lib/sub/a.md", "lib", true},
	} {
		if got := InFolder(tc.p, tc.dir); got != tc.want {
			t.Errorf("InFolder(%q, %q) = %v, want %v", tc.p, tc.dir, got, tc.want)
		}
	}
}

func TestDepthBelow(t *testing.T) {
	for _, tc := range []struct {
		p, dir string
		want   int
	}{{"a.md", "", 1}, {"x/a.md", "", 2}, {"x/a.md", "x", 1}, {"x/y/z/a.md", "x", 3}} {
		if got := DepthBelow(tc.p, tc.dir); got != tc.want {
			t.Errorf("DepthBelow(%q, %q) = %d, want %d", tc.p, tc.dir, got, tc.want)
		}
	}
}

func FuzzCleanFolder(f *testing.F) {
	for _, s := range []string{"", ".", "a/b", "../x", "/a//b/", `a\b`, "a/./../b", "lib_evil"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := CleanFolder(in)
		if err != nil {
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("error %v does not wrap ErrRefused", err)
			}
			return
		}
		if strings.HasPrefix(got, "/") || strings.HasSuffix(got, "/") {
			t.Fatalf("CleanFolder(%q) = %q has a leading or trailing '/'", in, got)
		}
		for _, seg := range strings.Split(got, "/") {
			if seg == ".." || (got != "" && (seg == "" || seg == ".")) {
				t.Fatalf("CleanFolder(%q) = %q has segment %q", in, got, seg)
			}
		}
		if strings.ContainsAny(got, "\\\x00") {
			t.Fatalf("CleanFolder(%q) = %q holds '\\' or NUL", in, got)
		}
	})
}

func TestIndexErrorListsEveryProblem(t *testing.T) {
	err := JoinIndexErrors(
		&IndexError{File: "index.json", Problems: []Problem{{"documents[3] (id 'dots')", "'path' may not contain '..'"}, {"documents[4]", "missing required field 'id'"}}},
		nil,
		&IndexError{File: "images/index.json", Problems: []Problem{{"images[0] (id 'x')", "'file' may not contain '..'"}}},
	)
	want := "index.json and images/index.json are invalid (3 problems):\n" +
		"- documents[3] (id 'dots'): 'path' may not contain '..'\n" +
		"- documents[4]: missing required field 'id'\n" +
		"- images[0] (id 'x'): 'file' may not contain '..'"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if JoinIndexErrors(nil, &IndexError{}) != nil {
		t.Error("no problems should give no error")
	}
}

func TestDocStemAndFolderIndex(t *testing.T) {
	for name, want := range map[string]string{
		"a.md": "a", "README.MD": "README", "x.Md": "x", "guide.markdown": "guide", "g.Markdown": "g",
		"index.MARKDOWN": "index", "a.b.md": "a.b",
		".md": "", "a.mdx": "", "a.mkd": "", "a.md.txt": "", "a": "", ".markdown": "",
	} {
		stem, ok := DocStem(name)
		if stem != want || ok != (want != "") {
			t.Errorf("DocStem(%q) = %q, %v; want %q", name, stem, ok, want)
		}
	}
	for _, tc := range []struct {
		p, dir string
		want   bool
	}{
		{"index.md", "", true}, {"index.MD", "", true}, {"ops/index.markdown", "ops", true},
		{"ops/index.md", "", false}, {"ops/Index.md", "ops", false}, {"ops/index.txt", "ops", false},
		{"ops/sub/index.md", "ops", false}, {"opsx/index.md", "ops", false},
	} {
		if got := IsFolderIndex(tc.p, tc.dir); got != tc.want {
			t.Errorf("IsFolderIndex(%q, %q) = %v, want %v", tc.p, tc.dir, got, tc.want)
		}
	}
	// A folder's own index is in scope at depth 0, whatever its extension.
	cat := &Catalog{Docs: []Document{{Path: "ops/a.md"}, {Path: "ops/index.MD"}, {Path: "ops/sub/b.md"}}}
	docs, _, err := ScopeDocs(cat, Scope{Root: "ops", Depth: 0})
	if err != nil || len(docs) != 1 || docs[0].Path != "ops/index.MD" {
		t.Errorf("ScopeDocs(ops, depth 0) = %+v, %v; want its index.MD alone", docs, err)
	}
}
