package localretrieval

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/domain/passage"
	"github.com/librarian/librarian/domain/wording"
)

// The briefing's size: what it lists and the token budget of its text.
const (
	BriefTokens      = 1500
	briefSections    = 24
	briefDocs        = 8
	briefDocSections = 3
	briefReadFirst   = 3
	briefTermChecks  = 12
	// briefLineLen is the longest line a doc of the brief is quoted by
	// (its best section's best line).
	briefLineLen = 160
)

// Brief implements retrieval.Answerer: what the library has on the task
// (docs and their best sections, by relevance, with sizes), what to read
// first as one get_documents call, what agents told about it, and the
// task's words the library has nothing on; at most BriefTokens tokens.
func (e *Engine) Brief(ctx context.Context, q knowledge.BriefQuery) (_ knowledge.EngineAnswer, err error) {
	defer e.contain("brief", &err)
	task := strings.TrimSpace(q.Task)
	if err := checkText("task", q.Task, MaxQueryBytes, "say what you are about to do"); err != nil {
		return knowledge.EngineAnswer{}, err
	}
	if err := e.prepare(ctx); err != nil {
		return knowledge.EngineAnswer{}, err
	}
	g, excludes, err := e.guidanceFor(ctx, q.Tags.Session)
	if err != nil {
		return knowledge.EngineAnswer{}, err
	}
	secs, err := e.ix.Ranked(ctx, domain.RankedQuery{Text: task, Limit: briefSections})
	if err != nil {
		return knowledge.EngineAnswer{}, fmt.Errorf("index ranked search: %w", err)
	}
	type docHits struct {
		doc   domain.Document
		secs  []domain.RankedSection
		score float64 // the best section's score, plus half of each other's
	}
	var docs []*docHits
	byPath := map[string]*docHits{}
	excluded := 0
	for _, s := range secs {
		if excludes.Match(s.Path) != "" {
			excluded++
			continue
		}
		d := byPath[s.Path]
		if d == nil {
			doc, ok := e.docByPath(ctx, s.Path)
			if !ok {
				doc = domain.Document{ID: s.Path, Path: s.Path}
			}
			d = &docHits{doc: doc}
			byPath[s.Path] = d
			docs = append(docs, d)
		}
		if len(d.secs) == 0 {
			d.score = s.Score
		} else {
			d.score += s.Score / 2
		}
		d.secs = append(d.secs, s)
	}
	// A doc with several matching sections is about the task more than one
	// whose title alone matches: docs go by their sections' scores together.
	sort.SliceStable(docs, func(i, j int) bool { return docs[i].score > docs[j].score })
	// The docs that may be shown, read once: their sections' sizes, and the
	// words they hold.
	content := map[string][]byte{}
	var known strings.Builder
	for i, d := range docs {
		if i == briefDocs {
			break
		}
		if ent, err := e.ix.Entry(ctx, d.doc.Path); err == nil {
			content[d.doc.Path] = ent.Content
			known.WriteString(strings.ToLower(ent.Doc.Title + "\n" + string(ent.Content)))
		}
	}
	missing, err := e.missingTerms(ctx, task, known.String())
	if err != nil {
		return knowledge.EngineAnswer{}, err
	}
	told, err := e.toldFor(ctx, task, 3)
	if err != nil {
		return knowledge.EngineAnswer{}, err
	}

	question := passage.NewQuestion(task)
	var b strings.Builder
	budget := BriefTokens * 4 // bytes
	fmt.Fprintf(&b, "Brief for %q (from the library, by relevance):\n", wording.OneLine(task, 200))
	if len(docs) == 0 {
		b.WriteString("\nThe library has nothing on this task.\n")
	} else {
		b.WriteString("\nWhat the library has:\n")
	}
	var readFirst []string
	var served []string
	shown := 0
	for i, d := range docs {
		if i == briefDocs || b.Len() > budget*3/4 {
			break
		}
		shown++
		served = append(served, d.doc.Path)
		tokens := d.doc.Tokens
		if !d.doc.HasTokens {
			tokens = domain.EstimateTokens(d.doc.Stamp.Size)
		}
		line := fmt.Sprintf("%d. %s (%s) ~%d tokens", i+1, d.doc.ID, d.doc.Path, tokens)
		if d.doc.Title != "" {
			line += ": " + wording.OneLine(d.doc.Title, 100)
		}
		if d.doc.Summary != "" {
			line += " — " + wording.OneLine(d.doc.Summary, 160)
		}
		b.WriteString(line + "\n")
		var parts []string
		for j, s := range d.secs {
			if j == briefDocSections {
				break
			}
			part := fmt.Sprintf("§ %s L%d–%d", s.SectionID, s.Start, s.End)
			if c, ok := content[s.Path]; ok {
				part += fmt.Sprintf(" ~%d tokens", sectionTokens(c, s.Start, s.End))
			}
			parts = append(parts, part)
		}
		b.WriteString("   " + strings.Join(parts, " · ") + "\n")
		if c, ok := content[d.doc.Path]; ok {
			if n, text, ok := briefLine(question, c, d.secs[0]); ok {
				fmt.Fprintf(&b, "   L%d: %s\n", n, text)
			}
		}
	}
	for _, s := range secs {
		if len(readFirst) == briefReadFirst {
			break
		}
		if excludes.Match(s.Path) == "" {
			readFirst = append(readFirst, selector(byPath[s.Path].doc.ID, s.SectionID))
		}
	}
	if more := len(docs) - shown; more > 0 {
		fmt.Fprintf(&b, "(%d more docs match; narrow the task, or ask about one part with librarian_ask)\n", more)
	}
	if len(readFirst) > 0 {
		fmt.Fprintf(&b, "\nRead first: get_documents [%s]\n", strings.Join(readFirst, ", "))
	}
	if len(told) > 0 {
		b.WriteString("\nTold by agents (not in the docs):\n")
		for _, k := range told {
			var one strings.Builder
			writeTold(&one, k)
			if b.Len()+one.Len() > budget {
				break
			}
			b.WriteString(one.String())
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(&b, "\nNothing in the library on: %s\n", strings.Join(missing, ", "))
	}
	if excluded > 0 {
		fmt.Fprintf(&b, "\n(%d sections excluded by this session's guidance)\n", excluded)
	}
	e.log(ctx, "brief", task, q.Tags, served, g, excluded, Provider)
	return knowledge.EngineAnswer{Text: strings.TrimRight(b.String(), "\n"), Provider: Provider}, nil
}

// briefLine is the line of section s (of a doc's content) that best
// answers the task, as librarian_ask and ranked search_documents choose
// lines (passage.Question.Best; the index's best line when none holds a
// word of the task), a long one cut to briefLineLen around where the
// task's words meet.
func briefLine(q passage.Question, content []byte, s domain.RankedSection) (int, string, bool) {
	lines := strings.Split(string(content), "\n")
	best := q.Best(lines, s.Start, s.End, 1)
	if len(best) == 0 {
		best = s.Lines
	}
	if len(best) == 0 || best[0] < 1 || best[0] > len(lines) {
		return 0, "", false
	}
	text := strings.TrimSpace(strings.TrimRight(lines[best[0]-1], "\r"))
	if len(text) > briefLineLen {
		from, to, _ := q.WindowWithin(text, briefLineLen-briefLineLen/6)
		text = wording.Excerpt([]byte(text), from, to, briefLineLen, 6)
	}
	return best[0], text, text != ""
}

// missingTerms are the task's words that no section of the library
// matches (each searched alone, stemmed as the index stems). A word that
// starts a word of known (the text of the docs already shown, lower case)
// is there: only the others are searched for, and those are rare by then,
// so their searches are short.
func (e *Engine) missingTerms(ctx context.Context, task, known string) ([]string, error) {
	var missing []string
	for _, t := range queryTerms(task, briefTermChecks) {
		if startsAWord(known, stem(t)) {
			continue
		}
		hits, err := e.ix.Ranked(ctx, domain.RankedQuery{Text: t, Limit: 1})
		if err != nil {
			return nil, fmt.Errorf("index ranked search: %w", err)
		}
		if len(hits) == 0 {
			missing = append(missing, t)
		}
	}
	return missing, nil
}
