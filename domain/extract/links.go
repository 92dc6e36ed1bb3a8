package extract

import (
	"net/url"
	"path"
	"strings"

	"github.com/librarian/librarian/domain"
)

// Link is one link a document writes to another: a markdown link
// ([text](../auth.md#rotation), or a reference definition [id]: auth.md)
// or a wiki link ([[backend/auth]], [[auth|the auth doc]]). Target is the
// library path it points at, resolved against the linking doc's folder,
// without its #fragment or ?query; Wiki marks a wiki link, whose target
// has no extension as a rule and may name a doc by id or file name.
type Link struct {
	Target string
	// Raw is the target as written (for a wiki link, the text before any
	// '|' alias).
	Raw  string
	Line int
	Wiki bool
}

// Links returns the links of the document at docPath (a library
// path, '/'-separated), in line order, skipping fenced code, inline code,
// image stubs (![[image:ID]]), images (![alt](src)), external links (any
// scheme, //host, mailto:), bare fragments (#section) and targets that climb
// out of the library. It is pure and linear in the size of content.
func Links(content []byte, s domain.Structure, docPath string) []Link {
	lines := splitLines(content)
	code := make([]bool, len(lines)+2)
	for _, cb := range s.CodeBlocks {
		for ln := max(cb.Start, 1); ln <= cb.End && ln <= len(lines); ln++ {
			code[ln] = true
		}
	}
	dir := path.Dir(docPath)
	if dir == "." {
		dir = ""
	}
	var out []Link
	add := func(target string, ln int, wiki bool) {
		if t, ok := resolveLinkTarget(dir, target, wiki); ok {
			out = append(out, Link{Target: t, Raw: strings.TrimSpace(target), Line: ln, Wiki: wiki})
		}
	}
	for i, line := range lines {
		ln := i + 1
		if ln <= s.FrontmatterEnd || code[ln] {
			continue
		}
		if len(line) > maxLineLen {
			line = line[:maxLineLen]
		}
		line = blankInlineCode(line)
		if t, ok := referenceDefinition(line); ok {
			add(t, ln, false)
			continue
		}
		scanLinks(line, func(target string, wiki bool) { add(target, ln, wiki) })
	}
	return out
}

// scanLinks calls found for each inline link and wiki link of line, left to
// right, in one pass.
func scanLinks(line string, found func(target string, wiki bool)) {
	for i := 0; i < len(line); i++ {
		switch {
		case strings.HasPrefix(line[i:], "[["):
			end := strings.Index(line[i+2:], "]]")
			if end < 0 {
				return // no wiki link closes on this line, and none after
			}
			inner := line[i+2 : i+2+end]
			if i == 0 || line[i-1] != '!' {
				if k := strings.IndexByte(inner, '|'); k >= 0 {
					inner = inner[:k]
				}
				found(inner, true)
			}
			i += 2 + end + 1
		case strings.HasPrefix(line[i:], "]("):
			j := i + 2
			var target string
			if j < len(line) && line[j] == '<' {
				k := strings.IndexByte(line[j:], '>')
				if k < 0 {
					continue
				}
				target = line[j+1 : j+k]
				j += k + 1
			} else {
				depth := 0
				k := j
				for ; k < len(line); k++ {
					c := line[k]
					if c == ' ' || c == '\t' || c == ')' && depth == 0 {
						break
					}
					if c == '(' {
						depth++
					} else if c == ')' {
						depth--
					}
				}
				target = line[j:k]
				j = k
			}
			if !isImageLink(line, i) {
				found(target, false)
			}
			i = j - 1
		}
	}
}

// isImageLink reports whether the link whose text closes at line[close]
// (the ']' of "](") is an image: its '[' is preceded by '!'.
func isImageLink(line string, close int) bool {
	depth := 0
	for k := close - 1; k >= 0 && close-k < 1024; k-- {
		switch line[k] {
		case ']':
			depth++
		case '[':
			if depth == 0 {
				return k > 0 && line[k-1] == '!'
			}
			depth--
		}
	}
	return false
}

// referenceDefinition reads "[label]: target" at the start of a line (up to
// three spaces of indent, as CommonMark).
func referenceDefinition(line string) (string, bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || !strings.HasPrefix(t, "[") || strings.HasPrefix(t, "[[") {
		return "", false
	}
	end := strings.Index(t, "]:")
	if end < 1 {
		return "", false
	}
	rest := strings.TrimSpace(t[end+2:])
	rest = strings.TrimPrefix(rest, "<")
	if k := strings.IndexAny(rest, " \t>"); k >= 0 {
		rest = rest[:k]
	}
	return rest, rest != ""
}

