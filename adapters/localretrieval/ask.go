package localretrieval

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/include"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/domain/passage"
	"github.com/librarian/librarian/domain/wording"
	"github.com/librarian/librarian/ports/sectionindex"
)

// quotedSection is one section quoted in an answer: where it is and its best
// lines, as the file's own lines.
type quotedSection struct {
	DocID, Path, SectionID, Heading string
	Start, End                      int
	Tokens                          int
	Score                           float64
	// Share is the section's Rank score as a share of the best passage's.
	Share float64
	Quote []quotedLine
	// Definition, when set, is the line of the parent section that defines
	// the code name this section's heading names (passage.DefiningLine),
	// quoted before the section's own lines.
	Definition *quotedLine
	DefinedIn  string // the parent section's id
	// Opening, when set (the first passage only), is the best line of
	// its doc's opening (domain.Structure.Opening), which no passage
	// quotes: what holds for the whole doc.
	Opening   *quotedLine
	OpeningIn string // the opening's section id
	// Elsewhere, when set (the first passage only), is the line of its
	// doc outside every passage that answers better than the passage's
	// own best (passage.Question.ElsewhereLine), with its section's id.
	Elsewhere   *quotedLine
	ElsewhereIn string
	// Linked, when set, is the labelled default of a setting one of the
	// passage's lines links to, from the setting's own doc (its library
	// path in From): withLinkedDefault.
	Linked *quotedLine
	// doc is what the passage was quoted from, for withElsewhere.
	doc *quotedDoc
	// lines are the passage's doc's lines, as quoted (withLinkedDefault
	// reads its quoted lines' links whole).
	lines []string
}

type quotedLine struct {
	N    int
	Text string
	// From, when set, is the library path of the file whose line N this
	// is: a file the section's line includes (withIncluded).
	From string
}

// How much an answer quotes: the sections ranked search_documents would
// show first, with the same lines (passage.Question.Shown), fewer of them.
// Decided on the fact eval's tune sets (app/appfx TestFactEval): the
// earlier passages (two a doc at most, up to eight lines with context each)
// held fewer facts in more tokens; a fourth passage always held more facts
// but grew the answers past the sizes issue 21 keeps them under, so a
// fourth and fifth come only while the answer is short.
const (
	followUpTerms = 3 // a discuss message with fewer content words is a follow-up
	askPassages   = 3 // passages quoted whenever the index finds them
	// askMorePassages is the most passages an answer quotes: those past
	// askPassages by askTailLines lines each, and only while the whole
	// answer stays within askBudgetBytes (about 350 tokens). The sixth
	// only when it scores close to the best (passage.CloseToBest), as
	// ranked search_documents shows a sixth section: of the tune questions
	// ranked search answers and librarian_ask did not, five had the fact
	// in that sixth section.
	askMorePassages = 6
	askTailLines    = 2
	// askWeakShare: a second or third passage scoring under this share of
	// the best (passage.Question.Rank) quotes askTailLines lines, as the
	// later passages do, not passage.SectionLines. Most answers are past
	// askBudgetBytes with their first three passages (the median answer
	// that quotes three of five found is 1,884 bytes), so the fourth and
	// fifth, close to the best, were left out while a weak third passage's
	// third line held few facts (on the tune sets, one answered fact in
	// six of passages 2-3 was theirs alone).
	askWeakShare = 0.8
	// askFirstLines is how many lines the best passage quotes, one more
	// than the others (as ranked search's best section): three in four
	// answered facts are in it. On the fact eval's tune sets 159 -> 160 of
	// 198 (PostgreSQL 146 -> 147); held out 147 -> 149 of 203 (134 -> 137).
	askFirstLines = 4
	// loneFirstLines is askFirstLines when the index finds one passage
	// only: it has the whole budget (a one-section doc such as Svelte's
	// {@debug}, whose rule line a four-line quote left out). Tune +1,
	// fresh14 +2, held out ask 331 -> 332 (12: the same tune, fresh14 +3).
	loneFirstLines = 8
	// askBudgetBytes: 1,600 until askMostBytes rose to 3,500; 1,400 keeps
	// the median answer where it was (held out 1,756 -> 1,753 bytes), the
	// answers past it longer (the mean +3 %, the tenth longest 2,720 ->
	// 3,015 bytes). On tune, 1,600 held the same facts in answers 1 %
	// larger, 1,200 the same facts 0.3 % smaller than 1,400.
	askBudgetBytes = 1400
	// A fourth or fifth passage whose Rank score is close to the best
	// one's (askKeepShare of it) is quoted past askBudgetBytes,
	// while the answer stays within askMostBytes: the ranking cannot tell
	// it from the passages above. Decided on the tune sets with
	// ShownProse for the passages after the first (their code lines, an
	// eighth of the answers, left out): at 0.85 and 3,200 bytes 410 -> 415
	// of 498. Then, the answer no longer ending with a get_documents call
	// for all its sections (an eighth of its bytes, each passage's header
	// names its doc and section): at 0.75 and 2,800 bytes 415 -> 420
	// (PostgreSQL 418 -> 421), the median answer 428 -> 419 tokens, the
	// mean 448 -> 430 (0.8: 418; 0.7: 421, median 435; 0.65: 423, 447).
	// Then, with weak second and third passages quoting fewer lines
	// (askWeakShare) and a close sixth passage: 0.7 (askKeepShare), the
	// bytes those lines left paying for the fourth and fifth passages
	// scoring 0.7 to 0.75 of the best. Then 3,500 (2,800 before), with
	// askBudgetBytes 1,400: of the tune questions ranked search answered
	// and librarian_ask did not, most had answers of 2,300 to 2,900
	// bytes whose fact's passage, fourth to sixth and close to the best,
	// went past 2,800. Tune ask 884 -> 889, held out 339 -> 342
	// (PostgreSQL 337 -> 338), fresh15 +1, in answers 3 % larger on the
	// mean, the median the same (3,100: +1 on tune; 3,300: +3; 3,500
	// with askKeepShare 0.75: +4 -3).
	askMostBytes = 3500
	askKeepShare = 0.7
	// askCandidates are the sections asked of the index, as ranked
	// search_documents asks for its five.
	askCandidates    = 15
	maxQuotedLineLen = 200
	// firstQuotedLineLen is maxQuotedLineLen for the first passage's
	// lines, the likeliest to hold the answer, as ranked search shows its
	// best section's (a fact stated late in a long sentence).
	firstQuotedLineLen = 300
	weakPassageFactor  = 0.5 // a passage scoring under this share of the best one (passage.Question.Rank) is left out
)

