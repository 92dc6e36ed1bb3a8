package symlinks

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
)

// fakeTree is a file system for ResolveLinks: every path that exists, by
// root-relative path; a value is a link target, "" a plain file or folder.
type fakeTree map[string]string

func (f fakeTree) readLink(rel string) (string, bool, error) {
	target, ok := f[rel]
	if !ok {
		return "", false, fs.ErrNotExist
	}
	return target, target != "", nil
}

func TestResolveLinks(t *testing.T) {
	tree := fakeTree{
		"docs":                   "",
		"docs/real.md":           "",
		"docs/sub":               "",
		"docs/sub/deep.md":       "",
		"abs.md":                 "/srv/lib/docs/real.md",
		"abs-real.md":            "/data/lib/docs/real.md",
		"abs-dotted.md":          "/srv//lib/./docs/real.md",
		"abs-dir":                "/srv/lib/docs",
		"abs-root":               "/srv/lib",
		"abs-climb.md":           "/srv/lib/docs/../docs/real.md",
		"abs-out.md":             "/srv/outside/secret.md",
		"abs-prefix.md":          "/srv/lib_evil/secret.md",
		"abs-parent-out.md":      "/srv/lib/../lib_evil/secret.md",
		"abs-above.md":           "/srv",
		"rel.md":                 "docs/real.md",
		"docs/up.md":             "../abs.md", // relative to an absolute one
		"docs/sub/rel-climb.md":  "../../docs/real.md",
		"docs/sub/rel-out.md":    "../../../outside.md",
		"chain.md":               "abs-dir/sub/deep.md",
		"loop-a.md":              "/srv/lib/loop-b.md",
		"loop-b.md":              "loop-a.md",
		"self.md":                "/srv/lib/self.md",
		"dangling.md":            "/srv/lib/nothing.md",
		"file-as-folder.md":      "/srv/lib/docs/real.md/x.md",
		"windows.md":             "C:/lib/docs/real.md",
		"windows-other-drive.md": "D:/lib/docs/real.md",
	}
	roots := []string{"/srv/lib", "/data/lib", "C:/lib"}
	tests := []struct {
		path, want string
		err        error
	}{
		{"docs/real.md", "docs/real.md", nil},
		{"abs.md", "docs/real.md", nil},
		{"abs-real.md", "docs/real.md", nil},
		{"abs-dotted.md", "docs/real.md", nil},
		{"abs-dir/real.md", "docs/real.md", nil},
		{"abs-dir/sub/deep.md", "docs/sub/deep.md", nil},
		{"abs-root/docs/real.md", "docs/real.md", nil},
		{"abs-root", ".", nil},
		{"abs-climb.md", "docs/real.md", nil},
		{"rel.md", "docs/real.md", nil},
		{"docs/up.md", "docs/real.md", nil},
		{"docs/sub/rel-climb.md", "docs/real.md", nil},
		{"chain.md", "docs/sub/deep.md", nil},
		{"windows.md", "docs/real.md", nil},
		{"docs/sub/../real.md", "docs/real.md", nil},
		{"abs-out.md", "", ErrLinkOutside},
		{"abs-prefix.md", "", ErrLinkOutside},
		{"abs-parent-out.md", "", ErrLinkOutside},
		{"abs-above.md", "", ErrLinkOutside},
		{"docs/sub/rel-out.md", "", ErrLinkOutside},
		{"windows-other-drive.md", "", ErrLinkOutside},
		{"../x.md", "", ErrLinkOutside},
		{"/srv/lib/docs/real.md", "", ErrLinkOutside},
		{"loop-a.md", "", ErrLinkLoop},
		{"loop-b.md", "", ErrLinkLoop},
		{"self.md", "", ErrLinkLoop},
		{"dangling.md", "", fs.ErrNotExist},
		{"file-as-folder.md", "", fs.ErrNotExist},
	}
	for _, tt := range tests {
		got, err := Resolve(tt.path, func(t string) (string, bool) { return BelowRoots(t, roots) }, tree.readLink)
		if got != tt.want || !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
			t.Errorf("ResolveLinks(%q) = %q, %v; want %q, %v", tt.path, got, err, tt.want, tt.err)
		}
	}
	if !errors.Is(ErrLinkOutside, domain.ErrRefused) {
		t.Errorf("ErrLinkOutside does not wrap ErrRefused")
	}
}

