package goldmarkmarkdown

import (
	"strconv"

	"github.com/librarian/librarian/domain"
)

// The ids of the special sections (seed 000). No heading gets either id: a
// heading whose slug is "_intro" or "_preamble" is deduplicated against them.
const (
	preambleID = "_preamble"
	introID    = "_intro"
)

// heading is a top-level heading as the section rules need it.
type heading struct {
	level int    // 1..6
	line  int    // its first line: the '#' line, or a setext heading's first text line
	text  string // plain text, see headingText
	// raw is the heading's source text (its last line), where an explicit
	// anchor must be too: `{#if}` in a code span is text, not an anchor.
	raw string
}

// outline is what the section rules need besides the headings.
type outline struct {
	lines       int  // lines in the file
	bodyStart   int  // first line after frontmatter
	preambleSet bool // a non-blank line lies between bodyStart and the first heading
}

// buildSections applies seed 000's section rules to the top-level headings
// of a document, in order.
func buildSections(headings []heading, o outline) []domain.Section {
	sections := make([]domain.Section, 0, len(headings)+1)
	if o.preambleSet {
		end := o.lines
		if len(headings) > 0 {
			end = headings[0].line - 1
		}
		sections = append(sections, domain.Section{
			ID: preambleID, Slug: preambleID, Level: 0,
			Start: o.bodyStart, End: end, Parent: -1, Depth: 1,
		})
	}
	if hasTitle(headings) {
		title := headings[0]
		end := o.lines
		if len(headings) > 1 {
			end = headings[1].line - 1
		}
		text, _ := explicitAnchor(title.text, title.raw)
		sections = append(sections, domain.Section{
			ID: introID, Slug: introID, Heading: text, Level: 1,
			Start: title.line, End: end, Parent: -1, Depth: 1,
		})
		headings = headings[1:]
	}

	slugs := newSiblingSlugs()
	// open holds the indexes of the sections whose end is not yet known,
	// by strictly increasing level: the chain of ancestors of the next heading.
	open := make([]int, 0, 6)
	for _, h := range headings {
		for len(open) > 0 && sections[open[len(open)-1]].Level >= h.level {
			sections[open[len(open)-1]].End = h.line - 1
			open = open[:len(open)-1]
		}
		parent, depth, prefix := -1, 1, ""
		if len(open) > 0 {
			parent = open[len(open)-1]
			depth = sections[parent].Depth + 1
			prefix = sections[parent].ID + "/"
		}
		text, anchor := explicitAnchor(h.text, h.raw)
		if anchor == "" {
			anchor = text
		}
		slug := slugs.claim(parent, slugify(anchor))
		open = append(open, len(sections))
		sections = append(sections, domain.Section{
			ID: prefix + slug, Slug: slug, Heading: text, Level: h.level,
			Start: h.line, End: o.lines, Parent: parent, Depth: depth,
		})
	}
	if len(sections) == 0 {
		return nil
	}
	return sections
}

// hasTitle reports the title rule: the first heading is level 1 and no
// other heading is.
func hasTitle(headings []heading) bool {
	if len(headings) == 0 || headings[0].level != 1 {
		return false
	}
	for _, h := range headings[1:] {
		if h.level == 1 {
			return false
		}
	}
	return true
}

// siblingSlugs deduplicates slugs among the children of one parent the way
// GitHub (github-slugger) does: the first "setup" stays "setup", later ones
// become "setup-1", "setup-2", skipping any suffixed slug already taken.
type siblingSlugs struct {
	seen map[siblingSlug]int // slug taken under a parent -> how many repeats it has had
}

type siblingSlug struct {
	parent int
	slug   string
}

func newSiblingSlugs() siblingSlugs {
	s := siblingSlugs{seen: make(map[siblingSlug]int)}
	s.seen[siblingSlug{-1, preambleID}] = 0
	s.seen[siblingSlug{-1, introID}] = 0
	return s
}

func (s siblingSlugs) claim(parent int, slug string) string {
	original := siblingSlug{parent, slug}
	result := slug
	for {
		if _, taken := s.seen[siblingSlug{parent, result}]; !taken {
			break
		}
		s.seen[original]++
		result = slug + "-" + strconv.Itoa(s.seen[original])
	}
	s.seen[siblingSlug{parent, result}] = 0
	return result
}
