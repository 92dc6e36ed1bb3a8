package textmatch

import (
	"bytes"
	"context"
)

// Hit is one matching line: its 1-based number and where, in the line's
// bytes, the first match starts and ends.
type Hit struct {
	Line       int
	Start, End int
}

// Scan finds the hit lines of content after line after (a doc's
// frontmatter, say; 0 scans it all) and returns how many it found,
// stopping after limit hits when limit >= 0. When out is not nil the hits
// are appended to it, in line order, one per line. v is content's Text. It
// stops early, with the hits found so far, when ctx is done: the caller
// tells a text scanned whole by ctx.Err() being nil after it. Safe for
// concurrent use: a Matcher is read-only once compiled.
func (m *Matcher) Scan(ctx context.Context, content []byte, v *Text, after, limit int, out *[]Hit) int {
	fm := after
	if limit == 0 || fm >= len(v.starts) {
		return 0
	}
	s := scanState{ctx: ctx, content: content, v: v, pos: v.starts[fm], from: fm, limit: limit, out: out}
	switch {
	case m.lits != nil && m.literalsUsable(v, content):
		m.scanLiterals(&s)
	case m.multi != nil && m.multi.usable(v, content):
		m.scanMulti(&s)
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
	ctx     context.Context
	ticks   int
	content []byte
	v       *Text
	pos     int // the next byte to look at: always a line start
	from    int // the line before pos (hits lie after it)
	n       int
	limit   int
	out     *[]Hit
}

// stopped reports, every 16th call (a call per hit, candidate line or
// regex window: checking ctx costs more than one), whether the scan must
// stop because ctx is done.
func (s *scanState) stopped() bool {
	s.ticks++
	return s.ticks%16 == 0 && s.ctx.Err() != nil
}

// found records a hit and reports whether the limit is reached.
func (s *scanState) found(line, start, end int) bool {
	s.n++
	if s.out != nil {
		*s.out = append(*s.out, Hit{Line: line, Start: start, End: end})
	}
	return s.limit >= 0 && s.n >= s.limit
}

// literalsUsable reports whether the lowered copy can stand in for
// folding in this doc: U+212A and U+017F fold to k and s but are not
// lowered in the copy, so a doc holding one needs the regex for a folded
// Literal with k or s.
func (m *Matcher) literalsUsable(v *Text, content []byte) bool {
	for _, l := range m.lits {
		if l.Fold {
			v.lowered(content)
			if l.KS && v.special {
				return false
			}
		}
	}
	return true
}

func (m *Matcher) scanLiterals(s *scanState) {
	content, v := s.content, s.v
	// next[i] is where lits[i] next occurs at or after pos, -1 when it no
	// longer does.
	var nextBuf [maxLiterals]int
	next := nextBuf[:len(m.lits)]
	for i := range next {
		next[i] = -2 // not looked for yet
	}
	for s.pos < len(content) && !s.stopped() {
		off, width := -1, 0
		for i, l := range m.lits {
			if next[i] == -1 {
				continue
			}
			if next[i] < s.pos {
				hay := content
				if l.Fold {
					hay = v.lower
				}
				if j := bytes.Index(hay[s.pos:], l.Text); j >= 0 {
					next[i] = s.pos + j
				} else {
					next[i] = -1
					continue
				}
			}
			if off < 0 || next[i] < off {
				off, width = next[i], len(l.Text)
			}
		}
		if off < 0 {
			return
		}
		line := v.lineOf(off, s.from)
		ls, le := v.Bounds(line, content)
		s.pos, s.from = le+1, line
		if m.litExact {
			if off+width > le {
				// The Literal runs past the line's end: a line break is in
				// it, which no line holds. Look again from the next line.
				continue
			}
			if s.found(line, off-ls, off-ls+width) {
				return
			}
			continue
		}
		if loc := m.lineFind(s.ctx, content[ls:le]); loc != nil {
			if s.found(line, loc[0], loc[1]) {
				return
			}
		}
	}
}

// lineFind is the truth for one line: the query's first match in it, or
// nil. A case-insensitive string is matched by IndexFold, never by a
// regexp (the same Unicode simple folding, without compiling or running
// one); anything else by lineRe.
func (m *Matcher) lineFind(ctx context.Context, line []byte) []int {
	if m.foldLit != "" {
		if start, end := IndexFold(line, m.foldLit); start >= 0 {
			return []int{start, end}
		}
		return nil
	}
	return FindIndex(ctx, m.lineRe, line)
}

func (m *Matcher) scanBytes(s *scanState) {
	content, v := s.content, s.v
	for s.pos < len(content) && !s.stopped() {
		i := m.anyByte.index(content[s.pos:])
		if i < 0 {
			return
		}
		line := v.lineOf(s.pos+i, s.from)
		ls, le := v.Bounds(line, content)
		s.pos, s.from = le+1, line
		if loc := m.lineFind(s.ctx, content[ls:le]); loc != nil {
			if s.found(line, loc[0], loc[1]) {
				return
			}
		}
	}
}

func (m *Matcher) scanRegex(s *scanState) {
	content, v := s.content, s.v
	for s.pos < len(content) && !s.stopped() {
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
		loc := FindIndex(s.ctx, m.scanRe, content[s.pos:end])
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
		ls, le := v.Bounds(line, content)
		s.pos, s.from = le+1, line
		if stop <= le {
			if s.found(line, start-ls, stop-ls) {
				return
			}
			continue
		}
		// The match crosses a line break: the line alone decides.
		if loc := m.lineFind(s.ctx, content[ls:le]); loc != nil {
			if s.found(line, loc[0], loc[1]) {
				return
			}
		}
	}
}

// regexWindow is about how many bytes of whole lines a regex scan reads per
// call (see scanRegex).
var regexWindow = 512

func (m *Matcher) scanLines(s *scanState) {
	for line := s.from + 1; line <= len(s.v.starts) && !s.stopped(); line++ {
		ls, le := s.v.Bounds(line, s.content)
		if loc := m.lineFind(s.ctx, s.content[ls:le]); loc != nil {
			if s.found(line, loc[0], loc[1]) {
				return
			}
		}
	}
}

// scanMulti is scanLiterals for a set found by the multi-Literal Matcher:
// the nearest occurrence of any Literal, in the content or its lowered
// copy, then the next line.
func (m *Matcher) scanMulti(s *scanState) {
	content, v, ml := s.content, s.v, m.multi
	// Where each automaton next finds a Literal at or after pos: -2 not
	// looked for yet, -1 none left.
	next := [2]int{-2, -2}
	width := [2]int{}
	for s.pos < len(content) && !s.stopped() {
		off, w := -1, 0
		for i, a := range [2]*automaton{ml.plain, ml.folded} {
			if a == nil || next[i] == -1 {
				continue
			}
			if next[i] < s.pos {
				hay := content
				if i == 1 {
					hay = v.lower
				}
				next[i], width[i] = a.find(hay, s.pos)
				if next[i] < 0 {
					next[i] = -1
					continue
				}
			}
			if off < 0 || next[i] < off {
				off, w = next[i], width[i]
			}
		}
		if off < 0 {
			return
		}
		line := v.lineOf(off, s.from)
		ls, le := v.Bounds(line, content)
		s.pos, s.from = le+1, line
		if ml.exact {
			if s.found(line, off-ls, off-ls+w) {
				return
			}
			continue
		}
		if loc := m.lineFind(s.ctx, content[ls:le]); loc != nil {
			if s.found(line, loc[0], loc[1]) {
				return
			}
		}
	}
}
