package localretrieval

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/sectionindex"
)

// Scores of locate's candidates: an exact name beats every partial one,
// and a name the docs define beats one found through a ranked section.
const (
	scoreExact      = 1000
	scoreExactWords = 900 // the query's words spelled as an identifier
	scorePartial    = 500
	scoreRanked     = 300
	scoreHeadingHit = 250
)

// kindBoost orders hits of equal standing: definitions, then headings,
// then mentions of files.
var kindBoost = map[string]float64{
	domain.NameFunction: 30, domain.NameClass: 30, domain.NameType: 28, domain.NameRoute: 30, domain.NameConstant: 26,
	domain.NameConfigKey: 26, domain.NameFlag: 24, domain.NameTerm: 23, domain.NameVariable: 20, "entry": 22, domain.NameHeading: 15, domain.NameFile: 10,
}

type locateCand struct {
	hit   knowledge.Hit
	score float64
}

// Locate implements retrieval.Finder: the names the docs define or
// document (extract.Names' kinds), catalog entries (docs, kind
// "entry", with the docs they link to as depends_on), and, for a question
// in words, the names and headings of the best-ranked sections.
func (e *Engine) Locate(ctx context.Context, q knowledge.LocateQuery) (_ knowledge.Locations, err error) {
	defer e.contain("locate", &err)
	query := strings.TrimSpace(q.Query)
	if err := checkText("q", q.Query, MaxQueryBytes, "name a function, route, config key, entry or file"); err != nil {
		return knowledge.Locations{}, err
	}
	limit, footer := q.Limit, ""
	switch {
	case limit <= 0:
		limit = DefaultLocateLimit
	case limit > MaxLocateLimit:
		footer = fmt.Sprintf("(limit %d is over the local engine's %d: %d hits at most)", limit, MaxLocateLimit, MaxLocateLimit)
		limit = MaxLocateLimit
	}
	if err := e.prepare(ctx); err != nil {
		return knowledge.Locations{}, err
	}
	g, excludes, err := e.guidanceFor(ctx, q.Tags.Session)
	if err != nil {
		return knowledge.Locations{}, err
	}
	cands, err := e.locateCandidates(ctx, query, limit)
	if err != nil {
		return knowledge.Locations{}, err
	}
	loc := knowledge.Locations{Source: Source, Footer: footer}
	stale := map[string]bool{}
	var served []string
	for _, c := range cands {
		if excludes.Match(c.hit.File) != "" {
			loc.ExcludedHits++
			continue
		}
		if len(loc.Hits) == limit {
			continue
		}
		h := c.hit
		isStale, seen := stale[h.File]
		if !seen {
			isStale = e.isStale(ctx, h.File)
			stale[h.File] = isStale
		}
		h.Stale = isStale
		loc.Hits = append(loc.Hits, h)
		served = append(served, fmt.Sprintf("%s:%d", h.File, h.Line))
	}
	e.log(ctx, "locate", query, q.Tags, served, g, loc.ExcludedHits, "")
	return loc, nil
}

// locateCandidates gathers and orders every candidate hit for query.
func (e *Engine) locateCandidates(ctx context.Context, query string, limit int) ([]locateCand, error) {
	best := map[string]locateCand{}
	add := func(h knowledge.Hit, score float64) {
		score += kindBoost[h.Kind]
		k := fmt.Sprintf("%s\x00%s\x00%s\x00%d", h.Kind, h.Name, h.File, h.Line)
		if c, ok := best[k]; !ok || c.score < score {
			best[k] = locateCand{hit: h, score: score}
		}
	}
	want := limit * 3
	exactFound := false
	names := func(text string, exact, partial float64) error {
		hits, err := e.ix.Names(ctx, text, want)
		if err != nil {
			return fmt.Errorf("index names: %w", err)
		}
		for i, n := range hits {
			exactFound = exactFound || n.Exact
			score := partial - float64(i)/float64(want+1) - lengthPenalty(n.Name.Name, text)
			if n.Exact {
				score = exact - float64(i)/float64(want+1)
			}
			add(knowledge.Hit{Kind: n.Kind, Name: n.Name.Name, File: n.Path, Line: n.Line, Signature: n.Signature}, score)
		}
		return nil
	}
	if err := names(query, scoreExact, scorePartial); err != nil {
		return nil, err
	}
	words := queryTerms(query, 8)
	if err := e.entryCandidates(ctx, query, words, add); err != nil {
		return nil, err
	}
	// A name (one word) found exactly needs no ranked search: that search
	// is for questions in words.
	whole := false // a name holding every word of the query was found
	if !exactFound || len(strings.Fields(query)) > 1 {
		var err error
		if whole, err = e.rankedCandidates(ctx, query, words, add); err != nil {
			return nil, err
		}
	}
	// The query's words spelled as code, and the code-like words in it,
	// only when nothing found so far is named by them: each is one more
	// scan of the names.
	if !exactFound && !whole {
		for _, v := range identifierVariants(words) {
			if err := names(v, scoreExactWords, scorePartial-50); err != nil {
				return nil, err
			}
		}
		for _, id := range identifiersIn(query) {
			if id != query {
				if err := names(id, scoreExactWords+20, scorePartial-20); err != nil {
					return nil, err
				}
			}
		}
	}
	out := make([]locateCand, 0, len(best))
	for _, c := range best {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if a.hit.File != b.hit.File {
			return a.hit.File < b.hit.File
		}
		return a.hit.Line < b.hit.Line
	})
	return out, nil
}

