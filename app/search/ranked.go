package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/passage"
	"github.com/librarian/librarian/domain/textmatch"
	"github.com/librarian/librarian/domain/wording"
	"github.com/librarian/librarian/ports/sectionindex"
)

// SearchRanked is search_documents' third mode: a question in words,
// answered with the sections that best answer it (BM25 over the section
// index), not with lines holding a string.
const SearchRanked = "ranked"

// DefaultRankedResults is how many sections a ranked search answers when
// max_results is not given (or 0), and rankedCloseSections more whose
// passage.Question.Rank score is close to the best (passage.CloseToBest):
// the ranking cannot tell them from the fifth. Decided on the fact eval's
// tune sets together with the sections after the first quoting prose
// (passage.Question.ShownProse): ranked 424 -> 426 of 498 (PostgreSQL 427
// -> 428), the medians of nine corpora of ten smaller; a share of 0.7
// held as many in larger answers, 0.8 fewer; held out the same (309,
// PostgreSQL 311 of 367).
//
// Since then a sixth and a seventh section close to the best, at
// rankedCloseShare (0.7, not passage.CloseShare's 0.75), paid for by weak
// sections quoting fewer lines (rankedWeakShare, rankedLateWeakShare), as
// librarian_ask's later passages are: tune ranked 891 -> 893 (+2 -0),
// fresh12-14 237 -> 239 (+2 -0), answers -0.19 % in bytes (tune), -0.52 %
// (fresh12-14).
const (
	DefaultRankedResults = 5
	rankedCloseSections  = 2
	rankedCloseShare     = 0.7
)

// rankedWeakShare: a second or third section scoring under this share of
// the best's passage.Question.Rank score quotes rankedWeakLines, not
// rankedLines; rankedLateWeakShare: a fourth or later one under it quotes
// rankedWeakLines-1, not rankedLinesLater. A weak section's third line
// seldom holds the fact (its best line or two do, if any), and the bytes
// buy close sections past the fifth, where the ranking cannot tell a
// fact's section from the fifth. On tune: the weak share 0.8 alone (with
// a seventh at 0.75) lost two facts a weak section's third line held
// (+1 -2); 0.7 +2 -1; the late share 0.6 and 0.7 the same tune facts in
// smaller answers (-0.9 and -2.4 %) but lost 2 and 4 fresh12-14 facts a
// later section's second line held; 0.55 loses none of them, and 0.5 the
// same facts in answers +0.47 % (tune).
const (
	rankedWeakShare     = 0.65
	rankedLateWeakShare = 0.55
	rankedWeakLines     = 2
)

// rankedLines is how many of a section's best lines are quoted,
// rankedFirstLines the best section's (three in four answered facts are
// in it), and rankedLinesLater how many after the first
// rankedFullSections: decided on the fact eval's tune sets (app/appfx
// TestFactEval), a fourth or fifth section's third line held no fact there
// nor held out, and cost 3 to 9 % of the answer; a fourth line of the
// best section gained one tune fact over each index, three held out.
const (
	rankedLines        = passage.SectionLines
	rankedFirstLines   = 4
	rankedFullSections = 3
	rankedLinesLater   = 2
)

// rankedHitRunes is how much of a long line a ranked hit shows, around
// where the question's words meet (passage.Question.WindowWithin): a ranked
// answer is read to choose what to fetch, and a paragraph on one line
// would otherwise cost ~75 tokens a hit.
const rankedHitRunes = 200

// rankedFirstHitRunes is rankedHitRunes for the best section's lines, the
// likeliest to hold the answer: a fact stated late in a long sentence.
const rankedFirstHitRunes = 300

// rankedHitBefore: up to 1/rankedHitBefore of a long hit's excerpt comes
// before the question's words, the rest after them (wording.Excerpt).
const rankedHitBefore = 6