// Ask implements retrieval.Answerer: the few sections that answer best,
// trimmed to their best lines, and what agents told that matches. With a
// history (librarian_discuss), the last questions asked carry the topic of
// a follow-up (a message of fewer than followUpTerms content words, or one
// that finds nothing alone): the search reads it together with them.
func (e *Engine) Ask(ctx context.Context, q knowledge.AskQuery) (_ knowledge.EngineAnswer, err error) {
	defer e.contain("ask", &err)
	query := strings.TrimSpace(q.Query)
	if err := checkText("query", q.Query, MaxQueryBytes, "ask a question"); err != nil {
		return knowledge.EngineAnswer{}, err
	}
	for i, t := range q.History {
		if t.Role != "user" && t.Role != "assistant" {
			return knowledge.EngineAnswer{}, invalid("history[%d].role is %q: it is \"user\" or \"assistant\"", i, t.Role)
		}
	}
	if err := e.prepare(ctx); err != nil {
		return knowledge.EngineAnswer{}, err
	}
	g, excludes, err := e.guidanceFor(ctx, q.Tags.Session)
	if err != nil {
		return knowledge.EngineAnswer{}, err
	}
	kind, text, topic := "ask", query, ""
	if len(q.History) > 0 {
		kind = "discuss"
		// A follow-up ("and what is the TTL?") names too little to stand
		// alone: the earlier questions carry its topic. A message that says
		// what it is about is read alone, so a change of subject is followed.
		if earlier := topicOf(q.History); earlier != "" && len(queryTerms(query, followUpTerms)) < followUpTerms {
			topic, text = earlier, query+" "+earlier
		}
	}
	ps, excluded, err := e.passages(ctx, text, query, askMorePassages, excludes)
	if err != nil {
		return knowledge.EngineAnswer{}, err
	}
	if len(ps) == 0 && topic == "" && len(q.History) > 0 {
		if earlier := topicOf(q.History); earlier != "" { // nothing alone: try with the thread's topic
			topic, text = earlier, query+" "+earlier
			if ps, excluded, err = e.passages(ctx, text, query, askMorePassages, excludes); err != nil {
				return knowledge.EngineAnswer{}, err
			}
		}
	}
	told, err := e.toldFor(ctx, text, 3)
	if err != nil {
		return knowledge.EngineAnswer{}, err
	}
	var b strings.Builder
	if topic != "" {
		fmt.Fprintf(&b, "(discussion: read together with the earlier question %q)\n", wording.OneLine(topic, 120))
	}
	ps = withinBudget(ps, func(ps []quotedSection) int {
		var t strings.Builder
		renderPassages(&t, query, ps, told, excluded)
		return t.Len()
	})
	withElsewhere(ps)
	e.withLinkedDefault(ctx, ps)
	renderPassages(&b, query, ps, told, excluded)
	var served []string
	for _, p := range ps {
		served = append(served, fmt.Sprintf("%s § %s L%d-%d", p.Path, p.SectionID, p.Start, p.End))
	}
	for _, k := range told {
		served = append(served, fmt.Sprintf("tell #%d", k.ID))
	}
	e.log(ctx, kind, query, q.Tags, served, g, excluded, Provider)
	return knowledge.EngineAnswer{Text: strings.TrimRight(b.String(), "\n"), Provider: Provider}, nil
}

