package app

import (
	"bytes"

	"github.com/librarian/librarian/domain"
)

// scan finds the hit lines of one doc's body (the lines after its
// frontmatter) and returns how many it found, stopping after limit hits
// when limit >= 0. When out is not nil the hits are appended to it.
func (m *matcher) scan(p *parsedDoc, v *searchView, limit int, out *[]hit) int {
	content := p.content
	fm := p.structure.FrontmatterEnd
	if limit == 0 || fm >= len(v.starts) {
		return 0
	}
	s := scanState{content: content, v: v, pos: v.starts[fm], from: fm, limit: limit, out: out}
	switch {
	case m.lits != nil && m.literalsUsable(v, content):
		m.scanLiterals(&s)
	case m.foldLit != "":
		m.scanLines(&s)
	case m.anyByte != nil:
		m.scanBytes(&s)
	case m.scanRe != nil:
		m.scanRegex(&s)
	default:
		m.scanLines(&s)
	}
	return s.n
}

// scanState is one doc's scan: where it is, and what it found.
type scanState struct {
	content []byte
	v       *searchView
	pos     int // the next byte to look at: always a line start
	from    int // the line before pos (hits lie after it)
	n       int
	limit   int
	out     *[]hit
}

// found records a hit and reports whether the limit is reached.
func (s *scanState) found(line, start, end int) bool {
	s.n++
	if s.out != nil {
		*s.out = append(*s.out, hit{line: line, start: start, end: end})
	}
	return s.limit >= 0 && s.n >= s.limit
}

// literalsUsable reports whether the lowered copy can stand in for
// folding in this doc: U+212A and U+017F fold to k and s but are not
// lowered in the copy, so a doc holding one needs the regex for a folded
// literal with k or s.
func (m *matcher) literalsUsable(v *searchView, content []byte) bool {
	for _, l := range m.lits {
		if l.fold {
			v.lowered(content)
			if l.ks && v.special {
				return false
			}
		}
	}
	return true
}

func (m *matcher) scanLiterals(s *scanState) {
	content, v := s.content, s.v
	// next[i] is where lits[i] next occurs at or after pos, -1 when it no
	// longer does.
	var nextBuf [maxLiterals]int
	next := nextBuf[:len(m.lits)]
	for i := range next {
		next[i] = -2 // not looked for yet
	}
	for s.pos < len(content) {
		off, width := -1, 0
		for i, l := range m.lits {
			if next[i] == -1 {
				continue
			}
			if next[i] < s.pos {
				hay := content
				if l.fold {
					hay = v.lower
				}
				if j := bytes.Index(hay[s.pos:], l.text); j >= 0 {
					next[i] = s.pos + j
				} else {
					next[i] = -1
					continue
				}
			}
			if off < 0 || next[i] < off {
				off, width = next[i], len(l.text)
			}
		}
		if off < 0 {
			return
		}
		line := v.lineOf(off, s.from)
		ls, le := v.bounds(line, content)
		s.pos, s.from = le+1, line
		if m.litExact {
			if off+width > le {
				// The literal runs past the line's end: a line break is in
				// it, which no line holds. Look again from the next line.
				continue
			}
			if s.found(line, off-ls, off-ls+width) {
				return
			}
			continue
		}
		if loc := m.lineFind(content[ls:le]); loc != nil {
			if s.found(line, loc[0], loc[1]) {
				return
			}
		}
	}
}

// lineFind is the truth for one line: the query's first match in it, or
// nil. A case-insensitive string is matched by domain.IndexFold, never by a
// regexp (the same Unicode simple folding, without compiling or running
// one); anything else by lineRe.
func (m *matcher) lineFind(line []byte) []int {
	if m.foldLit != "" {
		if start, end := domain.IndexFold(line, m.foldLit); start >= 0 {
			return []int{start, end}
		}
		return nil
	}
	return m.lineRe.FindIndex(line)
}

func (m *matcher) scanBytes(s *scanState) {
	content, v := s.content, s.v
	for s.pos < len(content) {
		i := m.anyByte.index(content[s.pos:])
		if i < 0 {
			return
		}
		line := v.lineOf(s.pos+i, s.from)
		ls, le := v.bounds(line, content)
		s.pos, s.from = le+1, line
		if loc := m.lineRe.FindIndex(content[ls:le]); loc != nil {
			if s.found(line, loc[0], loc[1]) {
				return
			}
		}
	}
}

func (m *matcher) scanRegex(s *scanState) {
	content, v := s.content, s.v
	for s.pos < len(content) {
		// Match within a window of whole lines: a match inside one line is
		// the same in the window as in the whole content, and Go's regexp
		// costs time in proportion to its input on each call (the
		// backtracker clears a bitmap that size), so a call after each hit
		// over all the rest of a long doc would make many hits quadratic.
		end := len(content)
		if s.pos+regexWindow < end {
			if i := bytes.IndexByte(content[s.pos+regexWindow:], '\n'); i >= 0 {
				end = s.pos + regexWindow + i
			}
		}
		loc := m.scanRe.FindIndex(content[s.pos:end])
		if loc == nil {
			if end == len(content) {
				return
			}
			s.from = v.lineOf(end, s.from)
			s.pos = end + 1
			continue
		}
		start, stop := s.pos+loc[0], s.pos+loc[1]
		if start == len(content) && content[start-1] == '\n' {
			return // an empty match after the final '\n': no line is there
		}
		line := v.lineOf(start, s.from)
		ls, le := v.bounds(line, content)
		s.pos, s.from = le+1, line
		if stop <= le {
			if s.found(line, start-ls, stop-ls) {
				return
			}
			continue
		}
		// The match crosses a line break: the line alone decides.
		if loc := m.lineRe.FindIndex(content[ls:le]); loc != nil {
			if s.found(line, loc[0], loc[1]) {
				return
			}
		}
	}
}

// regexWindow is about how many bytes of whole lines a regex scan reads per
// call (see scanRegex).
var regexWindow = 512

func (m *matcher) scanLines(s *scanState) {
	for line := s.from + 1; line <= len(s.v.starts); line++ {
		ls, le := s.v.bounds(line, s.content)
		if loc := m.lineFind(s.content[ls:le]); loc != nil {
			if s.found(line, loc[0], loc[1]) {
				return
			}
		}
	}
}
