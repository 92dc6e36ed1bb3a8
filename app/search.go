package app

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

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
	// says how many hits it left out. In SearchRanked mode it is the number
	// of sections (0: DefaultRankedResults).
	MaxResults int
	// Progress, when not nil, hears how the index's first build advances
	// while a ranked search waits for it.
	Progress func(done, total int)
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
	if req.Mode == SearchRanked {
		return l.searchRanked(ctx, req)
	}
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
	skip := l.indexSkips(ctx, docs, m.candidateQuery(req.Query))

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
				if skip != nil && skip[i] {
					continue // the index proves it holds no hit
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
