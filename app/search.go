package app

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"regexp/syntax"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
	"weak"

	"github.com/librarian/librarian/domain"
)

// Search modes of search_documents.
const (
	SearchString = "string" // a plain string (the default)
	SearchRegex  = "regex"  // a Go RE2 regular expression
)

// DefaultMaxResults is search_documents' default cap on hit lines.
const DefaultMaxResults = 50

// maxHitRunes is how much of a long hit line is shown, around the match.
const maxHitRunes = 300

// SearchRequest is search_documents' arguments.
type SearchRequest struct {
	Scope
	// Query is a plain string, or a Go RE2 regex when Mode is SearchRegex.
	Query string
	// Mode is SearchString ("" means it too) or SearchRegex.
	Mode string
	// CaseSensitive turns off case folding (Unicode simple folding).
	CaseSensitive bool
	// MaxResults caps the hit lines shown; 0 shows all. The answer always
	// says how many hits it left out.
	MaxResults int
}

// SearchDocuments finds the lines of the docs in scope that hold the query,
// seed 001's search at line level. Each line is matched on its own (a
// regex's ^ and $ are the line's bounds, and no match spans lines), and
// frontmatter lines are never searched. The answer gives, per matching doc
// in path order, its id, path and tags, then each hit line as
//
//	L18 § refresh-tokens/rotation: ### Rotation
//
// with the full id of the innermost section holding it, ready for a
// get_documents selector. An empty query, an invalid regex or an unknown
// mode is a domain.ErrInvalidArgument that says what is wrong; no hit at
// all is a plain answer saying so.
func (l *Library) SearchDocuments(ctx context.Context, req SearchRequest) (string, error) {
	m, err := newMatcher(req)
	if err != nil {
		return "", err
	}
	if req.MaxResults < 0 {
		return "", fmt.Errorf("%w: 'max_results' must be 0 (no limit) or more, got %d", domain.ErrInvalidArgument, req.MaxResults)
	}
	cat, err := l.Catalog(ctx)
	if err != nil {
		return "", err
	}
	docs, _, err := domain.ScopeDocs(cat, req.Scope)
	if err != nil {
		return "", err
	}

	// Count every doc's hit lines in parallel; keep only the counts, so a
	// query matching most lines of a big library costs no memory per hit.
	parsed := make([]*parsedDoc, len(docs))
	views := make([]*searchView, len(docs))
	counts := make([]int, len(docs))
	vs := l.views()
	errs := make([]error, len(docs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := min(runtime.GOMAXPROCS(0), len(docs)); w > 0; w-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(docs) || ctx.Err() != nil {
					return
				}
				p, err := l.open(ctx, docs[i])
				if err != nil {
					errs[i] = err
					continue
				}
				parsed[i], views[i] = p, vs.get(p, docs[i].Path)
				counts[i] = m.scan(p, views[i], -1, nil)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return "", err
	}

	notes := append([]string(nil), cat.Notes...)
	total, hitDocs := 0, 0
	for i, d := range docs {
		if errs[i] != nil {
			notes = append(notes, openNote(d, errs[i]))
		}
		if counts[i] > 0 {
			total += counts[i]
			hitDocs++
		}
	}

	var b strings.Builder
	how := m.describe()
	switch {
	case total == 0 && len(docs) == 0:
		fmt.Fprintf(&b, "No hits for %s: no document is in scope (%s).\n", quoteQuery(req.Query), scopeWords(req.Scope))
	case total == 0:
		fmt.Fprintf(&b, "No hits for %s in %d %s (%s).\n", quoteQuery(req.Query), len(docs), domain.Plural(len(docs), "doc", "docs"), how)
	default:
		fmt.Fprintf(&b, "%d %s in %d of %d %s for %s (%s)\n", total, domain.Plural(total, "hit", "hits"),
			hitDocs, len(docs), domain.Plural(len(docs), "doc", "docs"), quoteQuery(req.Query), how)
	}

	// Render the first MaxResults hits, in path order, scanning those docs
	// again for their lines (cheap: only as many docs as the budget reaches).
	budget := req.MaxResults
	shown, shownDocs := 0, 0
	var hits []hit
	for i, d := range docs {
		if counts[i] == 0 {
			continue
		}
		if budget > 0 && shown >= budget {
			break
		}
		limit := counts[i]
		if budget > 0 {
			limit = min(limit, budget-shown)
		}
		hits = hits[:0]
		m.scan(parsed[i], views[i], limit, &hits)
		b.WriteString("\n")
		b.WriteString(d.ID)
		fmt.Fprintf(&b, " (%s)", d.Path)
		if len(d.Tags) > 0 {
			fmt.Fprintf(&b, " · tags: %s", strings.Join(d.Tags, ", "))
		}
		b.WriteString("\n")
		for _, h := range hits {
			writeHit(&b, parsed[i], views[i], h)
		}
		shown += len(hits)
		shownDocs++
		if len(hits) < counts[i] {
			// The cut fell inside this doc: it counts among the docs with
			// hits not shown.
			shownDocs--
		}
	}
	if left := total - shown; left > 0 {
		leftDocs := hitDocs - shownDocs
		fmt.Fprintf(&b, "\n… %d more %s in %d %s not shown (max_results=%d): narrow root, tags or the query, or raise max_results\n",
			left, domain.Plural(left, "hit", "hits"), leftDocs, domain.Plural(leftDocs, "doc", "docs"), budget)
	}
	domain.WriteNotes(&b, notes)
	return strings.TrimRight(b.String(), "\n"), nil
}

// scopeWords describes a scope's filters for an answer with no doc in it.
func scopeWords(s Scope) string {
	var parts []string
	if root, err := domain.CleanFolder(s.Root); err == nil && root != "" {
		parts = append(parts, "root "+root+"/")
	}
	if len(s.Tags) > 0 {
		parts = append(parts, "tags: "+strings.Join(s.Tags, ", "))
	}
	if s.Depth >= 0 {
		parts = append(parts, "depth "+strconv.Itoa(s.Depth))
	}
	if len(parts) == 0 {
		return "the library holds no documents"
	}
	return strings.Join(parts, "; ")
}

// quoteQuery shows the query in double quotes, escaped only when it holds
// a quote or a control character, so a regex reads as written.
func quoteQuery(q string) string {
	for _, r := range q {
		if r == '"' || r < ' ' || r == 0x7f {
			return strconv.Quote(q)
		}
	}
	return `"` + q + `"`
}

// hit is one matching line: its 1-based number and where, in the line's
// bytes, the first match starts and ends.
type hit struct {
	line       int
	start, end int
}

// writeHit renders one hit line: L<n> § <section id>: <the line>.
func writeHit(b *strings.Builder, p *parsedDoc, v *searchView, h hit) {
	fmt.Fprintf(b, "L%d", h.line)
	if sec := innermostSection(p.structure.Sections, h.line); sec != "" {
		b.WriteString(" § ")
		b.WriteString(sec)
	}
	b.WriteString(": ")
	b.WriteString(trimAround(v.line(p.content, h.line), h.start, h.end))
	b.WriteString("\n")
}

// innermostSection returns the full id of the deepest section holding line,
// "" when none does (blank lines after frontmatter, before any heading).
// Sections come in document order, a parent before its children, so the
// innermost is found from the last section starting at or before the line,
// climbing parents until one reaches down to it.
func innermostSection(secs []domain.Section, line int) string {
	i := sort.Search(len(secs), func(i int) bool { return secs[i].Start > line }) - 1
	for i >= 0 {
		if secs[i].End >= line && secs[i].Start <= line {
			return secs[i].ID
		}
		if secs[i].Parent < 0 || secs[i].Parent >= i {
			// A top-level section that ends before the line: an earlier
			// one cannot reach further.
			return ""
		}
		i = secs[i].Parent
	}
	return ""
}

// trimAround shortens a long line to about maxHitRunes runes around the
// match [start, end), marking each cut with '…'. A trailing '\r' (CRLF
// files) is dropped.
func trimAround(line []byte, start, end int) string {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if utf8.RuneCount(line) <= maxHitRunes {
		return string(line)
	}
	start = min(max(start, 0), len(line))
	end = min(max(end, start), len(line))
	// Up to a third of the window before the match, the rest after it.
	lo := start
	for n := 0; lo > 0 && n < maxHitRunes/3; n++ {
		_, size := utf8.DecodeLastRune(line[:lo])
		lo -= size
	}
	hi := lo
	for n := 0; hi < len(line) && n < maxHitRunes; n++ {
		_, size := utf8.DecodeRune(line[hi:])
		hi += size
	}
	if hi == len(line) {
		// The end of the line is in view: spend the window before the match.
		lo = hi
		for n := 0; lo > 0 && n < maxHitRunes; n++ {
			_, size := utf8.DecodeLastRune(line[:lo])
			lo -= size
		}
	}
	var b strings.Builder
	if lo > 0 {
		b.WriteString("…")
	}
	b.Write(line[lo:hi])
	if hi < len(line) {
		b.WriteString("…")
	}
	return b.String()
}

// ---------------------------------------------------------------------------
// Matching

// matcher is one compiled query. It is read-only once built, so the scan
// workers share it.
//
// Four ways to find hit lines, picked per doc:
//   - literals: bytes.Index of each of lits over the content (or over its
//     ASCII-lowered copy when folding), taking the nearest, and jumping to
//     the next line after each hit. When exact, a literal hit is a hit;
//     otherwise each line holding one is checked with lineRe (the lits are
//     then a prefilter: every match contains one of them).
//   - bytes: with no literal, a set of bytes every match holds one of
//     (digits for \d{4}); each line holding one is checked with lineRe.
//   - scan: one leftmost-first pass of scanRe, the query in (?m) mode, over
//     the whole content from each line start; a match that crosses a line
//     break is checked again on its first line alone with lineRe.
//   - per line: lineRe on each line (only for \A or \z, which scanRe would
//     read as the start or end of the whole text).
type matcher struct {
	mode     string
	caseSens bool

	lits     []literal // every match contains one; nil when no such set is known
	anyByte  *byteSet  // without lits: every match holds one of these bytes; nil: none known
	litExact bool      // a line holding the literal is a hit (string mode)

	lineRe *regexp.Regexp // the query on one line alone: the truth
	scanRe *regexp.Regexp // the query in (?m) mode over whole content; nil: per line
}

// literal is a string every match (or, in a set, some match) contains.
type literal struct {
	text []byte
	fold bool // text is ASCII-lowered and looked for in the lowered copy
	ks   bool // fold, and text holds k or s, which U+212A and U+017F also fold to
}

// maxLiterals bounds a prefilter set: past it, the regex scan is cheaper.
const maxLiterals = 8

func newMatcher(req SearchRequest) (*matcher, error) {
	mode := req.Mode
	if mode == "" {
		mode = SearchString
	}
	if mode != SearchString && mode != SearchRegex {
		return nil, fmt.Errorf("%w: 'mode' must be \"string\" or \"regex\", got %q", domain.ErrInvalidArgument, req.Mode)
	}
	if req.Query == "" {
		return nil, fmt.Errorf("%w: 'query' is empty: give a string or a regex to look for", domain.ErrInvalidArgument)
	}
	invalid := func(err error) error {
		return fmt.Errorf("%w: invalid regex %s: %v", domain.ErrInvalidArgument, quoteQuery(req.Query), err)
	}
	m := &matcher{mode: mode, caseSens: req.CaseSensitive}
	flags := ""
	if !req.CaseSensitive {
		flags = "(?i)"
	}
	var expr string
	switch mode {
	case SearchString:
		if strings.ContainsAny(req.Query, "\n") {
			return nil, fmt.Errorf("%w: 'query' %s holds a line break, but search matches within one line", domain.ErrInvalidArgument, quoteQuery(req.Query))
		}
		expr = regexp.QuoteMeta(req.Query)
		if lit, whole, ok := newLiteral([]rune(req.Query), !req.CaseSensitive); ok {
			// A part of the query is only a prefilter: lineRe decides.
			m.lits, m.litExact = []literal{lit}, whole
		}
	case SearchRegex:
		// Compile the query as given first, so an error quotes it as written.
		if _, err := regexp.Compile(req.Query); err != nil {
			return nil, invalid(err)
		}
		expr = req.Query
		tree, err := syntax.Parse(flags+expr, syntax.Perl)
		if err != nil {
			return nil, invalid(err)
		}
		m.lits = requiredLiterals(tree)
		if m.lits == nil {
			if set := requiredBytes(tree); set != nil {
				// A line holds no '\n': a match needing one can only
				// span lines, which no hit does.
				set['\n'] = false
				if set.count() <= maxByteSet {
					m.anyByte = set
				}
			}
		}
	}
	var err error
	if m.lineRe, err = regexp.Compile(flags + expr); err != nil {
		return nil, invalid(err)
	}
	if tree, err := syntax.Parse("(?m)"+flags+expr, syntax.Perl); err == nil && !hasTextAnchor(tree) {
		if m.scanRe, err = regexp.Compile("(?m)" + flags + expr); err != nil {
			return nil, invalid(err)
		}
	}
	return m, nil
}

// newLiteral makes a prefilter literal of runes, matched with folding when
// fold is set. The lowered copy only folds A-Z, so a folded literal with
// other letters keeps only its longest ASCII run (whole is then false):
// any line holding the literal holds that run. ok is false when nothing is
// left.
func newLiteral(runes []rune, fold bool) (lit literal, whole, ok bool) {
	whole = true
	if fold {
		best, start := runes[:0], 0
		for i := 0; i <= len(runes); i++ {
			if i == len(runes) || runes[i] >= utf8.RuneSelf {
				if i-start > len(best) {
					best = runes[start:i]
				}
				start = i + 1
			}
		}
		whole = len(best) == len(runes)
		runes = best
	}
	text := []byte(string(runes))
	if len(text) == 0 {
		return literal{}, false, false
	}
	if !fold {
		return literal{text: text}, whole, true
	}
	lower := lowerASCII(text)
	return literal{text: lower, fold: true, ks: bytes.ContainsAny(lower, "ks")}, whole, true
}

// describe says how the query was matched, for the answer's first line.
func (m *matcher) describe() string {
	if m.caseSens {
		return m.mode + ", case-sensitive"
	}
	return m.mode + ", case-insensitive"
}

// requiredLiterals finds a set of literals such that every match of re
// contains one of them, or nil. A literal is required by a concatenation
// holding it, through groups and repetitions of at least one; an
// alternation requires the union of its branches' sets. Of several
// candidate sets the one whose shortest literal is longest wins (fewer
// false candidates), then the smaller set.
func requiredLiterals(re *syntax.Regexp) []literal {
	switch re.Op {
	case syntax.OpLiteral:
		if lit, _, ok := newLiteral(re.Rune, re.Flags&syntax.FoldCase != 0); ok {
			return []literal{lit}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []literal
		for _, sub := range re.Sub {
			if set := requiredLiterals(sub); set != nil && betterLiterals(set, best) {
				best = set
			}
		}
		return best
	case syntax.OpAlternate:
		var union []literal
		for _, sub := range re.Sub {
			set := requiredLiterals(sub)
			if set == nil || len(union)+len(set) > maxLiterals {
				return nil
			}
			union = append(union, set...)
		}
		return union
	}
	return nil
}

func betterLiterals(a, b []literal) bool {
	if b == nil {
		return true
	}
	if sa, sb := shortest(a), shortest(b); sa != sb {
		return sa > sb
	}
	return len(a) < len(b)
}

func shortest(set []literal) int {
	n := -1
	for _, l := range set {
		if n < 0 || len(l.text) < n {
			n = len(l.text)
		}
	}
	return n
}

// byteSet is a set of bytes, as a prefilter for regexes with no literal.
type byteSet [256]bool

// maxByteSet: a larger set (letters, say) would pass nearly every line.
const maxByteSet = 16

func (b *byteSet) count() int {
	n := 0
	for _, in := range b {
		if in {
			n++
		}
	}
	return n
}

// index returns the offset of the first byte of s in the set, or -1.
func (b *byteSet) index(s []byte) int {
	for i, c := range s {
		if b[c] {
			return i
		}
	}
	return -1
}

// addRune adds the bytes that show rune r is on a line: its first byte
// when ASCII, else every byte from 0x80 (a non-ASCII rune's bytes, and an
// invalid byte, which the regexp package reads as U+FFFD, are all there).
func (b *byteSet) addRune(r rune) {
	if r < utf8.RuneSelf {
		b[r] = true
		return
	}
	for c := 0x80; c <= 0xff; c++ {
		b[c] = true
	}
}

// requiredBytes finds a set of bytes such that every match of re holds at
// least one of them, or nil: a character class's bytes, or a literal's
// first rune (with its case folds), through groups and repetitions of at
// least one; the smallest set a concatenation requires; the union of an
// alternation's.
func requiredBytes(re *syntax.Regexp) *byteSet {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return nil
		}
		set := new(byteSet)
		r := re.Rune[0]
		set.addRune(r)
		if re.Flags&syntax.FoldCase != 0 {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				set.addRune(f)
			}
		}
		return set
	case syntax.OpCharClass:
		set := new(byteSet)
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
				set[r] = true
			}
			if hi >= utf8.RuneSelf {
				set.addRune(hi)
			}
		}
		return set
	case syntax.OpCapture, syntax.OpPlus:
		return requiredBytes(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredBytes(re.Sub[0])
		}
	case syntax.OpConcat:
		var best *byteSet
		for _, sub := range re.Sub {
			if set := requiredBytes(sub); set != nil && (best == nil || set.count() < best.count()) {
				best = set
			}
		}
		return best
	case syntax.OpAlternate:
		union := new(byteSet)
		for _, sub := range re.Sub {
			set := requiredBytes(sub)
			if set == nil {
				return nil
			}
			for c, in := range set {
				union[c] = union[c] || in
			}
		}
		return union
	}
	return nil
}

