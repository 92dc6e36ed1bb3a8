package search

import (
	"context"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/wording"
)

// Result is search_documents' answer as data, for a script (the command
// line's search --json): the same hits, in the same order and under the
// same max_results, as the text answer shows, grouped by doc and by the
// section holding them.
type Result struct {
	Query     string // as asked
	Mode      string // SearchString, SearchRegex or SearchRanked
	WholeWord bool
	// Docs is how many docs were in scope; Hits how many hit lines
	// (ranked: sections) were found in all, HitDocs in how many docs;
	// Shown how many of them Groups holds (max_results cuts the rest).
	Docs, Hits, HitDocs, Shown int
	Groups                     []DocResult
	Notes                      []string
}

// DocResult is one doc's hits.
type DocResult struct {
	domain.Document
	Tokens int // the doc's ~tokens
	// Sections hold the hits, in the text answer's order: by line (ranked:
	// best section first).
	Sections []SectionResult
}

// SectionResult is a section with hits: its full id ("" for lines outside
// every section), line range and ~tokens.
type SectionResult struct {
	ID         string
	Start, End int
	Tokens     int
	Hits       []HitLine
}

// HitLine is one line shown for a hit: its number and text (a long line
// shortened around the match, as the text answer does), and, inside a
// fenced code block, that block's language ("" when it names none).
type HitLine struct {
	Line   int
	Text   string
	InCode bool
	Code   string
	// From, when set, is the library path of the file this line is of: a
	// file the section includes, shown in place of its including line.
	From string `json:",omitempty"`
}

// SearchData answers req as SearchDocuments does, as data. It checks and
// refuses what SearchDocuments refuses.
func (l *Searcher) SearchData(ctx context.Context, req SearchRequest) (Result, error) {
	var r Result
	_, err := l.search(ctx, req, &r)
	return r, err
}

// data is the group as a DocResult: its hits under their sections.
func (g docHits) data() DocResult {
	content, s := g.p.Content, g.p.Structure
	out := DocResult{Document: g.doc, Tokens: domain.DocTokens(g.doc, len(content))}
	line := func(h hit) HitLine {
		hl := HitLine{Line: h.Line, Text: trimAround(g.v.Line(content, h.Line), h.Start, h.End)}
		if cb := domain.CodeBlockAt(s.CodeBlocks, h.Line); cb >= 0 {
			hl.InCode = true
			if f := strings.Fields(s.CodeBlocks[cb].Info); len(f) > 0 {
				hl.Code = f[0]
			}
		}
		return hl
	}
	section := func(sec domain.Section) SectionResult {
		return SectionResult{ID: sec.ID, Start: sec.Start, End: sec.End, Tokens: domain.SectionTokens(sec, g.v.Starts(), len(content))}
	}
	if g.sections != nil {
		for _, sh := range g.sections {
			sr := section(sh.sec)
			for _, h := range sh.hits {
				sr.Hits = append(sr.Hits, line(h))
			}
			for _, ih := range sh.included {
				sr.Hits = append(sr.Hits, HitLine{Line: ih.line, Text: wording.Excerpt([]byte(ih.text), ih.start, ih.end, maxHitRunes, 3), From: ih.path})
			}
			out.Sections = append(out.Sections, sr)
		}
		return out
	}
	cur := -2
	for _, h := range g.hits {
		if i := domain.InnermostSection(s.Sections, h.Line); i != cur || len(out.Sections) == 0 {
			cur = i
			sr := SectionResult{}
			if i >= 0 {
				sr = section(s.Sections[i])
			}
			out.Sections = append(out.Sections, sr)
		}
		last := &out.Sections[len(out.Sections)-1]
		last.Hits = append(last.Hits, line(h))
	}
	return out
}
