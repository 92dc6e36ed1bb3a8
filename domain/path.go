package domain

import (
	"fmt"
	"path"
	"strings"

	"github.com/librarian/librarian/domain/wording"
)

// CheckIndexPath applies seed 000's rules to a path written in an index:
// relative, '/'-separated, no '..'. It returns the first rule broken, worded
// for a problem list ("'path' may not contain '..'"), or "" when it is fine.
func CheckIndexPath(field, p string) string {
	switch {
	case p == "":
		return fmt.Sprintf("'%s' is empty", field)
	case strings.ContainsRune(p, '\\'):
		return fmt.Sprintf("'%s' may not contain '\\' (use '/')", field)
	case strings.HasPrefix(p, "/") || hasDriveLetter(p):
		return fmt.Sprintf("'%s' must be relative, not absolute", field)
	case strings.ContainsRune(p, 0):
		return fmt.Sprintf("'%s' may not contain a NUL byte", field)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return fmt.Sprintf("'%s' may not contain '..'", field)
		}
	}
	return ""
}

// IsAbsolute reports whether p is an absolute path, '/'-led or starting
// with a drive letter ("C:"): never a library path.
func IsAbsolute(p string) bool { return strings.HasPrefix(p, "/") || hasDriveLetter(p) }

func hasDriveLetter(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}

// CleanFolder turns a folder argument as agents write it ("", ".", "/",
// "backend/storage/", "/daisyui") into a clean relative folder ("" for the
// root). A folder that climbs out of the root ('..'), or holds '\' or NUL,
// is refused with ErrRefused.
func CleanFolder(dir string) (string, error) {
	d := strings.TrimSpace(dir)
	if strings.ContainsRune(d, '\\') || strings.ContainsRune(d, 0) {
		return "", fmt.Errorf("%w: folder %s may not contain '\\' or NUL", ErrRefused, wording.QuoteInput(dir, '"'))
	}
	for _, seg := range strings.Split(d, "/") {
		if seg == ".." {
			return "", fmt.Errorf("%w: folder %s may not contain '..'", ErrRefused, wording.QuoteInput(dir, '"'))
		}
	}
	d = strings.Trim(path.Clean("/"+d), "/")
	return d, nil
}

// InFolder reports whether the '/'-separated path p lies in folder dir
// ("" is the root). Segments are compared whole, so "lib_evil/x" is not in "lib".
func InFolder(p, dir string) bool {
	if dir == "" {
		return true
	}
	return strings.HasPrefix(p, dir+"/")
}

// DepthBelow counts the path segments of p below dir, the file name
// included: a doc directly in dir is at depth 1.
func DepthBelow(p, dir string) int {
	rel := p
	if dir != "" {
		rel = strings.TrimPrefix(p, dir+"/")
	}
	return strings.Count(rel, "/") + 1
}

// DocStem returns a markdown file's name without its extension, ".md" or
// ".markdown" in any case ("README.MD" gives "README", "guide.Markdown"
// "guide"); ok is false for any other name. The frontmatter convention's
// docs are such files, and their ids these stems.
func DocStem(name string) (stem string, ok bool) {
	for _, ext := range []string{".md", ".markdown"} {
		if len(name) > len(ext) && strings.EqualFold(name[len(name)-len(ext):], ext) {
			return name[:len(name)-len(ext)], true
		}
	}
	return "", false
}

// IsFolderIndexName reports whether a file of this name describes its
// folder: "index" and a markdown extension (index.md, index.MD,
// index.markdown).
func IsFolderIndexName(name string) bool {
	stem, ok := DocStem(name)
	return ok && stem == "index"
}

// IsFolderIndex reports whether p is folder dir's own index file ("" is
// the root).
func IsFolderIndex(p, dir string) bool {
	return FolderOf(p) == dir && IsFolderIndexName(path.Base(p))
}
