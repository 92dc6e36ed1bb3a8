package search

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/textmatch"
	"github.com/librarian/librarian/domain/wording"
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
	domain.Scope
	// Query is a plain string, or a Go RE2 regex when Mode is SearchRegex.
	Query string
	// Mode is SearchString ("" means it too) or SearchRegex.
	Mode string
	// CaseSensitive turns off case folding (Unicode simple folding).
	CaseSensitive bool
	// MaxResults caps the hit lines shown; 0 shows all. The answer always
	// says how many hits it left out. In SearchRanked mode it is the number
	// of sections (0: DefaultRankedResults, as DefaultLimit).
	MaxResults int
	// DefaultLimit says MaxResults is the mode's default, not the
	// caller's: a ranked answer then shows rankedCloseSections more that
	// score close to the best.
	DefaultLimit bool
	// Context is how many lines before and after each hit are shown too
	// (0 to MaxContext), merged when they touch, as grep -C does.
	Context int
	// WholeWord (string mode) keeps only matches that are whole words: no
	// letter, digit or '_' right before or after them.
	WholeWord bool
	// Progress, when not nil, hears how the index's first build advances
	// while a ranked search waits for it.
	Progress func(done, total int)
}

// MaxContext bounds SearchRequest.Context: past it a get_documents call
// for the section is the cheaper read.
const MaxContext = 20