// hasTextAnchor reports whether re uses \A or \z (or ^ and $ under (?-m)),
// which mean the start and end of each line to a per-line search but of the
// whole content to a scan.
func hasTextAnchor(re *syntax.Regexp) bool {
	if re.Op == syntax.OpBeginText || re.Op == syntax.OpEndText {
		return true
	}
	for _, sub := range re.Sub {
		if hasTextAnchor(sub) {
			return true
		}
	}
	return false
}

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
		if loc := m.lineRe.FindIndex(content[ls:le]); loc != nil {
			if s.found(line, loc[0], loc[1]) {
				return
			}
		}
	}
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
		if loc := m.lineRe.FindIndex(s.content[ls:le]); loc != nil {
			if s.found(line, loc[0], loc[1]) {
				return
			}
		}
	}
}

// ---------------------------------------------------------------------------
// The search view: what a search needs of a parsed doc beyond its bytes.

// searchView is built once per parsed doc version and kept beside the
// Library's parse cache: the offset of every line start, and (built on the
// first case-insensitive search) an ASCII-lowered copy of the content, the
// same length, so an offset in one is an offset in the other.
type searchView struct {
	starts []int // starts[i] is the byte offset of line i+1

	lowerOnce sync.Once
	lower     []byte // content with A-Z lowered; content itself when it has none
	special   bool   // content holds U+212A (Kelvin) or U+017F (long s)
}

