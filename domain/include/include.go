// Package include reads the lines of a doc that pull another file's text
// into the page where a site builds it (Hugo's include shortcode,
// VitePress's @include, an MDX component imported from a markdown file),
// resolves the paths they name inside the library, and chooses the
// included file's lines an answer quotes in an including line's place.
package include

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/passage"
)

// Directive is a line of a doc that pulls another file's text into the page
// where a site builds it: a section whose body is such a line holds none of
// the included file's words or lines, so an answer quoting it quotes the
// included file's lines instead, with where they come from.
type Directive struct {
	// Line is the doc's line that includes (1-based).
	Line int
	// Paths are the library paths (relative to its root, slash-separated,
	// cleaned, never above the root) the line may name, in the order the
	// site looks for them: the first that is a doc of the library is the
	// one included.
	Paths []string
	// From and To are the included file's lines (1-based, inclusive) when
	// the line names a range (VitePress `{3,10}`); 0 for its start or end.
	From, To int
}

var (
	// Hugo: {{% include "span-status-preamble.md" %}}, {{< include x.md >}}
	// (more arguments may follow the name).
	hugoInclude = regexp.MustCompile(`^\s*\{\{[%<]\s*include\s+(?:"([^"]+)"|'([^']+)'|([^\s"'%>}]+))`)
	// VitePress: <!--@include: ./x.md-->, <!--@include: ./x.md{3,10}-->,
	// <!--@include: ./x.md#region-->.
	vitepressInclude = regexp.MustCompile(`^\s*<!--\s*@include:\s*([^{#>\s]+)(?:#[^{>\s]*)?(?:\{(\d*),(\d*)\})?\s*-->`)
	// MDX: import Note from './_note.md' and then <Note /> alone on a line.
	mdxImport = regexp.MustCompile(`^\s*import\s+([A-Z][A-Za-z0-9_]*)\s+from\s+['"]([^'"]+)['"]\s*;?\s*$`)
	mdxUse    = regexp.MustCompile(`^\s*<([A-Z][A-Za-z0-9_]*)\s*/>\s*$`)
)

// Directives returns the lines of the doc at docPath (its lines, lines[k-1]
// being line k) that include another file, in line order: Hugo's include
// shortcode (the name looked up in an `_includes` folder of the page's
// folder, then of each folder above it), VitePress's `<!--@include: -->`
// (a path relative to the page, `@/` for the library's root, with an
// optional line range) and an MDX component imported from a markdown file
// and used alone on a line. Lines in fenced code blocks are examples, not
// includes. Only paths inside the library are given (Path): a
// caller reads them through the library, which holds no file outside its
// root and resolves symlinks inside it.
func Directives(docPath string, lines []string) []Directive {
	dir := path.Dir(docPath)
	if dir == "." {
		dir = ""
	}
	var out []Directive
	imports := map[string]string{} // MDX component -> its file's library path
	importAt := map[string]int{}   // MDX component -> its import's line
	used := map[string]bool{}      // MDX components used alone on a line
	fence := ""
	for i, raw := range lines {
		line := strings.TrimRight(raw, "\r")
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		switch {
		case strings.HasPrefix(t, "{{"):
			m := hugoInclude.FindStringSubmatch(t)
			if m == nil {
				continue
			}
			name := m[1] + m[2] + m[3]
			var paths []string
			for d := dir; ; d = path.Dir(d) {
				if d == "." || d == "/" {
					d = ""
				}
				if p, ok := Path(path.Join(d, "_includes"), name); ok {
					paths = append(paths, p)
				}
				if d == "" {
					break
				}
			}
			if len(paths) > 0 {
				out = append(out, Directive{Line: i + 1, Paths: paths})
			}
		case strings.HasPrefix(t, "<!--"):
			m := vitepressInclude.FindStringSubmatch(t)
			if m == nil {
				continue
			}
			base, name := dir, m[1]
			if rest, ok := strings.CutPrefix(name, "@/"); ok {
				base, name = "", rest
			}
			if p, ok := Path(base, name); ok {
				from, _ := strconv.Atoi(m[2])
				to, _ := strconv.Atoi(m[3])
				out = append(out, Directive{Line: i + 1, Paths: []string{p}, From: from, To: to})
			}
		case strings.HasPrefix(t, "import "):
			if m := mdxImport.FindStringSubmatch(t); m != nil {
				if p, ok := Path(dir, m[2]); ok {
					imports[m[1]], importAt[m[1]] = p, i+1
				}
			}
		case strings.HasPrefix(t, "<"):
			if m := mdxUse.FindStringSubmatch(t); m != nil && imports[m[1]] != "" {
				out = append(out, Directive{Line: i + 1, Paths: []string{imports[m[1]]}})
				used[m[1]] = true
			}
		}
	}
	// The import line of a component the doc uses names the file as well:
	// a line chooser reads its words (`import TypeScriptExamplesNote from
	// './_TypeScriptExamplesNote.md'`), not the bare `<TypeScriptExamplesNote />`.
	added := false
	for c := range used {
		out = append(out, Directive{Line: importAt[c], Paths: []string{imports[c]}})
		added = true
	}
	if added {
		slices.SortFunc(out, func(a, b Directive) int { return a.Line - b.Line })
	}
	return out
}