// searchRanked answers mode "ranked": the top sections for the query's
// words, in the shape of every search answer (writeDocHits): per doc, in
// the order of its best section, its line with its size, then each of its
// sections, best first, with its line range, tokens and best lines:
//
//	auth (backend/auth.md) ~400 tokens
//	§ refresh-tokens/rotation L19–30 ~263 tokens
//	L21: Every refresh returns a NEW refresh token and revokes the old one.
//
// ready for get_documents ({"doc": id, "sections": [§ id]}). While the
// index's first build runs, the call waits for it, reporting progress.
func (l *Searcher) searchRanked(ctx context.Context, req SearchRequest, data *Result) (string, error) {
	if strings.TrimSpace(req.Query) == "" {
		return "", fmt.Errorf("%w: 'query' is empty: give the words of a question", domain.ErrInvalidArgument)
	}
	if req.CaseSensitive {
		return "", fmt.Errorf("%w: 'case_sensitive' does not apply to mode \"ranked\", which ignores case", domain.ErrInvalidArgument)
	}
	if req.WholeWord {
		return "", fmt.Errorf("%w: 'whole_word' applies to mode \"string\" only; mode \"ranked\" matches whole words (and their forms) already", domain.ErrInvalidArgument)
	}
	if req.Context < 0 || req.Context > MaxContext {
		return "", fmt.Errorf("%w: 'context' must be 0 to %d lines, got %d (for more, fetch the section with get_documents)", domain.ErrInvalidArgument, MaxContext, req.Context)
	}
	if req.MaxResults < 0 {
		return "", fmt.Errorf("%w: 'max_results' must be 0 (the default, %d sections) or more, got %d", domain.ErrInvalidArgument, DefaultRankedResults, req.MaxResults)
	}
	ix := l.lib.Index()
	if ix == nil {
		return "", errors.New("ranked search needs the section index, and this library has none")
	}
	limit := req.MaxResults
	if limit == 0 {
		limit = DefaultRankedResults
	}
	if err := l.lib.EnsureIndexed(ctx, req.Progress); err != nil {
		return "", err
	}
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return "", err
	}
	docs, _, err := domain.ScopeDocs(cat, req.Scope)
	if err != nil {
		return "", err
	}
	var paths []string // nil for the whole library: no filter to send
	if len(docs) != len(cat.Docs) {
		paths = make([]string, len(docs))
		for i, d := range docs {
			paths[i] = d.Path
		}
	}
	// docs are in path order: a found section's doc is found by a binary
	// search (a map of every doc cost a 100,000-doc library 20 ms a call).
	byPath := func(path string) (domain.Document, bool) {
		i, ok := slices.BinarySearchFunc(docs, path, func(d domain.Document, p string) int { return strings.Compare(d.Path, p) })
		if !ok {
			return domain.Document{}, false
		}
		return docs[i], true
	}
	// Ask for more than shown: a section of a doc changed since it was
	// indexed is dropped (its lines may have moved) until the refresh
	// catches up.
	// The sections for the words docs use for the question's ("default"
	// for "out of the box") are candidates too, as librarian_ask's are.
	question := passage.NewQuestion(req.Query)
	found, err := sectionindex.RankedWithRelated(ctx, ix, domain.RankedQuery{Text: req.Query, Limit: limit*2 + 5, Paths: paths}, question.Related())
	if err != nil {
		return "", err
	}
	var b strings.Builder
	var notes []string // this call's own; the catalog's are added at the end, for the docs shown
	shown := 0
	// Group the sections by doc, docs in the order of their best section,
	// so each doc's line is written once.
	var groups []docHits
	groupOf := map[string]int{}
	vs := &l.views
	var stale []domain.Document // docs changed since indexed, whose sections were left out
	staleSeen := map[string]bool{}
	// Every section found in a doc the index holds as it is now is a
	// candidate; the best limit of them by passage.Question.Rank (index
	// score and best line, as librarian_ask orders its passages) are shown.
	type candidate struct {
		sec domain.RankedSection
		d   domain.Document
		p   *library.Doc
		// lines are the doc's as the section is quoted from them, from its
		// line from on (a doc's first section: its frontmatter's facts too,
		// passage.WithFrontmatter).
		lines []string
		from  int
	}
	var cands []candidate
	var spans []passage.Span
	var index []float64
	docLines := map[string][]string{}
	openFailed := map[string]bool{}
	for _, s := range found {
		d, ok := byPath(s.Path)
		if !ok {
			continue // removed from the catalog since it was indexed
		}
		p, err := l.lib.Open(ctx, d)
		if err != nil {
			if !openFailed[d.Path] {
				openFailed[d.Path] = true
				notes = append(notes, library.OpenNote(d, err))
			}
			continue
		}
		if !l.lib.IndexHolds(d.Path, p) {
			if !staleSeen[d.Path] {
				// Say so: silence would read as "this doc does not hold the words".
				staleSeen[d.Path] = true
				stale = append(stale, d)
			}
			continue
		}
		lines, ok := docLines[d.Path]
		if !ok {
			v := vs.get(p, d.Path)
			lines = textLines(v, p.Content, 1, v.Lines())
			docLines[d.Path] = lines
		}
		quoted, from := passage.WithFrontmatter(lines, p.Structure.FrontmatterEnd, s.Start)
		cands = append(cands, candidate{s, d, p, quoted, from})
		spans = append(spans, passage.Span{Doc: d.Path, Lines: quoted, From: from, To: s.End, Anchor: domain.SlugOf(s.SectionID)})
		index = append(index, s.Score)
	}
	scores := question.Rank(spans, index)
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	shownLines := map[string]map[int]bool{} // per doc, the lines its sections above show
	inc := newIncludes(cat)
	take := min(len(order), limit)
	if (req.MaxResults == 0 || req.DefaultLimit) && limit == DefaultRankedResults {
		for take < min(len(order), limit+rankedCloseSections) && passage.CloseTo(scores[order[take]], scores[order[0]], rankedCloseShare) {
			take++
		}
	}
	for _, i := range order[:take] {
		c := cands[i]
		shown++
		quotedLines := rankedQuotedLines(shown, scores[i], scores[order[0]])
		gi, ok := groupOf[c.d.Path]
		if !ok {
			gi = len(groups)
			groupOf[c.d.Path] = gi
			groups = append(groups, docHits{doc: c.d, p: c.p, v: vs.get(c.p, c.d.Path)})
		}
		if shownLines[c.d.Path] == nil {
			shownLines[c.d.Path] = map[int]bool{}
		}
		lineRunes := rankedHitRunes
		if shown == 1 {
			lineRunes = rankedFirstHitRunes
		}
		sh := rankedHits(c.sec, question, c.lines, c.from, groups[gi].v, c.p.Content, shownLines[c.d.Path], quotedLines, lineRunes, shown == 1)
		sh = l.withIncluded(ctx, inc, sh, c.d.Path, c.lines, question, quotedLines, lineRunes, shown == 1)
		groups[gi].sections = append(groups[gi].sections, sh)
	}
	for gi := range groups {
		if gi == 0 && (req.MaxResults == 0 || req.DefaultLimit) {
			// Context for the best section, as the close sections are an
			// answer's when no max_results asks for a number of sections.
			own := len(groups[gi].sections)
			groups[gi].sections = withOpening(groups[gi], question, shownLines[groups[gi].doc.Path])
			groups[gi].sections = withElsewhere(groups[gi], docLines[groups[gi].doc.Path], own, shown, question, shownLines[groups[gi].doc.Path])
		}
		groups[gi].sections = withDefinitions(groups[gi], question, shownLines[groups[gi].doc.Path])
	}
	if req.MaxResults == 0 || req.DefaultLimit {
		l.withLinkedDefault(ctx, inc, groups, docLines, question)
	}
	var body strings.Builder
	style := hitStyle{context: req.Context, tagFilter: req.Tags, lineRunes: rankedHitRunes, before: rankedHitBefore}
	for _, g := range groups {
		body.WriteString("\n")
		writeDocHits(&body, g, style)
	}
	switch {
	case shown == 0 && len(docs) == 0:
		fmt.Fprintf(&b, "No sections for %s: no document is in scope (%s).\n", quoteQuery(req.Query), scopeWords(req.Scope))
	case shown == 0 && len(stale) > 0:
		fmt.Fprintf(&b, "No sections for %s in %d %s (ranked) that the index holds as they are now: the docs that matched changed since they were indexed (see Notes).\n",
			quoteQuery(req.Query), len(docs), wording.Plural(len(docs), "doc", "docs"))
	case shown == 0:
		fmt.Fprintf(&b, "No sections for %s in %d %s (ranked): none holds these words, or a form of them. Try other words, or mode \"string\".\n",
			quoteQuery(req.Query), len(docs), wording.Plural(len(docs), "doc", "docs"))
	default:
		// The question is not repeated: it is the answer's longest line
		// after the hits, and the agent that asked has it.
		fmt.Fprintf(&b, "%d %s of %d %s, ranked, best first\n", shown, wording.Plural(shown, "section", "sections"),
			len(docs), wording.Plural(len(docs), "doc", "docs"))
		b.WriteString(body.String())
	}
	for _, d := range stale {
		notes = append(notes, fmt.Sprintf("%s (%s) changed since the section index read it: its sections are left out of "+
			"ranked answers until the index catches up (a few seconds); mode \"string\" searches it as it is now", d.ID, d.Path))
	}
	shownDoc := func(p string) bool { _, ok := groupOf[p]; return ok } // groupOf holds the docs shown
	notes = append(domain.ShownNotes(cat.Notes, shownDoc, l.lib.Config().Commands.OrTools()), notes...)
	if data != nil {
		*data = Result{Query: req.Query, Mode: SearchRanked, Docs: len(docs), Hits: shown, HitDocs: len(groups), Shown: shown, Notes: notes}
		for _, g := range groups {
			data.Groups = append(data.Groups, g.data())
		}
	}
	wording.WriteNotes(&b, notes)
	return strings.TrimRight(b.String(), "\n"), nil
}