func newSearchView(content []byte) *searchView {
	return &searchView{starts: lineStarts(content)}
}

// searchViews is one Library's side cache of search views, beside its parse
// cache: keyed by the *parsedDoc a view describes, so a file that changed
// (a new parsedDoc) gets a new view and a stale one is never used.
//
// Entries do not outlive their version: a path has one view, of the last
// version searched, and building the view of a new version drops the old
// one, so this cache holds at most one view per path, like the Library's
// parse cache holds one parse per path.
type searchViews struct {
	mu     sync.RWMutex
	byDoc  map[*parsedDoc]*searchView
	byPath map[string]*parsedDoc
}

// libraryViews holds each Library's searchViews, keyed by a weak pointer
// to the Library (package app cannot add the field to Library without
// touching its owner's file): a Library that is collected takes its views
// with it, through a cleanup.
var libraryViews sync.Map // weak.Pointer[Library] -> *searchViews

// views returns l's search views, making them on first use.
func (l *Library) views() *searchViews {
	key := weak.Make(l)
	if vs, ok := libraryViews.Load(key); ok {
		return vs.(*searchViews)
	}
	vs, loaded := libraryViews.LoadOrStore(key, &searchViews{byDoc: map[*parsedDoc]*searchView{}, byPath: map[string]*parsedDoc{}})
	if !loaded {
		runtime.AddCleanup(l, func(k weak.Pointer[Library]) { libraryViews.Delete(k) }, key)
	}
	return vs.(*searchViews)
}

