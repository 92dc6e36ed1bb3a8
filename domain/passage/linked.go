package passage

import (
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/librarian/librarian/domain"
)

// A reference site names a setting in its guides and API pages by a link
// to the setting's own page or section ("The default is 10 seconds, and
// can be configured globally with [`hookTimeout`](/config/hooktimeout).");
// the setting's page states its default by a label ("- **Default:**
// `10_000` in Node.js, `30_000` if `browser.enabled` is `true`") in words
// no question shares, so the index finds the guide, not the page. An answer
// quoting such a link quotes the linked setting's labelled default too
// (OptionLinks, LinkedDefault).

// OptionLink is a link of a doc's line, whose text is a code name (a
// setting, an API), to another doc of the library.
type OptionLink struct {
	// Paths are the library paths (relative to its root, slash-separated,
	// cleaned, never above it) the link may name, in the order a site
	// resolves them: the page as a markdown file, then a folder's index.
	Paths []string
	// Anchor is the link's fragment, lower case, "" for none.
	Anchor string
	// Name is the link's text, the code name (`browser.screenshotDirectory`).
	Name string
}

// OptionLinks returns the links of line, a line of the doc at docPath
// (its library path), whose text is a code span (“[`hookTimeout`](/config/hooktimeout)”)
// and whose target is a doc of the site: a path from the site's root (the
// library's) or from the page, with or without its `.md` or `.html`
// extension. Links to a web address, to an anchor of the same page, or
// whose text is prose are left out: prose links point at guides, code
// links at the named setting's reference.
func OptionLinks(docPath, line string) []OptionLink {
	var out []OptionLink
	at := 0
	for {
		k := strings.Index(line[at:], "`](")
		if k < 0 {
			return out
		}
		close := at + k // the name's closing backtick
		at = close + 3
		e := strings.IndexByte(line[at:], ')')
		if e <= 0 {
			return out
		}
		target := strings.TrimSpace(line[at : at+e])
		at += e + 1
		o := strings.LastIndex(line[:close], "[`")
		if o < 0 {
			continue
		}
		if l, ok := optionLink(docPath, target); ok {
			l.Name = line[o+2 : close]
			out = append(out, l)
		}
	}
}

// optionLink resolves a link's target inside the library.
func optionLink(docPath, target string) (OptionLink, bool) {
	if target == "" || strings.HasPrefix(target, "#") || strings.Contains(target, "://") ||
		strings.HasPrefix(target, "mailto:") || strings.ContainsAny(target, " \"'") {
		return OptionLink{}, false
	}
	var l OptionLink
	if i := strings.IndexByte(target, '#'); i >= 0 {
		target, l.Anchor = target[:i], strings.ToLower(target[i+1:])
	}
	if i := strings.IndexByte(target, '?'); i >= 0 {
		target = target[:i]
	}
	var p string
	if strings.HasPrefix(target, "/") {
		p = path.Clean(strings.TrimPrefix(target, "/"))
	} else {
		p = path.Clean(path.Join(path.Dir(docPath), target))
	}
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return OptionLink{}, false
	}
	p = strings.TrimSuffix(strings.TrimSuffix(p, ".html"), ".md")
	if p == strings.TrimSuffix(docPath, ".md") {
		return OptionLink{}, false // the page itself
	}
	l.Paths = []string{p + ".md", p + "/index.md"}
	return l, true
}

// LinkedDefault is the line of a linked doc (its structure st and lines)
// that states by a label ("- **Default:** ...", outside code) the default
// of the setting a link to it names: in the section the link's anchor
// names (its letters and digits as the heading's, case aside: VitePress
// slugs `typecheck.include` as typecheck-include), or, with no anchor, in
// the doc's opening (a setting's own page states it under its title); 0
// for none.
func LinkedDefault(st domain.Structure, lines []string, anchor string) int {
	if anchor == "" {
		_, from, to, ok := st.Opening()
		if !ok {
			return 0
		}
		return labelledDefaultLine(lines, from, to, codeBlocks(lines, from, to))
	}
	a := letters(anchor)
	if a == "" {
		return 0
	}
	for i, sec := range st.Sections {
		if letters(sec.Heading) == a {
			from, to := sec.Start+1, st.OwnEnd(i)
			return labelledDefaultLine(lines, from, to, codeBlocks(lines, from, to))
		}
	}
	return 0
}

// letters is s's letters and digits, in lower case.
func letters(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// AsksSetting reports whether q asks for what a setting is: a value, its
// default, or where a thing is kept ("where on disk is the cache kept",
// a path is its value).
func (q Question) AsksSetting() bool {
	return q.asksValue || q.asksDefault || q.asksWhere
}

// NameAsked is how many of the question's own words (not the docs' words
// for them) a code name holds, its camelCase and dotted parts read as
// words: a link to `browser.screenshotDirectory` answers "where does
// browser mode save screenshots" before one to `api`.
func (q Question) NameAsked(name string) int {
	n := 0
	seen := map[string]bool{}
	for _, w := range Words(name) {
		s := Stem(w)
		if seen[s] || q.related[s] {
			continue
		}
		seen[s] = true
		if slices.Contains(q.terms, s) {
			n++
		}
	}
	return n
}

// LinkAt is a link of a line an answer shows, with where the answer shows
// it (At: the caller's own index, e.g. of its passage).
type LinkAt struct {
	At   int
	Link OptionLink
}

// LinkedDefaultFound is the labelled default FirstLinkedDefault found: At
// is the link's LinkAt.At, Path the linked doc, Line its line (1-based) in
// Lines, the doc's lines.
type LinkedDefaultFound struct {
	At    int
	Path  string
	Line  int
	Lines []string
}

// FirstLinkedDefault is the labelled default (LinkedDefault) of the first
// setting links names, the ones whose names hold most of the question's
// words first (NameAsked: a migration note links `api` above the
// screenshot page's `browser.screenshotDirectory`), then in the order
// shown. A doc shown already (shown) is passed over, each doc and anchor
// is read once, and a link's later paths are tried only when its earlier
// ones are not in the library (read false): the first doc found decides.
// ok is false when the question does not ask for a setting (AsksSetting)
// or no linked doc states a default where its link points.
func (q Question) FirstLinkedDefault(links []LinkAt, shown func(path string) bool, read func(path string) (domain.Structure, []string, bool)) (LinkedDefaultFound, bool) {
	if !q.AsksSetting() {
		return LinkedDefaultFound{}, false
	}
	links = slices.Clone(links)
	slices.SortStableFunc(links, func(a, b LinkAt) int { return q.NameAsked(b.Link.Name) - q.NameAsked(a.Link.Name) })
	tried := map[string]bool{}
	for _, la := range links {
		for _, p := range la.Link.Paths {
			key := p + "#" + la.Link.Anchor
			if shown(p) || tried[key] {
				continue
			}
			tried[key] = true
			st, lines, ok := read(p)
			if !ok {
				continue
			}
			if k := LinkedDefault(st, lines, la.Link.Anchor); k > 0 {
				return LinkedDefaultFound{At: la.At, Path: p, Line: k, Lines: lines}, true
			}
			break // the link's doc, with no default where it points
		}
	}
	return LinkedDefaultFound{}, false
}
