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
	docs, _, err := scopeDocs(cat, req.Scope)
	if err != nil {
		return "", err
	}

	// Count every doc's hit lines in parallel; keep only the counts, so a
	// query matching most lines of a big library costs no memory per hit.
	parsed := make([]*parsedDoc, len(docs))
	counts := make([]int, len(docs))
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
				p, err := l.open(ctx, docs[i].Path)
				if err != nil {
					errs[i] = err
					continue
				}
				parsed[i] = p
				counts[i] = m.scan(p, viewOf(p), -1, nil)
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
		fmt.Fprintf(&b, "No hits for %s in %d %s (%s).\n", quoteQuery(req.Query), len(docs), plural(len(docs), "doc", "docs"), how)
	default:
		fmt.Fprintf(&b, "%d %s in %d of %d %s for %s (%s)\n", total, plural(total, "hit", "hits"),
			hitDocs, len(docs), plural(len(docs), "doc", "docs"), quoteQuery(req.Query), how)
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
		m.scan(parsed[i], viewOf(parsed[i]), limit, &hits)
		b.WriteString("\n")
		b.WriteString(d.ID)
		fmt.Fprintf(&b, " (%s)", d.Path)
		if len(d.Tags) > 0 {
			fmt.Fprintf(&b, " · tags: %s", strings.Join(d.Tags, ", "))
		}
		b.WriteString("\n")
		for _, h := range hits {
			writeHit(&b, parsed[i], h)
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
			left, plural(left, "hit", "hits"), leftDocs, plural(leftDocs, "doc", "docs"), budget)
	}
	writeNotes(&b, notes)
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
func writeHit(b *strings.Builder, p *parsedDoc, h hit) {
	fmt.Fprintf(b, "L%d", h.line)
	if sec := innermostSection(p.structure.Sections, h.line); sec != "" {
		b.WriteString(" § ")
		b.WriteString(sec)
	}
	b.WriteString(": ")
	v := viewOf(p)
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
// Three ways to find hit lines, picked per doc:
//   - literal: bytes.Index of lit over the content (or over its ASCII-lowered
//     copy when folding), jumping to the next line after each hit. When
//     exact, a literal hit is a hit; otherwise each line holding lit is
//     checked with lineRe (lit is then a prefilter every match contains).
//   - scan: one leftmost-first pass of scanRe, the query in (?m) mode, over
//     the whole content from each line start; a match that crosses a line
//     break is checked again on its first line alone with lineRe.
//   - per line: lineRe on each line (only for \A or \z, which scanRe would
//     read as the start or end of the whole text).
type matcher struct {
	mode     string
	caseSens bool

	lit      []byte // a literal every match contains; nil when there is none
	litFold  bool   // lit is ASCII-lowered and looked for in the lowered copy
	litKS    bool   // lit holds k or s, which U+212A and U+017F also fold to
	litExact bool   // a line holding lit is a hit (string mode)

	lineRe *regexp.Regexp // the query on one line alone: the truth
	scanRe *regexp.Regexp // the query in (?m) mode over whole content; nil: per line
}

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
		switch {
		case req.CaseSensitive:
			m.lit, m.litExact = []byte(req.Query), true
		case isASCII(req.Query):
			m.lit, m.litExact, m.litFold = lowerASCII([]byte(req.Query)), true, true
		}
	case SearchRegex:
		// Compile the query as given first, so an error quotes it as written.
		if _, err := regexp.Compile(req.Query); err != nil {
			return nil, fmt.Errorf("%w: invalid regex %s: %v", domain.ErrInvalidArgument, quoteQuery(req.Query), err)
		}
		expr = req.Query
		tree, err := syntax.Parse(flags+expr, syntax.Perl)
		if err != nil {
			return nil, fmt.Errorf("%w: invalid regex %s: %v", domain.ErrInvalidArgument, quoteQuery(req.Query), err)
		}
		if runes, fold, ok := requiredLiteral(tree); ok {
			s := string(runes)
			switch {
			case !fold:
				m.lit = []byte(s)
			case isASCII(s):
				m.lit, m.litFold = lowerASCII([]byte(s)), true
			}
		}
	}
	if m.litFold {
		m.litKS = bytes.ContainsAny(m.lit, "ks")
	}
	var err error
	if m.lineRe, err = regexp.Compile(flags + expr); err != nil {
		return nil, fmt.Errorf("%w: invalid regex %s: %v", domain.ErrInvalidArgument, quoteQuery(req.Query), err)
	}
	if tree, err := syntax.Parse("(?m)"+flags+expr, syntax.Perl); err == nil && !hasTextAnchor(tree) {
		if m.scanRe, err = regexp.Compile("(?m)" + flags + expr); err != nil {
			return nil, fmt.Errorf("%w: invalid regex %s: %v", domain.ErrInvalidArgument, quoteQuery(req.Query), err)
		}
	}
	return m, nil
}