// A chain of exactly MaxLinks links resolves; one more is a loop.
func TestResolveLinksLimit(t *testing.T) {
	chain := func(n int) fakeTree {
		tree := fakeTree{"end.md": ""}
		for i := range n {
			target := "end.md"
			if i+1 < n {
				target = "/srv/lib/l" + string(rune('a'+(i+1)/26)) + string(rune('a'+(i+1)%26))
			}
			tree["l"+string(rune('a'+i/26))+string(rune('a'+i%26))] = target
		}
		return tree
	}
	if got, err := Resolve("laa", srvLib, chain(MaxLinks).readLink); err != nil || got != "end.md" {
		t.Errorf("a chain of %d links = %q, %v; want end.md", MaxLinks, got, err)
	}
	if got, err := Resolve("laa", srvLib, chain(MaxLinks+1).readLink); !errors.Is(err, ErrLinkLoop) {
		t.Errorf("a chain of %d links = %q, %v; want ErrLinkLoop", MaxLinks+1, got, err)
	}
}

func srvLib(target string) (string, bool) { return BelowRoots(target, []string{"/srv/lib"}) }

func TestBelowRoots(t *testing.T) {
	tests := []struct {
		target string
		roots  []string
		want   string
		ok     bool
	}{
		{"/srv/lib/a.md", []string{"/srv/lib"}, "a.md", true},
		{"/srv/lib", []string{"/srv/lib"}, "", true},
		{"/srv/lib/", []string{"/srv/lib/"}, "", true},
		{"//srv/./lib//docs/a.md", []string{"/srv/lib"}, "docs/a.md", true},
		{"/srv/lib/../lib_evil/a.md", []string{"/srv/lib"}, "../lib_evil/a.md", true},
		{"/data/lib/a.md", []string{"/srv/lib", "/data/lib"}, "a.md", true},
		{"/srv/x.md", []string{"/"}, "srv/x.md", true},
		{"C:/lib/a.md", []string{"C:/lib"}, "a.md", true},
		{"/srv/lib_evil/a.md", []string{"/srv/lib"}, "", false},
		{"/srv/li", []string{"/srv/lib"}, "", false},
		{"/srv", []string{"/srv/lib"}, "", false},
		{"srv/lib/a.md", []string{"/srv/lib"}, "", false},
		{"/srv/lib/a.md", []string{"srv/lib", ""}, "", false},
		{"D:/lib/a.md", []string{"C:/lib"}, "", false},
	}
	for _, tt := range tests {
		if got, ok := BelowRoots(tt.target, tt.roots); got != tt.want || ok != tt.ok {
			t.Errorf("BelowRoots(%q, %q) = %q, %t; want %q, %t", tt.target, tt.roots, got, ok, tt.want, tt.ok)
		}
	}
}

// below may place a target inside the root by other means than its
// prefix (an adapter resolving the target's links outside the root).
func TestResolveLinksWithOwnBelow(t *testing.T) {
	tree := fakeTree{"docs": "", "docs/a.md": "", "via-alias.md": "/alias/docs/a.md", "out.md": "/elsewhere/a.md"}
	below := func(target string) (string, bool) {
		return BelowRoots(strings.Replace(target, "/alias", "/srv/lib", 1), []string{"/srv/lib"})
	}
	if got, err := Resolve("via-alias.md", below, tree.readLink); err != nil || got != "docs/a.md" {
		t.Errorf("ResolveLinks(via-alias.md) = %q, %v; want docs/a.md", got, err)
	}
	if _, err := Resolve("out.md", below, tree.readLink); !errors.Is(err, ErrLinkOutside) {
		t.Errorf("ResolveLinks(out.md): %v; want ErrLinkOutside", err)
	}
}

// A root of "/" holds every absolute target; a relative root holds none.
func TestResolveLinksRoots(t *testing.T) {
	tree := fakeTree{"srv": "", "srv/x.md": "", "abs.md": "/srv/x.md"}
	under := func(roots ...string) BelowRoot {
		return func(target string) (string, bool) { return BelowRoots(target, roots) }
	}
	if got, err := Resolve("abs.md", under("/"), tree.readLink); err != nil || got != "srv/x.md" {
		t.Errorf("under root / = %q, %v; want srv/x.md", got, err)
	}
	if _, err := Resolve("abs.md", under("srv", ""), tree.readLink); !errors.Is(err, ErrLinkOutside) {
		t.Errorf("with only relative roots: %v; want ErrLinkOutside", err)
	}
}