// rankedHits is a ranked section as the answer shows it: its range, and
// the lines that best answer the query (domain/passage, the index's best
// lines when none scores), at most nLines, in line order, less those
// a section of the doc shown above shows already (shown, which it adds
// its own to): a section and its subsection found both quote a line once.
// The best section (first) quotes each of them with the line that follows
// it (passage.Question.ShownFollowed); the others quote prose
// (passage.Question.ShownProse: a code line among their best is left out
// unless they have no prose among them), as librarian_ask's later
// passages do: the same tune facts in answers 2 to 10 % smaller, room for
// a close sixth section.
func rankedHits(s domain.RankedSection, q passage.Question, lines []string, from int, v *textmatch.Text, content []byte, shown map[int]bool, nLines, lineRunes int, first bool) sectionHits {
	choose := q.ShownProse
	if first {
		choose = q.ShownFollowed
	}
	best := choose(lines, from, s.End, nLines, s.Lines, shown)
	sh := sectionHits{sec: domain.Section{ID: s.SectionID, Start: s.Start, End: s.End}, lineRunes: lineRunes, from: from}
	for _, l := range best {
		h := hit{Line: l}
		// A long line is shown around where the question's words meet.
		if from, to, ok := q.WindowWithin(string(v.Line(content, l)), lineRunes-lineRunes/rankedHitBefore); ok {
			h.Start, h.End = from, to
		}
		sh.hits = append(sh.hits, h)
	}
	return sh
}