// withinBudget leaves out the passages past askPassages, last first, while
// the answer they make (its size in bytes, as size renders it) is over
// askBudgetBytes, unless the last scores close to the best (askKeepShare
// of it) and the answer is within askMostBytes.
func withinBudget(ps []quotedSection, size func([]quotedSection) int) []quotedSection {
	for len(ps) > askPassages {
		n := size(ps)
		if n <= askBudgetBytes || n <= askMostBytes && ps[len(ps)-1].Share >= askKeepShare {
			break
		}
		ps = ps[:len(ps)-1]
	}
	return ps
}

// topicOf is what the discussion was about: the last two questions the
// user asked, newest first.
func topicOf(history []knowledge.Turn) string {
	var parts []string
	for i := len(history) - 1; i >= 0 && len(parts) < 2; i-- {
		if history[i].Role == "user" && strings.TrimSpace(history[i].Content) != "" {
			parts = append(parts, wording.OneLine(history[i].Content, 300))
		}
	}
	return strings.Join(parts, " ")
}

// passages returns up to n sections answering text (asked: the words
// whose lines to quote), best first, leaving
// out the excluded ones (counted), any much weaker than the best, and a
// subsection of a passage above that would quote no line of its own. The
// index's candidates (also those for the words docs use for the
// question's, passage.Question.Related) are ordered as ranked search
// orders them (passage.Question.Rank: their index score, how well their
// best line answers and how much of the question they hold): a section
// whose lines hold the answer goes before an intro that only names the
// topic.
func (e *Engine) passages(ctx context.Context, text, asked string, n int, excludes knowledge.Excludes) ([]quotedSection, int, error) {
	// The lines answer what was asked: a follow-up's own words, not the
	// earlier question that carries its topic to the search.
	question := passage.NewQuestion(asked)
	if question.Empty() {
		question = passage.NewQuestion(text)
	}
	secs, err := sectionindex.RankedWithRelated(ctx, e.ix, domain.RankedQuery{Text: text, Limit: askCandidates}, question.Related())
	if err != nil {
		return nil, 0, fmt.Errorf("index ranked search: %w", err)
	}
	type candidate struct {
		sec   domain.RankedSection
		ent   sectionindex.Entry
		lines []string // the doc's, as the section is quoted from them (passage.WithFrontmatter)
		from  int      // the section's first line to quote
		score float64
	}
	var cands []candidate
	excluded := 0
	entries := map[string]sectionindex.Entry{}
	lines := map[string][]string{}
	var spans []passage.Span
	for _, s := range secs {
		if excludes.Match(s.Path) != "" {
			excluded++
			continue
		}
		ent, ok := entries[s.Path]
		if !ok {
			if ent, err = e.ix.Entry(ctx, s.Path); err != nil {
				continue
			}
			entries[s.Path] = ent
			lines[s.Path] = strings.Split(string(ent.Content), "\n")
		}
		quoted, from := passage.WithFrontmatter(lines[s.Path], ent.Structure.FrontmatterEnd, s.Start)
		cands = append(cands, candidate{sec: s, ent: ent, lines: quoted, from: from})
		spans = append(spans, passage.Span{Doc: s.Path, Lines: quoted, From: from, To: s.End, Anchor: domain.SlugOf(s.SectionID)})
	}
	index := make([]float64, len(cands))
	for i, c := range cands {
		index[i] = c.sec.Score
	}
	for i, score := range question.Rank(spans, index) {
		cands[i].score = score
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	var out []quotedSection
	inc := &includer{ix: e.ix, docs: map[string][]include.Directive{}, files: map[string]includedFile{}}
	quotedTexts := map[string]bool{}   // the lines quoted above, as quoted (repeatsQuoted)
	shown := map[string]map[int]bool{} // per doc, the lines quoted above
	for _, c := range cands {
		if len(out) == n || c.score < cands[0].score*weakPassageFactor {
			break
		}
		if len(out) == askMorePassages-1 && !passage.CloseToBest(c.score, cands[0].score) {
			// A sixth passage only when close to the best, as ranked
			// search's sixth section: built, a passage left out would still
			// keep its lines from the doc's line elsewhere (shown).
			break
		}
		if shown[c.sec.Path] == nil {
			shown[c.sec.Path] = map[int]bool{}
		}
		quoted := passage.SectionLines
		if len(out) == 0 {
			quoted = askFirstLines
		}
		if len(out) >= askPassages || !passage.CloseTo(c.score, cands[0].score, askWeakShare) {
			quoted = askTailLines // a later passage, or a weak one (askWeakShare)
		}
		lineLen := maxQuotedLineLen
		if len(out) == 0 {
			lineLen = firstQuotedLineLen
		}
		p := quote(c.ent, c.lines, c.from, c.sec, question, shown[c.sec.Path], quoted, lineLen, len(out) == 0)
		inc.withIncluded(ctx, &p, c.lines, question, quoted, lineLen, len(out) == 0)
		withDefinition(&p, c.ent, c.lines, question, shown[c.sec.Path])
		if cands[0].score > 0 {
			p.Share = c.score / cands[0].score
		}
		if len(p.Quote) == 0 && slices.ContainsFunc(out, func(o quotedSection) bool {
			return o.Path == p.Path && o.Start <= p.Start && p.End <= o.End
		}) {
			continue // a subsection of a passage above, whose lines it quotes already: nothing new
		}
		if repeatsQuoted(p, quotedTexts) {
			continue // the same lines as passages above quote, in another doc: nothing new
		}
		for _, l := range p.Quote {
			quotedTexts[strings.TrimSpace(l.Text)] = true
		}
		out = append(out, p)
	}
	if len(out) == 1 {
		// The one passage found has the answer's whole budget: its
		// section quotes loneFirstLines lines, chosen afresh.
		c := cands[0]
		shown[c.sec.Path] = map[int]bool{}
		p := quote(c.ent, c.lines, c.from, c.sec, question, shown[c.sec.Path], loneFirstLines, firstQuotedLineLen, true)
		inc.withIncluded(ctx, &p, c.lines, question, loneFirstLines, firstQuotedLineLen, true)
		withDefinition(&p, c.ent, c.lines, question, shown[c.sec.Path])
		p.Share = out[0].Share
		out[0] = p
	}
	if len(out) > 0 {
		withOpening(&out[0], entries[out[0].Path], lines[out[0].Path], question, shown[out[0].Path], out)
		out[0].doc = &quotedDoc{ent: entries[out[0].Path], lines: lines[out[0].Path], shown: shown[out[0].Path], question: question}
	}
	return out, excluded, nil
}

// repeatsQuoted reports whether every line passage p quotes (one at
// least) reads as one a passage above quotes: docs that repeat a section
// word for word (the same API page for React, Vue and Svelte) took an
// answer's places with the same lines, and the section ranked next, which
// may state the fact, was left out.
func repeatsQuoted(p quotedSection, quoted map[string]bool) bool {
	if len(p.Quote) == 0 {
		return false
	}
	for _, l := range p.Quote {
		if !quoted[strings.TrimSpace(l.Text)] {
			return false
		}
	}
	return true
}

// quotedText is a line as an answer quotes it: whole, or, when longer
// than lineLen, around where the question's words meet, the fact usually
// after them (passage.Question.WindowWithin); a line a little too long is
// quoted whole (wording.AnswerSlack).
func quotedText(q passage.Question, line string, lineLen int) string {
	text := wording.TableRow(strings.TrimRight(line, "\r"))
	if len(text) > lineLen {
		from, to, _ := q.WindowWithin(text, lineLen-lineLen/6)
		text = wording.ExcerptOrWhole([]byte(text), from, to, lineLen, 6)
	}
	return text
}

// quote builds the passage of section s, quoted from lines from..s.End
// (a doc's first section: its frontmatter's facts too,
// passage.WithFrontmatter): the nLines lines that best answer q,
// less those a passage of the same doc above quotes (shown), as ranked
// search_documents shows them (passage.Question.Shown), a long line cut
// to where the question's words meet. The first passage (first) quotes
// each of them with the line that follows it (passage.Question.ShownFollowed).
func quote(ent sectionindex.Entry, lines []string, from int, s domain.RankedSection, q passage.Question, shown map[int]bool, nLines, lineLen int, first bool) quotedSection {
	p := quotedSection{DocID: ent.Doc.ID, Path: s.Path, SectionID: s.SectionID, Start: s.Start, End: s.End, Score: s.Score, lines: lines}
	if p.DocID == "" {
		p.DocID = s.Path
	}
	p.Tokens = sectionTokens(ent.Content, s.Start, s.End)
	for _, sec := range ent.Structure.Sections {
		if sec.ID == s.SectionID {
			p.Heading = sec.Heading
		}
	}
	// The passages after the first quote prose: a code line among their
	// best takes its place unquoted (passage.Question.ShownProse), so the
	// budget holds a fourth or fifth passage more often.
	choose := q.ShownProse
	if first {
		choose = q.ShownFollowed
	}
	for _, n := range choose(lines, from, s.End, nLines, s.Lines, shown) {
		if n < 1 || n > len(lines) {
			continue
		}
		if n == s.Start && p.Heading != "" && strings.HasPrefix(strings.TrimSpace(lines[n-1]), "#") {
			// The section's own heading line: the passage's header says it
			// (its id spells it, or the header quotes it); a _preamble has
			// none. Tune: the same facts, the mean answer 453 -> 448 tokens.
			continue
		}
		p.Quote = append(p.Quote, quotedLine{N: n, Text: quotedText(q, lines[n-1], lineLen)})
	}
	return p
}

// sectionTokens estimates the tokens of lines start..end of content (bytes
// / 4, as the library's tools count).
func sectionTokens(content []byte, start, end int) int {
	line, bytes := 1, 0
	for _, c := range content {
		if line > end {
			break
		}
		if line >= start {
			bytes++
		}
		if c == '\n' {
			line++
		}
	}
	return domain.EstimateTokens(int64(bytes))
}

// toldFor returns up to n told records matching text, best first.
func (e *Engine) toldFor(ctx context.Context, text string, n int) ([]knowledge.Knowledge, error) {
	all, err := e.journal.Knowledge(ctx, knowledge.KnowledgeTold, 2000)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	terms := queryTerms(text, 32)
	type scored struct {
		k     knowledge.Knowledge
		score float64
	}
	var hits []scored
	need := 0.34
	if len(terms) <= 2 {
		need = 0.5
	}
	for _, k := range all {
		// The subject weighs double: a told record is about its subject.
		score := (2*termScore(terms, k.Subject) + termScore(terms, k.Subject+" "+k.Text)) / 3
		if termScore(terms, k.Subject+" "+k.Text) >= need {
			hits = append(hits, scored{k, score})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	var out []knowledge.Knowledge
	for i := 0; i < len(hits) && i < n; i++ {
		out = append(out, hits[i].k)
	}
	return out, nil
}

// selector is a ready get_documents selector for a passage's section.
func selector(docID, sectionID string) string {
	return fmt.Sprintf(`{"doc": %s, "sections": [%s]}`, jsonString(docID), jsonString(sectionID))
}

func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

const timeLayout = "2006-01-02 15:04:05 UTC"

// writePassage writes passage p, numbered n: where it is, its lines. The
// heading is written only when the section id does not spell it already
// (idSpells): on the tune sets that left the same facts in answers 3 %
// smaller (median 450 -> 435 tokens).
func writePassage(b *strings.Builder, n int, p quotedSection) {
	head := ""
	if p.Heading != "" && !idSpells(p.SectionID, p.Heading) {
		head = fmt.Sprintf(" %q", p.Heading)
	}
	where := p.DocID
	if p.Path != p.DocID+".md" { // the path says more than the id
		where += " (" + p.Path + ")"
	}
	fmt.Fprintf(b, "\n[%d] %s § %s%s · L%d–%d · ~%d tokens\n", n, where, p.SectionID, head, p.Start, p.End, p.Tokens)
	if o := p.Opening; o != nil {
		fmt.Fprintf(b, "  L%d (§ %s): %s\n", o.N, p.OpeningIn, o.Text)
	}
	if o := p.Elsewhere; o != nil {
		fmt.Fprintf(b, "  L%d (§ %s): %s\n", o.N, p.ElsewhereIn, o.Text)
	}
	if d := p.Definition; d != nil {
		fmt.Fprintf(b, "  L%d (§ %s): %s\n", d.N, p.DefinedIn, d.Text)
	}
	for _, l := range p.Quote {
		if l.From != "" { // a line of a file the section includes (withIncluded)
			fmt.Fprintf(b, "  L%d (%s): %s\n", l.N, l.From, l.Text)
			continue
		}
		if l.N < p.Start { // a doc's first section quotes its frontmatter's facts (passage.WithFrontmatter)
			fmt.Fprintf(b, "  L%d (frontmatter): %s\n", l.N, l.Text)
			continue
		}
		fmt.Fprintf(b, "  L%d: %s\n", l.N, l.Text)
	}
	if l := p.Linked; l != nil {
		fmt.Fprintf(b, "  L%d (%s): %s\n", l.N, l.From, l.Text)
	}
}

// idSpells reports whether the last part of section id sectionID has
// the letters and digits of heading, case aside, as a heading's slug does
// ("Attribute/prop syntax is stricter", attributeprop-syntax-is-stricter).
func idSpells(sectionID, heading string) bool {
	letters := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return unicode.ToLower(r)
			}
			return -1
		}, s)
	}
	return letters(sectionID[strings.LastIndex(sectionID, "/")+1:]) == letters(heading)
}