// get returns p's view, building it on first use and dropping the view
// of the version of path it replaces. Safe for concurrent use.
func (vs *searchViews) get(p *parsedDoc, path string) *searchView {
	vs.mu.RLock()
	v := vs.byDoc[p]
	vs.mu.RUnlock()
	if v != nil {
		return v
	}
	v = newSearchView(p.content)
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if got := vs.byDoc[p]; got != nil {
		return got
	}
	if old := vs.byPath[path]; old != nil {
		delete(vs.byDoc, old)
	}
	vs.byDoc[p], vs.byPath[path] = v, p
	return v
}

// lineStarts returns the offset of each line's first byte. Lines split on
// '\n' only, and a trailing '\n' does not start another line.
func lineStarts(content []byte) []int {
	if len(content) == 0 {
		return nil
	}
	starts := make([]int, 1, bytes.Count(content, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(content[off:], '\n')
		if i < 0 || off+i+1 >= len(content) {
			return starts
		}
		off += i + 1
		starts = append(starts, off)
	}
}

// lineOf returns the 1-based line holding byte off, which lies at or after
// the start of line from+1 (hits come in order: from is the line of the
// previous one). It gallops forward from there, then bisects, so a run of
// hits on nearby lines costs a few comparisons each.
func (v *searchView) lineOf(off, from int) int {
	s := v.starts
	i, step := from, 1
	for i+step < len(s) && s[i+step] <= off {
		i += step
		step *= 2
	}
	lo, hi := i, min(i+step, len(s)) // s[lo] <= off, and s[hi] > off when hi < len(s)
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if s[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}

// bounds returns the byte range of a line of content, without its '\n'.
func (v *searchView) bounds(line int, content []byte) (start, end int) {
	start = v.starts[line-1]
	if line < len(v.starts) {
		return start, v.starts[line] - 1
	}
	end = len(content)
	if end > start && content[end-1] == '\n' {
		end--
	}
	return start, end
}

// line returns the bytes of a line, without its '\n'.
func (v *searchView) line(content []byte, line int) []byte {
	s, e := v.bounds(line, content)
	return content[s:e]
}

func (v *searchView) lowered(content []byte) []byte {
	v.lowerOnce.Do(func() { v.lower, v.special = lowerCopy(content) })
	return v.lower
}

// lowerCopy lowers A-Z, keeping every other byte, so offsets are kept. It
// returns content itself when there is nothing to lower, and whether the
// content holds one of the two non-ASCII runes that fold to ASCII letters.
func lowerCopy(content []byte) ([]byte, bool) {
	special := bytes.Contains(content, []byte("\u212a")) || bytes.Contains(content, []byte("\u017f"))
	i := bytes.IndexFunc(content, func(r rune) bool { return 'A' <= r && r <= 'Z' })
	if i < 0 {
		return content, special
	}
	return lowerASCII(content), special
}

func lowerASCII(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