// textLines returns lines first..last of content, as passage reads them
// (lines[k-1] is line k; the lines before first are left empty).
func textLines(v *textmatch.Text, content []byte, first, last int) []string {
	lines := make([]string, min(last, v.Lines()))
	for k := max(first, 1); k <= len(lines); k++ {
		lines[k-1] = string(v.Line(content, k))
	}
	return lines
}

// withDefinitions returns a doc's shown sections with, before the first
// subsection of a parent that defines its name, that parent's defining
// line: a rule's "Options" list ("* `allowShortCircuit` set to `true` will
// allow ...") states what each option's own subsection only shows by
// example. The line is passage.DefiningLine's, among the parent's own
// lines (those before its first subsection); a parent's lines for several
// subsections are shown together, before the first of them (among the
// parent's own lines when the parent is shown itself), and a line shown
// already is not shown again (shown, which it adds to). The sections shown, their
// count and order are unchanged: the lines are context, as a table's header
// row is.
func withDefinitions(g docHits, q passage.Question, shown map[int]bool) []sectionHits {
	secs := g.p.Structure.Sections
	index := make(map[string]int, len(secs))
	for i, s := range secs {
		index[s.ID] = i
	}
	var lines []string      // the doc's, read when a subsection needs them
	defs := map[int][]int{} // parent section index -> its defining lines
	var order []int         // parents, before which shown section they go
	before := map[int]int{}
	for k, sh := range g.sections {
		i, ok := index[sh.sec.ID]
		if !ok || secs[i].Parent < 0 {
			continue
		}
		pi := secs[i].Parent
		own := g.p.Structure.OwnEnd(pi)
		if lines == nil {
			lines = textLines(g.v, g.p.Content, 1, g.v.Lines())
		}
		l := passage.DefiningLine(lines, secs[i].Heading, secs[pi].Start+1, own, shown)
		if l == 0 {
			continue
		}
		shown[l] = true
		if _, seen := defs[pi]; !seen {
			order = append(order, pi)
			before[pi] = k
		}
		defs[pi] = append(defs[pi], l)
	}
	if len(order) == 0 {
		return g.sections
	}
	// A long defining line is cut where the question's words meet, as a
	// section's own lines are, not at its start.
	defHit := func(l int) hit {
		h := hit{Line: l}
		if a, b, ok := q.WindowWithin(lines[l-1], rankedHitRunes-rankedHitRunes/rankedHitBefore); ok {
			h.Start, h.End = a, b
		}
		return h
	}
	shownItself := map[int]bool{} // parents that are among the shown sections
	for _, sh := range g.sections {
		if i, ok := index[sh.sec.ID]; ok {
			shownItself[i] = true
		}
	}
	var out []sectionHits
	for k, sh := range g.sections {
		for _, pi := range order {
			if before[pi] != k || shownItself[pi] {
				continue
			}
			defined := defs[pi]
			slices.Sort(defined)
			d := sectionHits{sec: secs[pi]}
			for _, l := range defined {
				d.hits = append(d.hits, defHit(l))
			}
			out = append(out, d)
		}
		// A parent shown itself takes its defining lines among its own:
		// its heading line is not repeated.
		if i, ok := index[sh.sec.ID]; ok && len(defs[i]) > 0 {
			sh.hits = slices.Clone(sh.hits)
			for _, l := range defs[i] {
				sh.hits = append(sh.hits, defHit(l))
			}
			slices.SortFunc(sh.hits, func(a, b hit) int { return a.Line - b.Line })
		}
		out = append(out, sh)
	}
	return out
}

