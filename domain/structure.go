package domain

import (
	"sort"
	"strings"
)

// Section is a part of a document that starts at a heading (or, for the
// special sections, at the start of the file or of the title) and runs to
// the line before the next heading of the same or a higher level.
//
// ID is the full id: the heading slugs of its ancestors and itself joined by
// '/', e.g. "refresh-tokens/rotation". Special sections are "_preamble" (text
// before the first heading) and "_intro" (a title heading and the text under
// it, when the first heading is the doc's only level-1 heading).
type Section struct {
	ID      string
	Slug    string // the last element of ID
	Heading string // the heading's plain text ("" for _preamble)
	Level   int    // 1..6; 0 for _preamble
	Start   int    // first line, 1-based, inclusive (the heading line)
	End     int    // last line, inclusive
	Parent  int    // index of the parent in Structure.Sections, -1 for top level
	Depth   int    // 1 for top-level sections, 2 for their children, ...
}

// SlugOf is the last element of a full section id, the section's own slug:
// "refresh-tokens/rotation" is "rotation".
func SlugOf(id string) string { return id[strings.LastIndexByte(id, '/')+1:] }

// CodeBlock is a fenced code block. Start and End are the lines of its
// opening and closing fences; an unclosed fence has Closed false and runs to
// the end of its container (usually the end of the file).
type CodeBlock struct {
	Info   string // the info string after the opening fence, trimmed
	Fence  string // the opening fence's marker run, e.g. "```" or "~~~~"
	Indent string // the whitespace before the opening fence
	Start  int
	End    int
	Closed bool
}

// ContentLines is the number of lines between the fences.
func (c CodeBlock) ContentLines() int {
	n := c.End - c.Start - 1
	if !c.Closed {
		n = c.End - c.Start
	}
	if n < 0 {
		return 0
	}
	return n
}

// ImageStub is an image reference found in a document's text (not inside
// code): an `![[image:ID]]` stub of the image index (ID set), or a standard
// image (ID ""): `![alt](src "title")`, a reference-style `![alt][ref]`, or
// an HTML `<img src=…>`. Line is the line its markup starts on.
type ImageStub struct {
	ID   string
	Line int
	// Src is a standard image's destination as CommonMark reads it (its
	// backslash escapes and character references resolved, an HTML
	// attribute's entities decoded; percent-encoding kept): ResolveImage
	// says where it points. Alt is its alt text as plain text, Title its
	// title. A stub of the image index has none of them.
	Src   string `json:",omitempty"`
	Alt   string `json:",omitempty"`
	Title string `json:",omitempty"`
}

// Standard reports whether the reference is a standard image rather than
// a stub of the image index.
func (s ImageStub) Standard() bool { return s.ID == "" }

// Caption is what placeholders show of a standard image: its alt text,
// else its title.
func (s ImageStub) Caption() string {
	if s.Alt != "" {
		return s.Alt
	}
	return s.Title
}

// Structure is what a markdown parser finds in one file. Line numbers are the
// file's own 1-based lines, split on '\n' only.
type Structure struct {
	// Lines is the number of lines of the file (a trailing '\n' does not
	// start another line).
	Lines int
	// FrontmatterEnd is the line of the closing '---' of a leading YAML
	// frontmatter block, 0 when there is none. Body text starts after it.
	FrontmatterEnd int
	// Sections in document order (a parent before its children).
	Sections   []Section
	CodeBlocks []CodeBlock
	Images     []ImageStub
	// Simplified says why the structure comes from a plain heading scan
	// rather than a full parse (a document too costly to parse in full),
	// "" when it does not: the listing notes it.
	Simplified string
	// Version is the StructureVersion the parser wrote it with. A section
	// index keeps parses across restarts, keyed by the file's stamp alone;
	// a parse of an older version lacks what parsers find now, so the
	// library parses the file again instead of using it.
	Version int `json:",omitempty"`
}

// StructureVersion is the version of what a parse holds, raised whenever
// parsers start finding something older parses do not have:
// 1: standard markdown images (ImageStub.Src), besides `![[image:ID]]` stubs;
// 2: a heading's explicit anchor (`## Options {#opts}`) is its slug, and
// no words of its heading.
const StructureVersion = 2

// Current reports whether s was parsed at the current StructureVersion.
func (s Structure) Current() bool { return s.Version == StructureVersion }

// OwnEnd returns the last line of section i's own lines: those before its
// first subsection (or its end, when it has none). What a section says
// itself, not through its subsections, is lines Start..OwnEnd.
func (s Structure) OwnEnd(i int) int {
	end := s.Sections[i].End
	if i+1 < len(s.Sections) && s.Sections[i+1].Start-1 < end {
		end = s.Sections[i+1].Start - 1
	}
	return end
}

// Opening returns a doc's opening: the text before its first heading
// (_preamble) or under its title (_intro), less the title's line and the
// frontmatter, as lines from..to of section i (the first); ok is false
// when the doc has none, or no line of it. A doc's first lines state what
// holds for the whole doc (a feature removed, a command that fails in CI).
func (s Structure) Opening() (i, from, to int, ok bool) {
	if len(s.Sections) == 0 || s.Sections[0].Level > 1 {
		return 0, 0, 0, false
	}
	open := s.Sections[0]
	from, to = open.Start, s.OwnEnd(0)
	if open.Level == 1 {
		from++ // the title's own line
	}
	from = max(from, s.FrontmatterEnd+1)
	return 0, from, to, from <= to
}

// InnermostSection returns the index of the deepest of secs (a
// Structure's Sections) holding line, -1 when none does. Sections come in
// document order, a parent before its children, so the innermost is found
// from the last section starting at or before the line, climbing parents
// until one reaches down to it.
func InnermostSection(secs []Section, line int) int {
	i := sort.Search(len(secs), func(i int) bool { return secs[i].Start > line }) - 1
	for i >= 0 {
		if secs[i].End >= line && secs[i].Start <= line {
			return i
		}
		if secs[i].Parent < 0 || secs[i].Parent >= i {
			// A top-level section that ends before the line: an earlier
			// one cannot reach further.
			return -1
		}
		i = secs[i].Parent
	}
	return -1
}