// lengthPenalty ranks a partial match that is mostly the query above one
// that only contains it.
func lengthPenalty(name, query string) float64 {
	extra := len(name) - len(query)
	if extra < 0 {
		extra = -extra
	}
	return min(float64(extra), 100) / 2
}

// entryCandidates: docs named by the query (id, path, file name or
// title), as catalog entries with what they link to.
func (e *Engine) entryCandidates(ctx context.Context, query string, words []string, add func(knowledge.Hit, float64)) error {
	docs, err := e.lowerDocs(ctx)
	if err != nil {
		return err
	}
	low := strings.ToLower(query)
	joined := strings.Join(words, "-")
	type match struct {
		doc   domain.Document
		score float64
	}
	var matches []match
	for _, d := range docs {
		switch {
		case d.id == low || d.path == low || d.base == low || d.title == low:
			matches = append(matches, match{d.doc, scoreExact})
		case joined != "" && (d.base == joined || strings.HasSuffix(d.id, "/"+joined)):
			matches = append(matches, match{d.doc, scoreExactWords})
		case len(low) >= 3 && (strings.Contains(d.id, low) || strings.Contains(d.title, low)):
			matches = append(matches, match{d.doc, scorePartial - lengthPenalty(d.id, low)})
		}
	}
	sort.SliceStable(matches, func(i, j int) bool { return matches[i].score > matches[j].score })
	if len(matches) > 20 {
		matches = matches[:20]
	}
	for _, m := range matches {
		deps, err := e.linkIDs(ctx, m.doc.Path)
		if err != nil {
			return err
		}
		add(knowledge.Hit{Kind: "entry", Name: m.doc.ID, File: m.doc.Path, Line: 1, DependsOn: deps}, m.score)
	}
	return nil
}

// linkIDs are the ids of the docs the doc at path links to.
func (e *Engine) linkIDs(ctx context.Context, path string) ([]string, error) {
	ent, err := e.ix.Entry(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("index entry %s: %w", path, err)
	}
	var ids []string
	for _, p := range ent.Links {
		ids = append(ids, e.docID(ctx, p))
	}
	return ids, nil
}

// rankedCandidates: for a query in words, the names defined in the best
// sections (those that share a word with the query first) and the
// sections' own headings. whole reports a name holding every word.
func (e *Engine) rankedCandidates(ctx context.Context, query string, words []string, add func(knowledge.Hit, float64)) (whole bool, err error) {
	secs, err := e.ix.Ranked(ctx, domain.RankedQuery{Text: query, Limit: 5})
	if err != nil {
		return false, fmt.Errorf("index ranked search: %w", err)
	}
	entries := map[string]sectionindex.Entry{}
	for rank, s := range secs {
		ent, ok := entries[s.Path]
		if !ok {
			if ent, err = e.ix.Entry(ctx, s.Path); err != nil {
				continue // removed since the search: nothing to show
			}
			entries[s.Path] = ent
		}
		bonus := -20 * float64(rank)
		heading := ""
		for _, sec := range ent.Structure.Sections {
			if sec.ID == s.SectionID {
				heading = sec.Heading
			}
		}
		if heading != "" {
			add(knowledge.Hit{Kind: domain.NameHeading, Name: heading, File: s.Path, Line: s.Start, Signature: "§ " + s.SectionID}, scoreHeadingHit+bonus)
		} else {
			add(knowledge.Hit{Kind: "section", Name: s.SectionID, File: s.Path, Line: s.Start, Signature: "§ " + s.SectionID}, scoreHeadingHit+bonus-10)
		}
		for _, n := range ent.Names {
			if n.Line < s.Start || n.Line > s.End || n.Kind == domain.NameHeading {
				continue
			}
			share := termScore(words, n.Name+" "+n.Signature)
			if share == 0 {
				continue
			}
			whole = whole || termScore(words, splitName(n.Name)) == 1
			add(knowledge.Hit{Kind: n.Kind, Name: n.Name, File: s.Path, Line: n.Line, Signature: n.Signature}, scoreRanked+bonus+60*share)
		}
	}
	return whole, nil
}

// isStale reports whether the file at path changed since it was indexed
// (or is gone); false when the engine cannot tell.
func (e *Engine) isStale(ctx context.Context, path string) bool {
	if e.library == nil {
		return false
	}
	d, ok := e.docByPath(ctx, path)
	if !ok {
		return false
	}
	now, err := e.library.Stat(ctx, path)
	if err != nil {
		return true
	}
	// A doc indexed within a tick of its last edit is stored under an
	// unsettled stamp: its bytes are still the file's while the file's
	// stamp is the settled one.
	return !now.Equal(d.Stamp.Settled())
}
