package localretrieval

// Lines a passage quotes from elsewhere in its doc, as ranked
// search_documents shows them: the doc's opening line, the parent's line
// that defines the code name its heading names, and the doc's line from
// another section that answers better than the passage's own best.

import (
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/passage"
	"github.com/librarian/librarian/ports/sectionindex"
)

// quotedDoc is a doc an answer quotes: its index entry, its lines as the
// passages quote them, the lines quoted from it, and the question.
type quotedDoc struct {
	ent      sectionindex.Entry
	lines    []string
	shown    map[int]bool
	question passage.Question
}

// withOpening sets the first passage's Opening: the line of its doc's
// opening (domain.Structure.Opening: the text before its first heading or
// under its title) that passage.Question.OpeningLine chooses, when no
// passage quotes a line of it, as ranked search_documents shows it above
// its best doc's sections. Tune +1, held out +1 (both ways, both indexes).
func withOpening(p *quotedSection, ent sectionindex.Entry, lines []string, q passage.Question, shown map[int]bool, out []quotedSection) {
	i, from, to, ok := ent.Structure.Opening()
	if !ok {
		return
	}
	open := ent.Structure.Sections[i]
	for _, o := range out {
		if o.Path == p.Path && o.Start <= to && o.End >= open.Start {
			return // quoted already, or a passage holding it
		}
	}
	l := q.OpeningLine(lines, from, to, p.Start, p.End, shown)
	if l == 0 || l > len(lines) {
		return
	}
	p.Opening, p.OpeningIn = &quotedLine{N: l, Text: quotedText(q, lines[l-1], maxQuotedLineLen)}, open.ID
}

// withElsewhere sets the first passage's Elsewhere once the answer's
// passages are settled (withinBudget: the line does not take a later
// passage's place): the line of its doc that answers best outside every
// passage, when it answers better than the passage's own best by
// passage.ElsewhereShare (passage.Question.ElsewhereLine). Tune ask +5
// (+2 where the doc gives two passages or more, +1 for a lone passage, +2
// where it gives one of several), fresh +3, held out +2 (PostgreSQL the
// same); answers 2 % larger.
func withElsewhere(ps []quotedSection) {
	if len(ps) == 0 || ps[0].doc == nil {
		return
	}
	p, d := &ps[0], ps[0].doc
	same := 0
	for _, o := range ps {
		if o.Path == p.Path {
			same++
		}
	}
	// The lines the answer shows of the doc: those of its passages that
	// stay (d.shown also holds the lines of passages withinBudget left
	// out, which the answer does not show).
	kept := map[int]bool{}
	for _, o := range ps {
		if o.Path == p.Path {
			for _, l := range quotedLineNumbers(o) {
				kept[l] = true
			}
		}
	}
	quoted := func(l int) bool {
		for _, o := range ps {
			if o.Path == p.Path && o.Start <= l && l <= o.End {
				return true
			}
		}
		return kept[l]
	}
	l := d.question.ElsewhereLine(d.lines, d.ent.Structure.FrontmatterEnd+1, len(d.lines), p.Start, p.End, quoted, passage.ElsewhereShare(same, len(ps)))
	if l == 0 {
		return
	}
	if i := domain.InnermostSection(d.ent.Structure.Sections, l); i >= 0 {
		p.ElsewhereIn = d.ent.Structure.Sections[i].ID
	}
	d.shown[l] = true
	p.Elsewhere = &quotedLine{N: l, Text: quotedText(d.question, d.lines[l-1], maxQuotedLineLen)}
}

// withDefinition sets p's Definition: when its section's heading names a
// code name (an option), the line of its parent's own lines that defines
// it (a rule's Options list), unless a passage above quotes it (shown, to
// which it adds the line), as ranked search_documents shows it before the
// subsection. A long line is cut where the question's words meet, as the
// passage's own lines are (quotedText), not at its start: a rule's Options
// line names its options first and says what each does after ("`"props"`
// is `false` by default. If `"props"` is set to `true`, this rule warns
// against ..."). Tune ask 869 -> 870 (+1 -0), ranked and fresh12-14 the
// same, answers +0.01 %.
func withDefinition(p *quotedSection, ent sectionindex.Entry, lines []string, q passage.Question, shown map[int]bool) {
	secs := ent.Structure.Sections
	for _, sec := range secs {
		if sec.ID != p.SectionID || sec.Parent < 0 {
			continue
		}
		pi := sec.Parent
		if l := passage.DefiningLine(lines, sec.Heading, secs[pi].Start+1, ent.Structure.OwnEnd(pi), shown); l > 0 {
			shown[l] = true
			text := quotedText(q, lines[l-1], maxQuotedLineLen)
			p.Definition, p.DefinedIn = &quotedLine{N: l, Text: text}, secs[pi].ID
		}
		return
	}
}
