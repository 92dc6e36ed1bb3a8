package goldmarkmarkdown

import "bytes"

// goldmark's work is linear for ordinary documents but not for three shapes
// an attacker (or a generator gone wrong) can write: list items nested by
// indentation, where each line costs about (open items) × (its indent), so
// 3,000 levels take half a minute and most of a gigabyte; inline parsing
// of a block of many lines holding many '[' (its link parser re-reads the
// block's lines at each bracket), so 200,000 lines of image stubs under a
// setext underline or beside a code span take minutes; and a long line of
// many "](" whose destinations never end (each is read to the end of the
// line: 200 KB of "![a](" take 20 s). Short of those, a block's '[' and '<'
// still cost about a microsecond each. costly estimates them in one linear
// pass, before goldmark runs, in units of about 10 ns of goldmark's time on
// one core; a document over a limit is read by the plain heading scan
// instead (scan.go).
const (
	// maxNestingWork bounds Σ over lines of (list items open) × (indent + 1):
	// ~0.4 s of goldmark. A 100,000-line document nested four deep with
	// eight-column indents costs 4M.
	maxNestingWork = 40_000_000
	// maxInlineWork bounds, for each run of consecutive non-blank lines that
	// goldmark parses inline, its lines × its '[' count plus the work of its
	// link destinations (destinationWork): ~0.1 s. Runs whose
	// paragraphs are never inline-parsed (no backtick, no setext underline,
	// no standard image: see plainParagraphs) cost nothing.
	maxInlineWork = 100_000_000
)

// costly says why a document is too costly for goldmark, "" when it is not.
func costly(src []byte) string {
	var (
		nesting   int64
		stack     []int // content columns of the list items open, ascending
		fence     fenceOpening
		inFence   bool
		run       inlineRun
		headings  int64 // destinationWork of lines that may be ATX headings
		lineStart int
	)
	endRun := func() { run = inlineRun{} }
	for lineStart < len(src) {
		end := bytes.IndexByte(src[lineStart:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += lineStart
		}
		line := src[lineStart:end]
		lineStart = end + 1

		if inFence {
			if fence.closedBy(line) {
				inFence = false
			}
			continue
		}
		if f, ok := openingFence(line); ok {
			endRun()
			fence, inFence = f, true
			continue
		}
		indent, rest := columns(line)
		if len(bytes.TrimSpace(rest)) == 0 {
			endRun()
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1] > indent {
			stack = stack[:len(stack)-1]
		}
		// A line may open several items ("- - - x"); each nests in the last.
		col := indent
		for {
			width, ok := listMarker(rest)
			if !ok {
				break
			}
			col += width
			stack = append(stack, col)
			rest = rest[width:]
		}
		nesting += int64(len(stack)) * int64(indent+1)
		if nesting > maxNestingWork {
			return "list items nested too deep"
		}
		if len(rest) > 0 && rest[0] == '#' {
			// Maybe an ATX heading, which goldmark always parses inline.
			headings += destinationWork(line)
			if headings > maxInlineWork {
				return tooManyDestinations
			}
		}
		run.add(line)
		if reason := run.over(); reason != "" {
			return reason
		}
	}
	return ""
}

// inlineRun is a run of consecutive non-blank lines outside fences: a
// paragraph, or several that goldmark may parse inline one by one.
type inlineRun struct {
	lines, brackets int64
	angles          int64 // '<', each a raw HTML tag goldmark tries to read
	// dests is the work of the run's link destinations (destinationWork).
	dests  int64
	inline bool // a backtick, a setext underline or a standard image: inline-parsed
}

func (r *inlineRun) add(line []byte) {
	r.lines++
	r.brackets += int64(bytes.Count(line, []byte{'['}))
	r.angles += int64(bytes.Count(line, []byte{'<'}))
	r.dests += destinationWork(line)
	if !r.inline && (bytes.IndexByte(line, '`') >= 0 || r.lines > 1 && mayBeSetextUnderline(line) || mayHoldImage(line)) {
		r.inline = true
	}
}

// over says why the run is too costly for goldmark, "" when it is not.
func (r inlineRun) over() string {
	switch {
	case !r.inline:
		return ""
	case r.lines*r.brackets > maxInlineWork:
		return tooManyBrackets
	case r.dests > maxInlineWork:
		return tooManyDestinations
	case bracketWork*r.brackets+angleWork*r.angles > maxInlineWork:
		return tooManyDelimiters
	}
	return ""
}

// bracketWork and angleWork are what goldmark's inline parser spends on
// each '[' and '<' of a block, whatever its lines: about 1-2 µs and 5-7 µs
// (one line of 400,000 stubs and a backtick took 1.8 s, 3.6 MB of
// "<img src=" 2.8 s).
const (
	bracketWork = 250
	angleWork   = 700
)

const (
	tooManyBrackets     = "a block of too many lines holding too many '['"
	tooManyDestinations = "lines of too many links or images"
	tooManyDelimiters   = "a block of too many '[' or '<'"
)

// destinationWork is what reading the link destinations of one
// inline-parsed line costs goldmark: it reads each "](" destination to the
// first space or unbalanced ')', which may be the end of the line, so a
// line of n "[a](" costs n × its length (100 KB of them: 7 s). Its
// estimate: the line's "](" × its length.
func destinationWork(line []byte) int64 {
	n := bytes.Count(line, []byte("]("))
	if n == 0 {
		return 0
	}
	return int64(n) * int64(len(line))
}

// columns returns the width of line's leading spaces and tabs (a tab to the
// next multiple of 4) and the rest of the line.
func columns(line []byte) (int, []byte) {
	col := 0
	for i, c := range line {
		switch c {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return col, line[i:]
		}
	}
	return col, nil
}

// listMarker returns the width of a list item marker at the start of s
// ("-", "*", "+" or up to nine digits and "." or ")"), with the spaces after
// it, and whether there is one.
func listMarker(s []byte) (int, bool) {
	i := 0
	switch {
	case len(s) > 0 && (s[0] == '-' || s[0] == '*' || s[0] == '+'):
		i = 1
	default:
		for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i >= len(s) || (s[i] != '.' && s[i] != ')') {
			return 0, false
		}
		i++
	}
	if i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' {
		return 0, false
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i, true
}

// fenceOpening is an opening code fence: its character and length.
type fenceOpening struct {
	char byte
	n    int
}

// openingFence reads a fence opening line: up to three columns of indent,
// then three or more '`' (with no '`' after them) or '~'.
func openingFence(line []byte) (fenceOpening, bool) {
	indent, rest := columns(line)
	if indent > 3 || len(rest) < 3 || (rest[0] != '`' && rest[0] != '~') {
		return fenceOpening{}, false
	}
	n := 0
	for n < len(rest) && rest[n] == rest[0] {
		n++
	}
	if n < 3 || rest[0] == '`' && bytes.IndexByte(rest[n:], '`') >= 0 {
		return fenceOpening{}, false
	}
	return fenceOpening{char: rest[0], n: n}, true
}

// closedBy reports whether line closes the fence: up to three columns of
// indent, at least as many of its character, then only blanks.
func (f fenceOpening) closedBy(line []byte) bool {
	indent, rest := columns(line)
	if indent > 3 {
		return false
	}
	n := 0
	for n < len(rest) && rest[n] == f.char {
		n++
	}
	return n >= f.n && len(bytes.Trim(rest[n:], " \t\r")) == 0
}