// withOpening returns a doc's shown sections with, first, its opening
// (domain.Structure.Opening: the text before its first heading, or under
// its title) quoted by its line passage.Question.OpeningLine chooses, when
// no shown section holds it. The best doc's alone: tune +1 each way over
// both indexes, held out +1, answers 1 % larger. The sections shown, their
// count and order are unchanged, as withDefinitions' lines.
func withOpening(g docHits, q passage.Question, shown map[int]bool) []sectionHits {
	i, from, end, ok := g.p.Structure.Opening()
	if !ok || len(g.sections) == 0 {
		return g.sections
	}
	open := g.p.Structure.Sections[i]
	for _, sh := range g.sections {
		if sh.sec.Start <= end && sh.sec.End >= open.Start {
			return g.sections // shown already, or a section holding it
		}
	}
	best := g.sections[0].sec
	lines := textLines(g.v, g.p.Content, 1, max(end, best.End))
	l := q.OpeningLine(lines, from, end, max(best.Start, g.sections[0].from), best.End, shown)
	if l == 0 {
		return g.sections
	}
	sh := sectionHits{sec: domain.Section{ID: open.ID, Start: open.Start, End: end}, lineRunes: rankedHitRunes, from: from}
	h := hit{Line: l}
	if a, b, ok := q.WindowWithin(lines[l-1], rankedHitRunes-rankedHitRunes/rankedHitBefore); ok {
		h.Start, h.End = a, b
	}
	sh.hits = append(sh.hits, h)
	return append([]sectionHits{sh}, g.sections...)
}

