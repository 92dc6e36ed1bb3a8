package search

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/passage"
)

// withLinkedDefault adds, for a question asking what a setting is (a
// value, a default, where a thing goes: passage.Question.AsksSetting), the
// labelled default of a setting a shown line links to by its code name
// (passage.OptionLinks), from the setting's own doc, after the linking
// section's lines (as an included file's lines are shown), as
// librarian_ask quotes it (localretrieval's withLinkedDefault): guides
// name a setting by a link to its page ("can be configured globally with
// [`hookTimeout`](/config/hooktimeout)"), whose "- **Default:**" line
// shares no word with the question. The link whose name holds most of the
// question's words first, then in the order shown; one line an answer,
// none when the linked doc is shown already. lines are the shown docs'
// lines, by path.
func (l *Searcher) withLinkedDefault(ctx context.Context, in *includes, groups []docHits, lines map[string][]string, q passage.Question) {
	if !q.AsksSetting() {
		return
	}
	shownDoc := map[string]bool{}
	for _, g := range groups {
		shownDoc[g.doc.Path] = true
	}
	type linkAt struct {
		g, s int
		link passage.OptionLink
	}
	var links []linkAt
	for gi, g := range groups {
		dl := lines[g.doc.Path]
		for si, sh := range g.sections {
			for _, h := range sh.hits {
				if h.Line >= 1 && h.Line <= len(dl) {
					for _, link := range passage.OptionLinks(g.doc.Path, dl[h.Line-1]) {
						links = append(links, linkAt{gi, si, link})
					}
				}
			}
		}
	}
	sort.SliceStable(links, func(i, j int) bool {
		return q.NameAsked(links[i].link.Name) > q.NameAsked(links[j].link.Name)
	})
	tried := map[string]bool{}
	for _, la := range links {
		for _, p := range la.link.Paths {
			key := p + "#" + la.link.Anchor
			if shownDoc[p] || tried[key] {
				continue
			}
			tried[key] = true
			i, ok := slices.BinarySearchFunc(in.docs, p, func(d domain.Document, p string) int { return strings.Compare(d.Path, p) })
			if !ok {
				continue
			}
			doc, err := l.lib.Open(ctx, in.docs[i])
			if err != nil {
				continue
			}
			dl := strings.Split(string(doc.Content), "\n")
			if k := passage.LinkedDefault(doc.Structure, dl, la.link.Anchor); k > 0 {
				ih := includedHit{path: p, line: k, text: strings.TrimRight(dl[k-1], "\r")}
				if a, b, ok := q.WindowWithin(ih.text, rankedHitRunes-rankedHitRunes/rankedHitBefore); ok {
					ih.start, ih.end = a, b
				}
				sh := &groups[la.g].sections[la.s]
				sh.included = append(sh.included, ih)
				return
			}
			break // the link's doc, with no default where it points
		}
	}
}
