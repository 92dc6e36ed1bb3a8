package search

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/textmatch"
	"github.com/librarian/librarian/domain/wording"
)

// The shape of every search_documents answer, whatever found the hits (a
// string, a regex, the ranked index): per doc a group line with the doc's
// size, then its hit lines under the section that holds them, each section
// named once with its line range and size, so the agent can fetch exactly
// what it needs without asking for sizes first.
//
//	auth (backend/auth.md) ~353 tokens
//	§ refresh-tokens/rotation L18–38 ~210 tokens
//	L20- Rotation happens on every refresh:
//	L21: Every refresh returns a NEW refresh token
//	L26 [json code]: "refresh_token": "…"

// docHits is one doc's part of a search answer.
type docHits struct {
	doc  domain.Document
	p    *library.Doc
	v    *textmatch.Text
	hits []hit // in line order, one per line
	// sections, when set (ranked mode), are the sections to show, in this
	// order, each with its own lines; hits is then unused.
	sections []sectionHits
}

// sectionHits is one section a ranked answer shows, with its best lines.
type sectionHits struct {
	sec  domain.Section
	hits []hit // in line order, inside sec
	// lineRunes, when not 0, is how much of a long hit line this section
	// shows, instead of its style's.
	lineRunes int
	// from, when not 0, is the first line its hits may be at, before the
	// section's own: a doc's first section quotes its frontmatter's facts
	// (passage.WithFrontmatter).
	from int
	// included are lines of files the section includes, shown after its
	// own, in place of its including lines (withIncluded).
	included []includedHit
}

// hitStyle is what a search request asks of the answer's shape.
type hitStyle struct {
	// context is how many lines around each hit are shown (grep -C).
	context int
	// tagFilter is the request's tags filter: a group line names the ones
	// the doc carries. Without a filter no tags are shown (see README: a
	// doc's inherited tags cost ~16% of an answer and answer nothing a
	// search asked).
	tagFilter []string
	// lineRunes is how much of a long hit line is shown (0: maxHitRunes),
	// 1/before of it before the match (0: a third).
	lineRunes, before int
}

// writeDocHits renders one doc's group: its line, then the shown lines
// (hits, their context, the header rows of tables hits are in), as runs
// merged like grep -C's. A hit line reads `L21: text`, a line shown
// around it `L20- text`, and runs apart are separated by `--` when
// context was asked for. When the section holding the next line shown
// changes, a `§ id Lfrom–to ~N tokens` line names it (its sizes the first
// time only). A hit inside a fenced code block says so: `L26 [json code]:`;
// one in the frontmatter too: `L3 [frontmatter]:`.
// With sections (ranked), each is named in the order given and its lines
// follow, clamped to it.
func writeDocHits(b *strings.Builder, g docHits, st hitStyle) {
	fmt.Fprintf(b, "%s (%s) ~%d tokens", g.doc.ID, g.doc.Path, domain.DocTokens(g.doc, len(g.p.Content)))
	if len(st.tagFilter) > 0 {
		var carried []string
		for _, t := range g.doc.Tags {
			if domain.HasAnyTag([]string{t}, st.tagFilter) {
				carried = append(carried, t)
			}
		}
		if len(carried) > 0 {
			fmt.Fprintf(b, " · tags: %s", strings.Join(carried, ", "))
		}
	}
	b.WriteString("\n")
	w := &hitWriter{b: b, g: g, st: st, named: map[int]bool{}, cur: -2}
	first, last := g.p.Structure.FrontmatterEnd+1, len(g.v.Starts())
	if g.sections == nil {
		w.run(g.hits, first, last)
		return
	}
	w.fixed = true
	for _, sh := range g.sections {
		writeSectionLine(b, sh.sec, g.v, len(g.p.Content), true)
		w.st.lineRunes = cmp.Or(sh.lineRunes, st.lineRunes)
		w.run(sh.hits, cmp.Or(sh.from, max(first, sh.sec.Start)), min(last, sh.sec.End))
		for _, ih := range sh.included {
			fmt.Fprintf(b, "L%d (%s): %s\n", ih.line, ih.path, wording.ExcerptOrWhole([]byte(ih.text), ih.start, ih.end, cmp.Or(w.st.lineRunes, maxHitRunes), cmp.Or(st.before, 3)))
		}
	}
}

