package localretrieval

import (
	"context"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/passage"
)

// withLinkedDefault sets, for a question asking what a setting is (a
// value, a default, where a thing goes: passage.Question.AsksSetting),
// the Linked line of the first passage whose quoted lines link, by a
// code name, to a setting's own doc or section (passage.OptionLinks):
// that setting's labelled default ("- **Default:** `10_000` in Node.js,
// `30_000` if `browser.enabled` is `true`"), read through the index, with
// its doc's path. Reference sites (VitePress, Docusaurus) give each
// setting a page whose default is stated in words no question shares,
// and name the setting in their guides by such a link ("can be configured
// globally with [`hookTimeout`](/config/hooktimeout)"): the guide is
// found, the page is not. One line an answer, once its passages are
// settled (withinBudget), so it takes no passage's place; none when a
// passage quotes the linked doc already.
func (e *Engine) withLinkedDefault(ctx context.Context, ps []quotedSection) {
	if len(ps) == 0 || ps[0].doc == nil {
		return
	}
	q := ps[0].doc.question
	quotedDoc := map[string]bool{}
	for _, p := range ps {
		quotedDoc[p.Path] = true
	}
	var links []passage.LinkAt
	for i, p := range ps {
		for _, n := range quotedLineNumbers(p) {
			if n >= 1 && n <= len(p.lines) {
				for _, l := range passage.OptionLinks(p.Path, p.lines[n-1]) {
					links = append(links, passage.LinkAt{At: i, Link: l})
				}
			}
		}
	}
	found, ok := q.FirstLinkedDefault(links, func(path string) bool { return quotedDoc[path] },
		func(path string) (domain.Structure, []string, bool) {
			ent, err := e.ix.Entry(ctx, path)
			if err != nil {
				return domain.Structure{}, nil, false
			}
			return ent.Structure, strings.Split(string(ent.Content), "\n"), true
		})
	if ok {
		ps[found.At].Linked = &quotedLine{N: found.Line, Text: quotedText(q, found.Lines[found.Line-1], maxQuotedLineLen), From: found.Path}
	}
}

// quotedLineNumbers are the lines of p's doc that p quotes, in the order
// the answer shows them.
func quotedLineNumbers(p quotedSection) []int {
	var out []int
	for _, l := range []*quotedLine{p.Opening, p.Elsewhere, p.Definition} {
		if l != nil {
			out = append(out, l.N)
		}
	}
	for _, l := range p.Quote {
		if l.From == "" {
			out = append(out, l.N)
		}
	}
	return out
}
