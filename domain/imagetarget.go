package domain

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// A standard markdown image (`![alt](dest)`, a reference-style image, an
// HTML <img src>) names where its picture is in the doc's own words. The
// doc's text comes from whoever wrote the library, so the destination is
// untrusted: ResolveImage decides, without any I/O, whether it names a file
// of the library (and which), a remote picture, inline data, or something a
// library never reads. The adapter that reads the file still confines it to
// the library root, symlinks included: ResolveImage only rules out what the
// text alone shows to be outside.

// ImageKind is what a standard image's destination points at.
type ImageKind int

const (
	// ImageLocal is a file of the library: Path names it.
	ImageLocal ImageKind = iota + 1
	// ImageRemote is an http(s) URL (or a scheme-relative "//host/…"):
	// never fetched.
	ImageRemote
	// ImageData is a data: URI: its bytes are in the doc's text already.
	ImageData
	// ImageRefused is a destination no library reads: Problem says why.
	ImageRefused
)

// ImageTarget is where a standard image points.
type ImageTarget struct {
	Kind ImageKind
	// Path (ImageLocal) is the file relative to the library root: clean,
	// '/'-separated, never absolute, never with a '.' or '..' segment.
	Path string
	// URL (ImageRemote, ImageData) names the picture for a placeholder: a
	// remote URL as written, a data: URI up to its comma ("data:image/png;base64,…").
	URL string
	// Problem (ImageRefused) says why, worded to follow the destination:
	// "is an absolute path; …".
	Problem string
	// Outside (ImageRefused) is set when the path leads outside the library
	// root: an absolute path, or '..' past the root.
	Outside bool
}

// ResolveImage reads dest, a standard image's destination as the doc's text
// gives it (CommonMark's backslash escapes and character references already
// resolved, percent-encoding kept), relative to the folder of docPath (a
// library path):
//   - "http:" and "https:" URLs, and "//host/…", are remote; "data:" URIs are data;
//   - any other scheme ("file:", "javascript:"), an absolute path ("/x.png",
//     "C:/x.png") or a '\' is refused: a library image is a relative,
//     '/'-separated path;
//   - a "?query" or "#fragment" is dropped (it names no file), then the
//     path is percent-decoded once ("a%20b.png" is "a b.png"; "%252e" stays
//     "%2e"), and what the decoding gives is checked as written: "%2e%2e/x"
//     is "../x";
//   - ".." segments are resolved against the doc's folder; one that climbs
//     past the library root is refused, as is a path naming a folder
//     (ending in '/', '.' or '..'), holding a control character or not
//     valid UTF-8.
func ResolveImage(docPath, dest string) ImageTarget {
	d := strings.Trim(dest, " \t\r\n\f")
	if d == "" {
		return refusedImage("names no file")
	}
	if strings.HasPrefix(d, "//") {
		return ImageTarget{Kind: ImageRemote, URL: d}
	}
	if scheme, ok := urlScheme(d); ok {
		switch {
		case len(scheme) == 1:
			return outsideImage("is an absolute path; an image path is relative to the doc's folder")
		case strings.EqualFold(scheme, "http"), strings.EqualFold(scheme, "https"):
			return ImageTarget{Kind: ImageRemote, URL: d}
		case strings.EqualFold(scheme, "data"):
			return ImageTarget{Kind: ImageData, URL: dataLabel(d)}
		default:
			return refusedImage("is a '" + strings.ToLower(scheme) + ":' URL; an image is a relative path inside the library, or an http(s) URL")
		}
	}
	if i := strings.IndexAny(d, "?#"); i >= 0 {
		d = d[:i]
		if d == "" {
			return refusedImage("names no file")
		}
	}
	p, err := url.PathUnescape(d)
	if err != nil {
		return refusedImage("has a malformed %-escape")
	}
	switch {
	case !utf8.ValidString(p):
		return refusedImage("is not valid UTF-8")
	case hasControl(p):
		return refusedImage("holds a control character")
	case strings.ContainsRune(p, '\\'):
		return refusedImage("uses '\\'; image paths are '/'-separated")
	case IsAbsolute(p):
		return outsideImage("is an absolute path; an image path is relative to the doc's folder")
	case strings.HasSuffix(p, "/"):
		return refusedImage("names a folder, not a file")
	}
	var segs []string
	if dir := FolderOf(docPath); dir != "" {
		segs = strings.Split(dir, "/")
	}
	parts := strings.Split(p, "/")
	for _, s := range parts {
		switch s {
		case "", ".":
		case "..":
			if len(segs) == 0 {
				return outsideImage("leads outside the library root")
			}
			segs = segs[:len(segs)-1]
		default:
			segs = append(segs, s)
		}
	}
	if last := parts[len(parts)-1]; last == "." || last == ".." || len(segs) == 0 {
		return refusedImage("names a folder, not a file")
	}
	return ImageTarget{Kind: ImageLocal, Path: strings.Join(segs, "/")}
}

func refusedImage(problem string) ImageTarget {
	return ImageTarget{Kind: ImageRefused, Problem: problem}
}

func outsideImage(problem string) ImageTarget {
	return ImageTarget{Kind: ImageRefused, Problem: problem, Outside: true}
}

// urlScheme returns the scheme of an absolute URL (RFC 3986: a letter,
// then letters, digits, '+', '-' or '.', then ':'), ok false when d has
// none (a relative path, whose first segment may hold a ':' only after a '/').
func urlScheme(d string) (string, bool) {
	for i := 0; i < len(d); i++ {
		c := d[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return d[:i], true
		default:
			return "", false
		}
	}
	return "", false
}

// dataLabel is a data: URI's media type part, its payload left out: the
// payload is in the doc's line already, and may be megabytes.
func dataLabel(d string) string {
	head, _, cut := strings.Cut(d, ",")
	if len(head) > 100 {
		head = head[:100]
		for !utf8.ValidString(head) {
			head = head[:len(head)-1]
		}
		cut = true
	}
	if cut {
		return head + ",…"
	}
	return head
}

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return true
		}
	}
	return false
}
