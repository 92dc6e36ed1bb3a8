package domain

import (
	"io/fs"
	"net/url"
	"path"
	"strings"
	"testing"
)

func TestResolveImage(t *testing.T) {
	const (
		absolute = "is an absolute path; an image path is relative to the doc's folder"
		outside  = "leads outside the library root"
		folder   = "names a folder, not a file"
	)
	local := func(p string) ImageTarget { return ImageTarget{Kind: ImageLocal, Path: p} }
	remote := func(u string) ImageTarget { return ImageTarget{Kind: ImageRemote, URL: u} }
	refused := func(why string) ImageTarget {
		return ImageTarget{Kind: ImageRefused, Problem: why, Outside: why == absolute || why == outside}
	}
	tests := []struct {
		doc, dest string
		want      ImageTarget
	}{
		{"backend/auth.md", "arch.png", local("backend/arch.png")},
		{"backend/auth.md", "./img/arch.png", local("backend/img/arch.png")},
		{"backend/auth.md", "../img/arch.png", local("img/arch.png")},
		{"auth.md", "img/arch.png", local("img/arch.png")},
		{"a/b/c.md", "../../x.png", local("x.png")},
		{"a/b/c.md", "x/../../y.png", local("a/y.png")},
		{"a/b/c.md", "x//y.png", local("a/b/x/y.png")},
		{"a/c.md", "  spaced.png\t", local("a/spaced.png")},
		// Query and fragment name no file; percent-encoding is decoded once.
		{"a/c.md", "x.png?raw=true", local("a/x.png")},
		{"a/c.md", "x.png#frag", local("a/x.png")},
		{"a/c.md", "my%20file.png", local("a/my file.png")},
		{"a/c.md", "q%3Fmark.png", local("a/q?mark.png")},
		{"a/c.md", "twice%2520.png", local("a/twice%20.png")},
		{"a/c.md", "d%C3%A9j%C3%A0.png", local("a/déjà.png")},
		{"a/c.md", "%2e%2e/x.png", local("x.png")},
		{"a/c.md", "%2e%2e/%2e%2e/x.png", refused(outside)},
		{"a/c.md", "..%2f..%2fx.png", refused(outside)},
		{"a/c.md", "%2Fetc%2Fpasswd", refused(absolute)},
		{"a/c.md", "x%00.png", refused("holds a control character")},
		{"a/c.md", "x%0a.png", refused("holds a control character")},
		{"a/c.md", "x%zz.png", refused("has a malformed %-escape")},
		// Out of the root, absolute, folders.
		{"auth.md", "../x.png", refused(outside)},
		{"a/b/c.md", "../../../x.png", refused(outside)},
		{"a/c.md", "/images/x.png", refused(absolute)},
		{"a/c.md", "C:/x.png", refused(absolute)},
		{"a/c.md", `C:\x.png`, refused(absolute)},
		{"a/c.md", `img\x.png`, refused("uses '\\'; image paths are '/'-separated")},
		{"a/c.md", "img/", refused(folder)},
		{"a/c.md", ".", refused(folder)},
		{"a/c.md", "x/..", refused(folder)},
		{"c.md", "..", refused(outside)},
		{"a/c.md", "..", refused(folder)},
		{"a/c.md", "", refused("names no file")},
		{"a/c.md", "?x", refused("names no file")},
		// Schemes.
		{"a/c.md", "https://example.com/a.png", remote("https://example.com/a.png")},
		{"a/c.md", "HTTP://example.com/a.png", remote("HTTP://example.com/a.png")},
		{"a/c.md", "//cdn.example.com/a.png", remote("//cdn.example.com/a.png")},
		{"a/c.md", "data:image/png;base64,iVBORw0KGgo=", ImageTarget{Kind: ImageData, URL: "data:image/png;base64,…"}},
		{"a/c.md", "data:image/svg+xml", ImageTarget{Kind: ImageData, URL: "data:image/svg+xml"}},
		{"a/c.md", "file:///etc/passwd", refused("is a 'file:' URL; an image is a relative path inside the library, or an http(s) URL")},
		{"a/c.md", "javascript:alert(1)", refused("is a 'javascript:' URL; an image is a relative path inside the library, or an http(s) URL")},
		{"a/c.md", "./file:x.png", local("a/file:x.png")},
	}
	for _, tt := range tests {
		if got := ResolveImage(tt.doc, tt.dest); got != tt.want {
			t.Errorf("ResolveImage(%q, %q) = %+v, want %+v", tt.doc, tt.dest, got, tt.want)
		}
	}
}