// wholeWordRequest turns a whole-word string search into the regex that
// finds it: the literal, with no word character (Unicode letters and
// digits, '_') just before or after it where the query's own end is one.
func wholeWordRequest(req SearchRequest) (SearchRequest, error) {
	if req.Mode != "" && req.Mode != SearchString {
		return req, fmt.Errorf("%w: 'whole_word' applies to mode \"string\" only; in a regex write \\b yourself", domain.ErrInvalidArgument)
	}
	if req.Query == "" || strings.Contains(req.Query, "\n") {
		return req, nil // newMatcher says what is wrong with it
	}
	const notWord = `[^\p{L}\p{N}_]`
	expr := regexp.QuoteMeta(req.Query)
	if r, _ := utf8.DecodeRuneInString(req.Query); isWordRune(r) {
		expr = `(?:^|` + notWord + `)` + expr
	}
	if r, _ := utf8.DecodeLastRuneInString(req.Query); isWordRune(r) {
		expr += `(?:$|` + notWord + `)`
	}
	req.Mode, req.Query = SearchRegex, expr
	return req, nil
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// SearchDocuments finds the lines of the docs in scope that hold the query,
// seed 001's search at line level. Each line is matched on its own (a
// regex's ^ and $ are the line's bounds, and no match spans lines), and
// frontmatter lines are never searched. The answer gives, per matching doc
// in path order, its id, path and size, then its hit lines under the
// sections holding them, in the shape writeDocHits draws:
//
//	auth (backend/auth.md) ~353 tokens
//	§ refresh-tokens/rotation L18–38 ~210 tokens
//	L21: Every refresh returns a NEW refresh token
//
// ready for a get_documents selector. An empty query, an invalid regex,
// an unknown mode or a context out of range is a domain.ErrInvalidArgument
// that says what is wrong; no hit at all is a plain answer saying so.
func (l *Searcher) SearchDocuments(ctx context.Context, req SearchRequest) (string, error) {
	return l.search(ctx, req, nil)
}

// search is SearchDocuments; when data is not nil it also records the
// answer there as data (SearchData).
func (l *Searcher) search(ctx context.Context, req SearchRequest, data *Result) (string, error) {
	if req.Mode == SearchRanked {
		if err := domain.CheckQuery(req.Query); err != nil {
			return "", err
		}
		return l.searchRanked(ctx, req, data)
	}
	asked := req
	if req.WholeWord {
		var err error
		if req, err = wholeWordRequest(req); err != nil {
			return "", err
		}
	}
	m, err := newMatcher(req)
	if err != nil {
		return "", err
	}
	if req.MaxResults < 0 {
		return "", fmt.Errorf("%w: 'max_results' must be 0 (no limit) or more, got %d", domain.ErrInvalidArgument, req.MaxResults)
	}
	if req.Context < 0 || req.Context > MaxContext {
		return "", fmt.Errorf("%w: 'context' must be 0 to %d lines, got %d (for more, fetch the section with get_documents)", domain.ErrInvalidArgument, MaxContext, req.Context)
	}
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return "", err
	}
	docs, _, err := domain.ScopeDocs(cat, req.Scope)
	if err != nil {
		return "", err
	}
	streamed := l.lib.StreamsCandidates()
	var skip []bool
	if !streamed {
		skip = l.lib.IndexSkips(ctx, cat, docs, m.candidateQuery(req.Query))
		if skip == nil {
			l.lib.WarmIfCold(ctx, docs) // every doc is scanned: load them in one pass
		}
	}

	// The count stops at the call's time limit, and the answer says what
	// it searched; or when the client cancels or the session ends (parent).
	parent := ctx
	ctx, cancel := context.WithTimeoutCause(parent, l.searchTimeout(), domain.ErrSearchTimeLimit)
	defer cancel()

	// Count every doc's hit lines in parallel; keep only the counts, so a
	// query matching most lines of a big library costs no memory per hit.
	done := make([]bool, len(docs)) // searched whole, or noted as unreadable
	parsed := make([]*library.Doc, len(docs))
	views := make([]*textmatch.Text, len(docs))
	counts := make([]int, len(docs))
	vs := &l.views
	errs := make([]error, len(docs))
	var next atomic.Int64
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), len(docs))
	if streamed {
		// The index sends the candidates' texts; none is cached.
		if _, err := l.scanStreamed(ctx, cat, docs, m, m.candidateQuery(req.Query), req.MaxResults, parsed, views, counts, done); err != nil && parent.Err() == nil {
			return "", err
		}
		workers = 0
	}
	for w := workers; w > 0; w-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var scanned []*library.Doc
			defer func() { l.lib.Evict(scanned...) }()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(docs) || ctx.Err() != nil {
					return
				}
				if skip != nil && skip[i] {
					done[i] = true
					continue // the index proves it holds no hit
				}
				// Matching needs the bytes and where the body starts, not
				// the parse (only the docs shown are parsed, below).
				p, err := l.lib.OpenText(ctx, docs[i])
				if err != nil {
					if ctx.Err() == nil {
						errs[i], done[i] = err, true
					}
					continue
				}
				parsed[i], views[i] = p, vs.get(p, docs[i].Path)
				if n := m.scan(ctx, p, views[i], -1, nil); ctx.Err() == nil {
					counts[i], done[i] = n, true
				}
				// Their pages can go, a group at a time: memory that does
				// not grow with the library (the docs shown are read
				// again below).
				if scanned = append(scanned, p); len(scanned) == evictGroup {
					l.lib.Evict(scanned...)
					scanned = scanned[:0]
				}
			}
		}()
	}
	wg.Wait()
	if err := parent.Err(); err != nil {
		return "", err
	}
	timedOut := context.Cause(ctx) == domain.ErrSearchTimeLimit
	// Showing the hits reads again only the docs shown, up to max_results.
	ctx = parent

	var notes []string // this call's own; the catalog's are added at the end, for the docs shown
	total, hitDocs := 0, 0
	for i, d := range docs {
		if errs[i] != nil {
			notes = append(notes, library.OpenNote(d, errs[i]))
		}
		if counts[i] > 0 {
			total += counts[i]
			hitDocs++
		}
	}
	if timedOut {
		notes = append(notes, timeLimitNote(l.searchTimeout(), docs, done))
	}

	if data != nil {
		*data = Result{Query: asked.Query, Mode: cmp.Or(asked.Mode, SearchString), WholeWord: asked.WholeWord,
			Docs: len(docs), Hits: total, HitDocs: hitDocs}
	}
	var b strings.Builder
	how := m.describe()
	if asked.WholeWord {
		how = strings.Replace(how, SearchRegex, SearchString+", whole word", 1)
	}
	query := quoteQuery(asked.Query)
	switch {
	case total == 0 && len(docs) == 0:
		fmt.Fprintf(&b, "No hits for %s: no document is in scope (%s).\n", query, scopeWords(req.Scope))
	case total == 0:
		fmt.Fprintf(&b, "No hits for %s in %d %s (%s).\n", query, len(docs), wording.Plural(len(docs), "doc", "docs"), how)
	default:
		fmt.Fprintf(&b, "%d %s in %d of %d %s for %s (%s)\n", total, wording.Plural(total, "hit", "hits"),
			hitDocs, len(docs), wording.Plural(len(docs), "doc", "docs"), query, how)
	}

	// Render the first MaxResults hits, in path order, scanning those docs
	// again for their lines (cheap: only as many docs as the budget reaches).
	budget := req.MaxResults
	style := hitStyle{context: req.Context, tagFilter: req.Tags}
	shown, shownDocs := 0, 0
	shownPaths := map[string]bool{}
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
		// A doc shown names the sections of its hits: its parse, when
		// its bytes are still those counted.
		if full, err := l.lib.Open(ctx, d); err == nil && full != parsed[i] && bytes.Equal(full.Content, parsed[i].Content) {
			parsed[i], views[i] = full, vs.get(full, d.Path)
		}
		hits = hits[:0]
		m.scan(ctx, parsed[i], views[i], limit, &hits)
		b.WriteString("\n")
		writeDocHits(&b, docHits{doc: d, p: parsed[i], v: views[i], hits: hits}, style)
		if data != nil {
			data.Groups = append(data.Groups, docHits{doc: d, p: parsed[i], v: views[i], hits: hits}.data())
		}
		shown += len(hits)
		shownDocs++
		shownPaths[d.Path] = true
		if len(hits) < counts[i] {
			// The cut fell inside this doc: it counts among the docs with
			// hits not shown.
			shownDocs--
		}
	}
	notes = append(domain.ShownNotes(cat.Notes, func(p string) bool { return shownPaths[p] }, l.lib.Config().Commands.OrTools()), notes...)
	if data != nil {
		data.Shown, data.Notes = shown, notes
	}
	if left := total - shown; left > 0 {
		leftDocs := hitDocs - shownDocs
		fmt.Fprintf(&b, "\n… %d more %s in %d %s not shown (max_results=%d): narrow root, tags or the query, or raise max_results\n",
			left, wording.Plural(left, "hit", "hits"), leftDocs, wording.Plural(leftDocs, "doc", "docs"), budget)
	}
	wording.WriteNotes(&b, notes)
	return strings.TrimRight(b.String(), "\n"), nil
}

