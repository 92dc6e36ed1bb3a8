package markdowntest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/librarian/librarian/domain"
)

// Check returns an error listing every invariant that s, the structure a
// parser gave for src, breaks; nil when it holds them all. The invariants
// hold for any input, so a fuzz test can check them:
//   - Lines counts src's lines (split on '\n'; a final '\n' starts no line),
//     and 0 <= FrontmatterEnd <= Lines;
//   - every section and code block has FrontmatterEnd < Start <= End <= Lines,
//     and every image stub a Line in that range;
//   - sections are in document order (strictly increasing Start); a section
//     lies inside its parent, which comes before it, with a lower level; its
//     Depth and ID follow from the parent's; ids are unique and slugs
//     non-empty without '/'; a section ends before the next one that is not
//     its descendant starts; only _preamble has Level 0;
//   - code blocks are in order and do not overlap, with a fence of at least
//     three '`' or '~' and an indent of spaces and tabs only;
//   - image references are in order, never on a line of a code block; a
//     stub of the image index has a non-empty id and no src, alt or title.
func Check(src []byte, s domain.Structure) error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	lines := bytes.Count(src, []byte{'\n'})
	if len(src) > 0 && src[len(src)-1] != '\n' {
		lines++
	}
	if s.Lines != lines {
		fail("Lines = %d, but the input has %d lines", s.Lines, lines)
	}
	if s.FrontmatterEnd < 0 || s.FrontmatterEnd > s.Lines {
		fail("FrontmatterEnd = %d, outside 0..%d", s.FrontmatterEnd, s.Lines)
	}
	inBody := func(start, end int) bool {
		return s.FrontmatterEnd < start && start <= end && end <= s.Lines
	}

	ids := make(map[string]int, len(s.Sections))
	for i, sec := range s.Sections {
		where := fmt.Sprintf("Sections[%d] (%q L%d-%d)", i, sec.ID, sec.Start, sec.End)
		if !inBody(sec.Start, sec.End) {
			fail("%s: range outside the body %d..%d", where, s.FrontmatterEnd+1, s.Lines)
		}
		if j, dup := ids[sec.ID]; dup {
			fail("%s: id already used by Sections[%d]", where, j)
		}
		ids[sec.ID] = i
		if sec.Slug == "" || strings.Contains(sec.Slug, "/") {
			fail("%s: slug %q is empty or has a '/'", where, sec.Slug)
		}
		if (sec.Level == 0) != (sec.ID == "_preamble") || sec.Level < 0 || sec.Level > 6 {
			fail("%s: level %d", where, sec.Level)
		}
		if i > 0 && sec.Start <= s.Sections[i-1].Start {
			fail("%s: starts at or before Sections[%d]", where, i-1)
		}
		switch p := sec.Parent; {
		case p == -1:
			if sec.Depth != 1 || sec.ID != sec.Slug {
				fail("%s: top level, but depth %d, slug %q", where, sec.Depth, sec.Slug)
			}
		case p < 0 || p >= i:
			fail("%s: parent %d does not come before it", where, p)
			continue
		default:
			parent := s.Sections[p]
			if sec.Start <= parent.Start || sec.End > parent.End || sec.Level <= parent.Level {
				fail("%s: not inside its parent %q L%d-%d level %d", where, parent.ID, parent.Start, parent.End, parent.Level)
			}
			if sec.Depth != parent.Depth+1 || sec.ID != parent.ID+"/"+sec.Slug {
				fail("%s: depth %d, slug %q under parent %q of depth %d", where, sec.Depth, sec.Slug, parent.ID, parent.Depth)
			}
		}
		// Every earlier section that is not an ancestor ends before this one.
		ancestors := make(map[int]bool)
		for p := sec.Parent; p >= 0 && p < i && !ancestors[p]; p = s.Sections[p].Parent {
			ancestors[p] = true
		}
		for j := range i {
			if !ancestors[j] && s.Sections[j].End >= sec.Start {
				fail("%s: overlaps Sections[%d] (%q L%d-%d)", where, j, s.Sections[j].ID, s.Sections[j].Start, s.Sections[j].End)
			}
		}
	}

	for i, c := range s.CodeBlocks {
		where := fmt.Sprintf("CodeBlocks[%d] (L%d-%d)", i, c.Start, c.End)
		if !inBody(c.Start, c.End) {
			fail("%s: range outside the body %d..%d", where, s.FrontmatterEnd+1, s.Lines)
		}
		if i > 0 && c.Start <= s.CodeBlocks[i-1].End {
			fail("%s: starts before CodeBlocks[%d] ends", where, i-1)
		}
		if len(c.Fence) < 3 || strings.Trim(c.Fence, c.Fence[:1]) != "" || !strings.Contains("`~", c.Fence[:1]) {
			fail("%s: fence %q", where, c.Fence)
		}
		if strings.Trim(c.Indent, " \t") != "" {
			fail("%s: indent %q", where, c.Indent)
		}
		if c.Closed && c.End == c.Start {
			fail("%s: closed on its opening line", where)
		}
	}

	for i, im := range s.Images {
		where := fmt.Sprintf("Images[%d] (%q L%d)", i, im.ID, im.Line)
		if !inBody(im.Line, im.Line) {
			fail("%s: line outside the body %d..%d", where, s.FrontmatterEnd+1, s.Lines)
		}
		if i > 0 && im.Line < s.Images[i-1].Line {
			fail("%s: before Images[%d]", where, i-1)
		}
		switch {
		case im.Standard():
			// Any destination, even none ("![x]()"): check reports it.
		case strings.TrimSpace(im.ID) == "":
			fail("%s: empty id", where)
		case im.Src != "" || im.Alt != "" || im.Title != "":
			fail("%s: an image stub with a standard image's src, alt or title", where)
		}
		for _, c := range s.CodeBlocks {
			if c.Start <= im.Line && im.Line <= c.End {
				fail("%s: inside the code block L%d-%d", where, c.Start, c.End)
			}
		}
	}
	return errors.Join(errs...)
}