// describe says how the query was matched, for the answer's first line.
func (m *matcher) describe() string {
	if m.caseSens {
		return m.mode + ", case-sensitive"
	}
	return m.mode + ", case-insensitive"
}

// requiredLiteral finds a literal that every match of re contains: the
// longest one a concatenation requires, looking through groups and
// repetitions of at least one. ok is false when there is none (an
// alternation, a class, an optional part).
func requiredLiteral(re *syntax.Regexp) (lit []rune, fold, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return re.Rune, re.Flags&syntax.FoldCase != 0, len(re.Rune) > 0
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if l, f, o := requiredLiteral(sub); o && len(string(l)) > len(string(lit)) {
				lit, fold, ok = l, f, true
			}
		}
	}
	return lit, fold, ok
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
	if fm >= len(v.starts) {
		return 0
	}
	pos := v.starts[fm] // the first body byte
	from := fm          // hits lie after line from
	n := 0
	found := func(line, start, end int) bool {
		n++
		if out != nil {
			*out = append(*out, hit{line: line, start: start, end: end})
		}
		return limit >= 0 && n >= limit
	}
	if limit == 0 {
		return 0
	}

	useLit, hay := m.lit != nil, content
	if useLit && m.litFold {
		hay = v.lowered(content)
		// U+212A and U+017F fold to k and s but are not lowered in the
		// copy: a doc holding one needs the regex for a query with k or s.
		useLit = !m.litKS || !v.special
	}
	if useLit {
		for pos < len(hay) {
			i := bytes.Index(hay[pos:], m.lit)
			if i < 0 {
				break
			}
			off := pos + i
			line := v.lineOf(off, from)
			ls, le := v.bounds(line, content)
			pos, from = le+1, line
			if off+len(m.lit) > le {
				// The literal runs past the line's end: it spans a line
				// break, which no line holds. Look again from the next line.
				continue
			}
			if m.litExact {
				if found(line, off-ls, off-ls+len(m.lit)) {
					break
				}
				continue
			}
			if loc := m.lineRe.FindIndex(content[ls:le]); loc != nil {
				if found(line, loc[0], loc[1]) {
					break
				}
			}
		}
		return n
	}

	if m.scanRe != nil {
		for pos < len(content) {
			loc := m.scanRe.FindIndex(content[pos:])
			if loc == nil {
				break
			}
			s, e := pos+loc[0], pos+loc[1]
			line := v.lineOf(s, from)
			ls, le := v.bounds(line, content)
			pos, from = le+1, line
			if s == len(content) && content[s-1] == '\n' {
				break // an empty match after the final '\n': no line is there
			}
			if e <= le {
				if found(line, s-ls, e-ls) {
					break
				}
				continue
			}
			// The match crosses a line break: the line alone decides.
			if loc := m.lineRe.FindIndex(content[ls:le]); loc != nil {
				if found(line, loc[0], loc[1]) {
					break
				}
			}
		}
		return n
	}

	for line := fm + 1; line <= len(v.starts); line++ {
		ls, le := v.bounds(line, content)
		if loc := m.lineRe.FindIndex(content[ls:le]); loc != nil {
			if found(line, loc[0], loc[1]) {
				break
			}
		}
	}
	return n
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

// views is the side cache of search views, keyed by a weak pointer to the
// parsedDoc they describe. The Library's cache decides how long a parsedDoc
// lives (it drops one when its file changes); once the parsedDoc is
// collected, a cleanup deletes its view, so views of replaced versions do
// not leak and this cache needs no hook into the Library's. Keys of
// different Libraries never collide: they are distinct pointers.
var views sync.Map // weak.Pointer[parsedDoc] -> *searchView

// viewOf returns p's search view, building it on first use.
func viewOf(p *parsedDoc) *searchView {
	key := weak.Make(p)
	if v, ok := views.Load(key); ok {
		return v.(*searchView)
	}
	v := &searchView{starts: lineStarts(p.content)}
	if actual, loaded := views.LoadOrStore(key, v); loaded {
		return actual.(*searchView)
	}
	runtime.AddCleanup(p, func(k weak.Pointer[parsedDoc]) { views.Delete(k) }, key)
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

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