// scopeWords describes a scope's filters for an answer with no doc in it.
func scopeWords(s domain.Scope) string {
	var parts []string
	if root, err := domain.CleanFolder(s.Root); err == nil && root != "" {
		parts = append(parts, "root "+wording.QuoteInput(root+"/", 0))
	}
	if len(s.Tags) > 0 {
		parts = append(parts, "tags: "+wording.QuoteInput(strings.Join(s.Tags, ", "), 0))
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
	if len(q) > wording.MaxQuoted {
		// At most a prefix: a 50 MB query is not quoted back whole.
		return wording.QuoteInput(q, '"')
	}
	for _, r := range q {
		if r == '"' || r < ' ' || r == 0x7f {
			return strconv.Quote(q)
		}
	}
	return `"` + q + `"`
}

// hit is one matching line: its 1-based number and where, in the line's
// bytes, the first match starts and ends.
type hit = textmatch.Hit

// innermostSection returns the full id of the deepest section holding line,
// "" when none does (blank lines after frontmatter, before any heading).
func innermostSection(secs []domain.Section, line int) string {
	if i := domain.InnermostSection(secs, line); i >= 0 {
		return secs[i].ID
	}
	return ""
}

// trimAround shortens a long line to about maxHitRunes runes around the
// match [start, end), marking each cut with '…'. A trailing '\r' (CRLF
// files) is dropped.
func trimAround(line []byte, start, end int) string {
	return wording.Excerpt(line, start, end, maxHitRunes, 3)
}

// evictGroup is how many scanned docs a search worker lets go of at a time
// (library.Evict: one at a time leaves their neighbours' pages in).
const evictGroup = 256
