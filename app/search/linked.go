package search

import (
	"context"
	"slices"
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
	shownDoc := map[string]bool{}
	for _, g := range groups {
		shownDoc[g.doc.Path] = true
	}
	type place struct{ g, s int }
	var places []place
	var links []passage.LinkAt
	for gi, g := range groups {
		dl := lines[g.doc.Path]
		for si, sh := range g.sections {
			for _, h := range sh.hits {
				if h.Line >= 1 && h.Line <= len(dl) {
					for _, link := range passage.OptionLinks(g.doc.Path, dl[h.Line-1]) {
						links = append(links, passage.LinkAt{At: len(places), Link: link})
						places = append(places, place{gi, si})
					}
				}
			}
		}
	}
	found, ok := q.FirstLinkedDefault(links, func(p string) bool { return shownDoc[p] },
		func(p string) (domain.Structure, []string, bool) {
			i, ok := slices.BinarySearchFunc(in.docs, p, func(d domain.Document, p string) int { return strings.Compare(d.Path, p) })
			if !ok {
				return domain.Structure{}, nil, false
			}
			doc, err := l.lib.Open(ctx, in.docs[i])
			if err != nil {
				return domain.Structure{}, nil, false
			}
			return doc.Structure, strings.Split(string(doc.Content), "\n"), true
		})
	if !ok {
		return
	}
	ih := includedHit{path: found.Path, line: found.Line, text: strings.TrimRight(found.Lines[found.Line-1], "\r")}
	if a, b, ok := q.WindowWithin(ih.text, rankedHitRunes-rankedHitRunes/rankedHitBefore); ok {
		ih.start, ih.end = a, b
	}
	at := places[found.At]
	sh := &groups[at.g].sections[at.s]
	sh.included = append(sh.included, ih)
}