// hitWriter writes the lines of one doc's group.
type hitWriter struct {
	b     *strings.Builder
	g     docHits
	st    hitStyle
	fixed bool         // the section is named by the caller: no § lines here
	named map[int]bool // sections whose sizes were shown
	cur   int          // the section of the last line shown; -2: none yet
}

// run writes hits (in line order, within [first, last]) with their context
// and table header rows.
func (w *hitWriter) run(hits []hit, first, last int) {
	content, s := w.g.p.Content, w.g.p.Structure
	text := func(line int) string { return string(w.g.v.Line(content, line)) }
	hitAt := make(map[int]hit, len(hits))
	lines := make([]int, 0, len(hits))
	var headers []int
	for _, h := range hits {
		if h.Line < first || h.Line > last {
			continue
		}
		hitAt[h.Line] = h
		lines = append(lines, h.Line)
		if domain.CodeBlockAt(s.CodeBlocks, h.Line) >= 0 {
			continue
		}
		if row, ok := domain.TableHeaderRow(h.Line, max(s.FrontmatterEnd, first-1), text); ok {
			headers = append(headers, row)
		}
	}
	for wi, win := range domain.HitWindows(lines, headers, w.st.context, first, last) {
		if wi > 0 && w.st.context > 0 && (w.fixed || domain.InnermostSection(s.Sections, win.From) == w.cur) {
			w.b.WriteString("--\n")
		}
		for line := win.From; line <= win.To; line++ {
			if sec := domain.InnermostSection(s.Sections, line); !w.fixed && sec != w.cur {
				w.cur = sec
				if sec >= 0 {
					writeSectionLine(w.b, s.Sections[sec], w.g.v, len(content), !w.named[sec])
					w.named[sec] = true
				}
			}
			h, isHit := hitAt[line]
			if !isHit {
				fmt.Fprintf(w.b, "L%d-", line)
				if t := trimAround(w.g.v.Line(content, line), 0, 0); t != "" {
					w.b.WriteString(" ")
					w.b.WriteString(t)
				}
				w.b.WriteString("\n")
				continue
			}
			fmt.Fprintf(w.b, "L%d", line)
			if cb := domain.CodeBlockAt(s.CodeBlocks, line); cb >= 0 {
				writeCodeMark(w.b, s.CodeBlocks[cb])
			} else if line <= s.FrontmatterEnd {
				w.b.WriteString(" [frontmatter]") // a fact a doc's first section quotes (passage.WithFrontmatter)
			}
			excerpt := wording.Excerpt
			if w.fixed { // a ranked answer's line: whole when a little too long (wording.AnswerSlack)
				excerpt = wording.ExcerptOrWhole
			}
			fmt.Fprintf(w.b, ": %s\n", excerpt(w.g.v.Line(content, line), h.Start, h.End, cmp.Or(w.st.lineRunes, maxHitRunes), cmp.Or(w.st.before, 3)))
		}
	}
}

// writeSectionLine names a section: `§ id L18–38 ~210 tokens`, or only
// `§ id` when its sizes were shown already.
func writeSectionLine(b *strings.Builder, sec domain.Section, v *textmatch.Text, size int, sizes bool) {
	b.WriteString("§ ")
	b.WriteString(sec.ID)
	if sizes {
		fmt.Fprintf(b, " %s ~%d tokens", wording.LineSpan(sec.Start, sec.End), domain.SectionTokens(sec, v.Starts(), size))
	}
	b.WriteString("\n")
}

// writeCodeMark says a hit is code, inside its line's prefix: ` [go code]`,
// or ` [code]` for a block with no info string.
func writeCodeMark(b *strings.Builder, cb domain.CodeBlock) {
	b.WriteString(" [")
	if f := strings.Fields(cb.Info); len(f) > 0 {
		b.WriteString(f[0])
		b.WriteString(" ")
	}
	b.WriteString("code]")
}