// FuzzResolveImage: whatever a doc's text holds, a local image is a clean
// relative library path that fs.ValidPath accepts, below the root, made
// only from the destination's own segments and the doc's folder; and a
// destination whose decoded path climbs out is never local.
func FuzzResolveImage(f *testing.F) {
	for _, s := range []struct{ doc, dest string }{
		{"backend/auth.md", "../img/arch.png"},
		{"auth.md", "../x.png"},
		{"a/b/c.md", "%2e%2e/%2e%2e/%2e%2e/x"},
		{"a/c.md", "/etc/passwd"},
		{"a/c.md", "https://x.test/a.png"},
		{"a/c.md", "data:image/png;base64,AAAA"},
		{"a/c.md", `..\..\x`},
		{"a/c.md", "x%2f..%2f..%2f..%2fy"},
		{"a/c.md", "a/./b/../../../c.png?q#f"},
		{"a/c.md", "%25%32%65%25%32%65/x"},
		{"x.md", "C%3A/x.png"},
	} {
		f.Add(s.doc, s.dest)
	}
	f.Fuzz(func(t *testing.T, doc, dest string) {
		if !fs.ValidPath(doc) || doc == "." || strings.ContainsRune(doc, '\\') || hasControl(doc) {
			t.Skip("not a library path, or one whose folder already holds what the image path may not")
		}
		got := ResolveImage(doc, dest)
		if again := ResolveImage(doc, dest); again != got {
			t.Fatalf("ResolveImage(%q, %q) not deterministic: %+v then %+v", doc, dest, got, again)
		}
		switch got.Kind {
		case ImageLocal:
			p := got.Path
			if !fs.ValidPath(p) || p == "." || path.Clean(p) != p || IsAbsolute(p) {
				t.Fatalf("ResolveImage(%q, %q) = %q: not a clean relative path", doc, dest, p)
			}
			if strings.ContainsRune(p, '\\') || hasControl(p) {
				t.Fatalf("ResolveImage(%q, %q) = %q: holds '\\' or a control character", doc, dest, p)
			}
			for _, seg := range strings.Split(p, "/") {
				if seg == ".." || seg == "." {
					t.Fatalf("ResolveImage(%q, %q) = %q: segment %q", doc, dest, p, seg)
				}
			}
			// The same answer as joining by hand: no segment escaped and came back.
			rel := strings.Trim(dest, " \t\r\n\f")
			if i := strings.IndexAny(rel, "?#"); i >= 0 {
				rel = rel[:i]
			}
			dec, err := url.PathUnescape(rel)
			if err != nil {
				t.Fatalf("ResolveImage(%q, %q) = %q, but the path does not decode: %v", doc, dest, p, err)
			}
			if want := path.Join(FolderOf(doc), dec); want != p || strings.HasPrefix(want, "../") {
				t.Fatalf("ResolveImage(%q, %q) = %q, want %q", doc, dest, p, want)
			}
		case ImageRemote, ImageData:
			if got.URL == "" {
				t.Fatalf("ResolveImage(%q, %q) = %+v: no URL", doc, dest, got)
			}
		case ImageRefused:
			if got.Problem == "" {
				t.Fatalf("ResolveImage(%q, %q) refused without a reason", doc, dest)
			}
		default:
			t.Fatalf("ResolveImage(%q, %q) = %+v: no kind", doc, dest, got)
		}
	})
}