// MayInclude reports whether line may be one Directives gives: a cheap test
// a caller makes on the lines it quotes before reading the whole doc for
// its includes.
func MayInclude(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "{{") || strings.HasPrefix(t, "<!--") || strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "<")
}

// Path returns the library path an include names (name, relative to
// the library folder dir) when it is a markdown file inside the library:
// relative, no `..` above the root, no backslash, NUL or URL, a markdown
// extension (domain.DocStem). An include is text a doc's author wrote: it must
// never read outside the library.
func Path(dir, name string) (string, bool) {
	if name == "" || len(name) > 1024 || strings.ContainsAny(name, "\\\x00") || strings.Contains(name, "://") || domain.IsAbsolute(name) {
		return "", false
	}
	if dir != "" && (domain.IsAbsolute(dir) || strings.ContainsAny(dir, "\\\x00")) {
		return "", false
	}
	p := path.Clean(path.Join(dir, name))
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return "", false
	}
	for _, part := range strings.Split(p, "/") {
		if strings.HasPrefix(part, ".") {
			return "", false // a dot-folder or dot-file: the library never serves one
		}
	}
	if _, ok := domain.DocStem(path.Base(p)); !ok {
		return "", false
	}
	return p, true
}

// Lines is how many lines of an included file a section quotes in place of
// its including line, when it quotes others of its own lines besides it
// (its heading line aside: it names the section, the included file is its
// body) of the n it may quote: the places they leave, one at least.
func Lines(n, others int) int {
	return max(1, n-others)
}

// Quoted returns the lines of an included file (lines, its body starting
// at line body) that best answer q in d's place, as passage chooses a
// section's: as many as Lines leaves of the n the section may quote
// besides its others, within d's range; first is the answer's best
// section, whose lines are chosen as followed (passage.ShownFollowed), a
// later one's as prose. A section whose body is `{{% include
// "span-status-preamble.md" %}}` quotes the preamble's "By default, all
// spans are `Unset`".
func Quoted(q passage.Question, d Directive, lines []string, body, n, others int, first bool) []int {
	from, to := max(1, body, d.From), len(lines)
	if d.To > 0 {
		to = min(to, d.To)
	}
	choose := q.ShownProse
	if first {
		choose = q.ShownFollowed
	}
	var out []int
	for _, k := range choose(lines, from, to, Lines(n, others), nil, map[int]bool{}) {
		if k >= 1 && k <= len(lines) {
			out = append(out, k)
		}
	}
	return out
}