// withElsewhere returns the best doc's shown sections with one more after
// its best: the doc's line that answers better than the best section's
// own (by passage.ElsewhereShare), outside every shown section
// (passage.Question.ElsewhereLine), under its own section's header, as
// librarian_ask quotes it: the doc answers, perhaps in a section its
// words name less often. own is how many of g.sections are the doc's
// shown sections (those before them are its opening's), shown how many
// sections the whole answer shows, lines the doc's text as ranking read
// it (textLines). As withOpening's line, it is context: the sections
// shown, their count and order are unchanged.
func withElsewhere(g docHits, lines []string, own, shown int, q passage.Question, shownLines map[int]bool) []sectionHits {
	if own == 0 || len(lines) == 0 {
		return g.sections
	}
	best := g.sections[len(g.sections)-own]
	quoted := func(l int) bool {
		for _, sh := range g.sections {
			if sh.sec.Start <= l && l <= sh.sec.End {
				return true
			}
		}
		return shownLines[l]
	}
	l := q.ElsewhereLine(lines, g.p.Structure.FrontmatterEnd+1, len(lines), max(best.sec.Start, best.from), best.sec.End, quoted, passage.ElsewhereShare(own, shown))
	if l == 0 {
		return g.sections
	}
	var sec domain.Section
	if i := domain.InnermostSection(g.p.Structure.Sections, l); i >= 0 {
		sec = g.p.Structure.Sections[i]
	}
	shownLines[l] = true
	sh := sectionHits{sec: sec, lineRunes: rankedHitRunes}
	h := hit{Line: l}
	if a, b, ok := q.WindowWithin(lines[l-1], rankedHitRunes-rankedHitRunes/rankedHitBefore); ok {
		h.Start, h.End = a, b
	}
	sh.hits = append(sh.hits, h)
	return slices.Insert(slices.Clone(g.sections), len(g.sections)-own+1, sh)
}

// rankedQuotedLines is how many lines the shown-th section (1 the best)
// quotes, scoring score against the best's best: rankedFirstLines, then
// rankedLines to the rankedFullSections-th, rankedLinesLater after; a weak
// section fewer (rankedWeakShare, rankedLateWeakShare): its first lines
// hold what it answers, if anything.
func rankedQuotedLines(shown int, score, best float64) int {
	switch {
	case shown == 1:
		return rankedFirstLines
	case shown <= rankedFullSections && !passage.CloseTo(score, best, rankedWeakShare):
		return min(rankedLines, rankedWeakLines)
	case shown <= rankedFullSections:
		return rankedLines
	case !passage.CloseTo(score, best, rankedLateWeakShare):
		return min(rankedLinesLater, rankedWeakLines-1)
	}
	return rankedLinesLater
}