func renderPassages(b *strings.Builder, query string, ps []quotedSection, told []knowledge.Knowledge, excluded int) {
	if len(ps) == 0 {
		fmt.Fprintf(b, "The library has no section that answers %q.\n", wording.OneLine(query, 200))
		if len(told) == 0 {
			b.WriteString("If it should, report it with librarian_gap (subject, missing).\n")
		}
	} else {
		fmt.Fprintf(b, "From the library, best first (the docs' own lines):\n")
	}
	for i, p := range ps {
		writePassage(b, i+1, p)
		if len(ps) == 1 {
			fmt.Fprintf(b, "  more: get_documents %s\n", selector(p.DocID, p.SectionID))
		}
	}
	if len(told) > 0 {
		b.WriteString("\nTold by agents (not in the docs):\n")
		for _, k := range told {
			writeTold(b, k)
		}
	}
	if excluded == 1 {
		b.WriteString("\n(1 section excluded by this session's guidance)\n")
	} else if excluded > 1 {
		fmt.Fprintf(b, "\n(%d sections excluded by this session's guidance)\n", excluded)
	}
}

func writeTold(b *strings.Builder, k knowledge.Knowledge) {
	fmt.Fprintf(b, "- [tell #%d] %s: %s (told by %s, %s)\n", k.ID, wording.OneLine(k.Subject, 200), wording.OneLine(k.Text, 600), toldBy(k), k.At.UTC().Format(timeLayout))
}

// toldBy names who told k: the token that stored it, with the caller it
// claimed as a label when that differs (anyone may claim any caller);
// without a token (stdio, a server without tokens) the caller, else the
// session.
func toldBy(k knowledge.Knowledge) string {
	caller := wording.OneLine(k.Tags.Caller, 100)
	switch {
	case k.Owner != "" && (caller == "" || caller == k.Owner):
		return k.Owner
	case k.Owner != "":
		return fmt.Sprintf("%s, caller label %q", k.Owner, caller)
	case caller != "":
		return caller
	}
	return "session " + wording.OneLine(k.Tags.Session, 100)
}