// blankInlineCode replaces inline code spans (and their backticks) with
// spaces, so a link written as code is not a link.
func blankInlineCode(line string) string {
	spans := codeSpans(line)
	if len(spans) == 0 {
		return line
	}
	b := []byte(line)
	for _, sp := range spans {
		for x := sp.from; x < sp.to; x++ {
			b[x] = ' '
		}
	}
	return string(b)
}

// resolveLinkTarget turns a link as written into a library path, or reports
// that it points outside the library (external, climbing out, empty).
func resolveLinkTarget(dir, target string, wiki bool) (string, bool) {
	t := strings.TrimSpace(target)
	if k := strings.IndexAny(t, "#?"); k >= 0 {
		t = t[:k]
	}
	if t == "" || strings.HasPrefix(t, "//") || strings.ContainsRune(t, '\\') || strings.ContainsRune(t, 0) {
		return "", false
	}
	if k := strings.IndexByte(t, ':'); k >= 0 && !strings.ContainsRune(t[:k], '/') {
		return "", false // a scheme: http:, mailto:, image:, data:, C: ...
	}
	if !wiki {
		if u, err := url.PathUnescape(t); err == nil {
			t = u
		}
	}
	var joined string
	if strings.HasPrefix(t, "/") {
		joined = path.Clean(t)
	} else {
		joined = path.Clean("/" + path.Join(dir, t))
		if climbsOut(dir, t) {
			return "", false
		}
	}
	joined = strings.TrimPrefix(joined, "/")
	if joined == "" || joined == "." {
		return "", false
	}
	return joined, true
}

// climbsOut reports whether the relative target t, read from folder dir,
// goes above the library root.
func climbsOut(dir, t string) bool {
	depth := 0
	if dir != "" {
		depth = strings.Count(dir, "/") + 1
	}
	for _, seg := range strings.Split(t, "/") {
		switch seg {
		case "..":
			depth--
			if depth < 0 {
				return true
			}
		case ".", "":
		default:
			depth++
		}
	}
	return false
}

// LinkResolver maps link targets to the documents of one catalog: a target
// names a doc by its path, its path without ".md", its folder (the folder's
// index.md), its id, or, for a wiki link, its file name when that is unique.
type LinkResolver struct {
	byPath map[string]string
	byID   map[string]string
	byBase map[string]string // "" when two docs share the file name
}

// NewLinkResolver indexes docs for Resolve.
func NewLinkResolver(docs []domain.Document) *LinkResolver {
	r := &LinkResolver{byPath: map[string]string{}, byID: map[string]string{}, byBase: map[string]string{}}
	for _, d := range docs {
		r.byPath[d.Path] = d.Path
		if d.ID != "" {
			r.byID[d.ID] = d.Path
		}
		base := strings.TrimSuffix(path.Base(d.Path), ".md")
		if _, dup := r.byBase[base]; dup {
			r.byBase[base] = ""
		} else {
			r.byBase[base] = d.Path
		}
	}
	return r
}

// Resolve returns the doc paths links point at, deduplicated, in first-seen
// order, without from itself; links to no doc of the catalog are dropped.
func (r *LinkResolver) Resolve(from string, links []Link) []string {
	var out []string
	seen := map[string]bool{from: true}
	for _, l := range links {
		p := r.lookup(l)
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

func (r *LinkResolver) lookup(l Link) string {
	t := l.Target
	for _, cand := range []string{t, t + ".md", strings.TrimSuffix(t, "/") + "/index.md"} {
		if p, ok := r.byPath[cand]; ok {
			return p
		}
	}
	if !l.Wiki {
		return ""
	}
	// A wiki link was resolved against the doc's folder; as written it may
	// also be a path from the root, an id, or a bare file name.
	w := strings.TrimSpace(l.Raw)
	if k := strings.IndexByte(w, '#'); k >= 0 {
		w = w[:k]
	}
	w = strings.Trim(w, "/")
	for _, cand := range []string{w, w + ".md"} {
		if p, ok := r.byPath[cand]; ok {
			return p
		}
	}
	if p, ok := r.byID[w]; ok {
		return p
	}
	return r.byBase[strings.TrimSuffix(path.Base(w), ".md")]
}
