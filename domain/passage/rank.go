package passage

import (
	"math"
	"regexp"
	"slices"
	"strings"
)

// Span is a section a search found, as Pooled reads it: lines from..to of
// a file (Lines[k-1] is line k) that Doc names. Sections of one doc may
// overlap (a section and its subsection): each line counts once.
type Span struct {
	Doc      string
	Lines    []string
	From, To int
	// Anchor is the section's slug, the last element of its id
	// (domain.SlugOf): what a link in its doc names it by ("#prometheus-port").
	Anchor string
}

// Pooled returns the question with its terms weighed over the lines of all
// the spans too (a term few of their lines hold weighs most), for telling
// which section's lines answer: alone, a section weighs its terms by its
// own lines, so a term rare in a short section weighs much, however common
// among the sections found. Quote a section's lines with the question
// itself.
func (q Question) Pooled(spans []Span) Question {
	out, _ := q.pooled(spans)
	return out
}

// pooled is Pooled, and for each span the question's terms its lines hold
// (held[i] is spans[i]'s).
func (q Question) pooled(spans []Span) (Question, []map[string]bool) {
	want := make(map[string]bool, len(q.terms))
	for _, t := range q.terms {
		want[t] = true
	}
	// Per doc, the terms each of its lines holds: sections of one doc may
	// overlap, and a line counts once in the pool.
	lineHeld := map[string]map[int][]string{}
	df := make(map[string]int, len(q.terms))
	held := make([]map[string]bool, len(spans))
	n := 0
	for i, sp := range spans {
		lines := lineHeld[sp.Doc]
		if lines == nil {
			lines = map[int][]string{}
			lineHeld[sp.Doc] = lines
		}
		held[i] = map[string]bool{}
		for k := max(sp.From, 1); k <= min(sp.To, len(sp.Lines)); k++ {
			ts, seen := lines[k]
			if !seen {
				if isBlankOrFence(sp.Lines[k-1]) {
					lines[k] = nil
					continue
				}
				n++
				for _, w := range lineTerms(sp.Lines[k-1]) {
					if t := q.termOf(w, want); t != "" && !slices.Contains(ts, t) {
						ts = append(ts, t)
					}
				}
				lines[k] = ts
				for _, t := range ts {
					df[t]++
				}
			}
			for _, t := range ts {
				held[i][t] = true
			}
		}
	}
	out := q
	out.idf = make(map[string]float64, len(q.terms))
	for _, t := range q.terms {
		out.idf[t] = math.Log(1 + float64(n+1)/float64(df[t]+1))
	}
	return out, held
}

// coverage is how much of the question a section holds anywhere: the
// weights (pooled idf) of the terms it holds, a code name and its parts
// once, a related word at relatedWeight.
func (q Question) coverage(held map[string]bool) float64 {
	best := map[string]float64{}
	for t := range held {
		g := t
		if whole := q.group[t]; whole != "" {
			g = whole
		}
		w := q.idf[t]
		if q.related[t] {
			w *= relatedWeight
		}
		best[g] = max(best[g], w)
	}
	sum := 0.0
	for _, w := range best {
		sum += w
	}
	return sum
}

// rankLineShare is how much a section's best line weighs in Rank, against
// its index score: tuned on the fact eval's tune sets (0.5 before; 0.2
// holds more facts in both ranked search and librarian_ask).
const rankLineShare = 0.2

// rankCoverShare is how much, in Rank, how many of the question's words a
// section holds anywhere weighs (the rest being the index score and best
// line as above): BM25 lets a section holding two of the words many times
// beat one holding five once. Tuned on the fact eval's tune sets: at 0.05
// they hold 2 more facts through librarian_ask over the SQLite index, 1
// more each way over PostgreSQL (whose index score counts the words held
// already: at 0.15 to 0.2 it loses 1 to 2).
const rankCoverShare = 0.05

// CloseShare is how close to the best section's Rank score another's is
// when the ranking cannot tell them apart: ranked search_documents shows
// such a section past its fifth, librarian_ask a fourth or fifth passage
// past its byte budget. Tuned for each on the fact eval's tune sets
// (app/search DefaultRankedResults, localretrieval askMostBytes'
// history): 0.75 for both.
const CloseShare = 0.75

// CloseToBest reports whether score is at least CloseShare of best (a
// positive best: when every section scores 0, none is close).
func CloseToBest(score, best float64) bool {
	return CloseTo(score, best, CloseShare)
}

// CloseTo reports whether score is at least share of best, for the
// answers that weigh sections and passages against the best at shares of
// their own (ranked search's weak sections, librarian_ask's weak
// passages); a positive best, as in CloseToBest.
func CloseTo(score, best, share float64) bool {
	return best > 0 && score >= share*best
}

// Rank scores the sections a search found for how well they answer: their
// index score (index[i] is spans[i]'s) and how well their best line
// answers, over all of them (Pooled), each as a share of the best,
// weighed 1-rankLineShare and rankLineShare; then that and how much of
// the question the section holds (its words' pooled weights, a share of
// the best), weighed 1-rankCoverShare and rankCoverShare; 1 is best. A
// section whose lines hold the answer goes before an intro that only
// names the topic.
func (q Question) Rank(spans []Span, index []float64) []float64 {
	pooled, held := q.pooled(spans)
	lineScores := make([]float64, len(spans))
	bestLines := make([]int, len(spans)) // each span's best line, 0 for none
	covers := make([]float64, len(spans))
	bestIndex, bestLine, bestCover := 0.0, 0.0, 0.0
	for i, sp := range spans {
		if best := pooled.lines(sp.Lines, sp.From, sp.To, 1, false); len(best) > 0 {
			lineScores[i], bestLines[i] = best[0].Score, best[0].Line
		}
		covers[i] = pooled.coverage(held[i])
		bestIndex, bestLine, bestCover = max(bestIndex, index[i]), max(bestLine, lineScores[i]), max(bestCover, covers[i])
	}
	out := make([]float64, len(spans))
	for i := range spans {
		out[i] = index[i] / max(bestIndex, 1e-9)
		if bestLine > 0 {
			out[i] = (1-rankLineShare)*out[i] + rankLineShare*lineScores[i]/bestLine
		}
		if bestCover > 0 {
			out[i] = (1-rankCoverShare)*out[i] + rankCoverShare*covers[i]/bestCover
		}
		if q.asksLimits && namesLimits(spans[i]) {
			out[i] *= limitsHeadingBoost
		}
		if q.asksRequirement && namesRequirements(spans[i]) {
			out[i] *= limitsHeadingBoost
		}
		if q.namesAskedCode(spans[i]) {
			out[i] *= codeHeadingBoost
		}
	}
	linkedSections(spans, bestLines, out)
	return out
}

// linkedShare is how much of the linking section's rank a section of the
// same doc gets when that section's best line links to it: as
// much, so it is shown wherever the linking section is (tune: 0.9 gained
// one ranked fact; 1.0 two each way, an options table ranked sixth now
// bringing its option's section; 1.1 the same facts; fresh12-14 the same
// at 0.9 and 1.0).
const linkedShare = 1.0

// linkedSections raises a section that the best line of another found
// section of its doc links to by its anchor ("| `prometheus.port` | int
// | (unset) | [HTTP port for Prometheus scrape endpoint.](#prometheus-port)
// |"), to linkedShare of that section's rank: reference docs (Hugo,
// Docsy, Docusaurus sites) sum their options up in a table whose rows
// link to a section each, where the option's behaviour is stated; the
// table row holds the question's words, the linked section the fact.
// Only the best line's links count (bestLines[i] is spans[i]'s, as Rank
// scored it; 0 for none): the three best lines' gave the same tune facts
// in answers 0.26 % larger (ask), the five best's 0.36 %.
func linkedSections(spans []Span, bestLines []int, out []float64) {
	type target struct{ doc, anchor string }
	raised := map[target]float64{}
	for i, sp := range spans {
		if bestLines[i] > 0 {
			line := sp.Lines[bestLines[i]-1]
			for {
				k := strings.Index(line, "](#")
				if k < 0 {
					break
				}
				line = line[k+3:]
				e := strings.IndexByte(line, ')')
				if e <= 0 {
					break
				}
				t := target{sp.Doc, strings.ToLower(line[:e])}
				raised[t] = max(raised[t], linkedShare*out[i])
			}
		}
	}
	if len(raised) == 0 {
		return
	}
	for i, sp := range spans {
		if sp.Anchor != "" {
			out[i] = max(out[i], raised[target{sp.Doc, sp.Anchor}])
		}
	}
}

// limitsHeadingBoost is how much more a section weighs in Rank, for a
// question asking whether something can or does happen, or what happens,
// when its heading says it holds the limits of what its doc describes
// (Notes, Limitations, Caveats, Known issues, Pitfalls, Error handling,
// Differences from...): docs gather what a thing cannot do, or does
// otherwise, there, under a heading that shares none of the question's
// words ("can I keep objects with the useLocalStorage hook?" is answered
// under "## Notes"). Chosen on the fact eval's tune sets: 1.1 gained 2
// facts each way, 1.2 4, 1.25 6 (ask) and 5 (ranked), none lost; 1.3 and
// 1.4 lost one to three (a Limitations section took a fourth passage's
// place); fresh12-14 the same but ranked +1.
const limitsHeadingBoost = 1.25

// namesLimits reports whether sp opens with a heading that names its
// lines as the limits or caveats of what the doc describes.
func namesLimits(sp Span) bool {
	return headingHolds(sp, limitsHeadings)
}

// namesRequirements reports whether sp opens with a heading that names
// what the doc's subject needs or runs on (Prerequisites, Requirements,
// Compatibility, Supported platforms, Version support): for a question
// asking for a minimum version, or what a thing supports, docs list it
// there, under a heading that shares none of the question's words
// ("which version of Helm do I need" is answered under "## Prerequisites").
// Weighed as limitsHeadingBoost: on the fact eval's tune sets, 1.25 and
// 1.6 gained the same fact each way, none lost.
func namesRequirements(sp Span) bool {
	return headingHolds(sp, requirementHeadings)
}

var requirementHeadings = []string{" prerequisite", " requirement", " compatib", " supported ", " support "}

// headingHolds reports whether sp opens with a heading that holds one of
// subs, read in lower case between blanks.
func headingHolds(sp Span, subs []string) bool {
	if sp.From < 1 || sp.From > len(sp.Lines) {
		return false
	}
	h := strings.TrimSpace(sp.Lines[sp.From-1])
	if !strings.HasPrefix(h, "#") {
		return false
	}
	low := " " + strings.ToLower(strings.Trim(h, "# ")) + " "
	return containsAny(low, subs)
}

var limitsHeadings = []string{" note", " caveat", " limitation", " known issue", " gotcha", " pitfall", " restriction",
	" constraint", " error handling", " validation", " difference", " considerations", " troubleshooting", " edge case", " warning"}

// codeHeadingBoost is how much more a section weighs in Rank when its
// heading is the member a dotted path the question writes ends with
// (namesAskedCode). Chosen on the fact eval's tune sets: 1.15 gained one
// fact each way (`hot.decline()`, ranked eleventh, for a question writing
// import.meta.hot.decline()), none lost, answers 0.1 % smaller; fresh12-14
// the same facts.
const codeHeadingBoost = 1.15

// codeNameRe matches a code name as a question writes one: a dotted path
// (import.meta.hot.decline) or a name called (createServer( of
// createServer()).
var codeNameRe = regexp.MustCompile(`[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+|[A-Za-z_$][\w$]*\(`)

// writtenCodeNames returns the code names text writes as code: dotted
// paths, calls and code spans, lower case, a call's parenthesis left off.
func writtenCodeNames(text string) []string {
	var out []string
	add := func(s string) {
		s = strings.ToLower(strings.TrimRight(strings.TrimSpace(s), "(."))
		if i := strings.IndexByte(s, '('); i >= 0 {
			s = s[:i]
		}
		if len(s) >= 3 && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, m := range codeNameRe.FindAllString(text, -1) {
		add(m)
	}
	for _, sp := range codeSpans(text) {
		add(text[sp[0]:sp[1]])
	}
	return out
}

// namesAskedCode reports whether sp opens with a heading that is a code
// name ending a longer dotted path the question writes as code
// (`hot.decline()` for import.meta.hot.decline()): an API reference heads
// each member's section by the member's short name, and a question that
// writes the whole path asks about that section, though the sections that
// use the object in examples repeat the path's words more. Only a
// shorter heading: one that writes the question's name whole
// (`jest.fn(implementation)` for jest.fn()) is found by the index's
// heading words already, and raising it too lost a fact each way on tune
// (the fact under another member, `mockImplementationOnce`).
func (q Question) namesAskedCode(sp Span) bool {
	if len(q.codeNames) == 0 || sp.From < 1 || sp.From > len(sp.Lines) {
		return false
	}
	h := strings.TrimSpace(sp.Lines[sp.From-1])
	if !strings.HasPrefix(h, "#") {
		return false
	}
	h = strings.TrimSpace(strings.TrimLeft(h, "#"))
	name := strings.ToLower(strings.Trim(h, "`"))
	if i := strings.IndexByte(name, '('); i >= 0 {
		name = name[:i]
	}
	name = strings.Trim(name, "` ")
	if len(name) < 3 || strings.ContainsAny(name, " \t") {
		return false
	}
	for _, c := range q.codeNames {
		if strings.HasSuffix(c, "."+name) {
			return true
		}
	}
	return false
}

// termOf is the question's term a line's stem w stands for ("" if none):
// itself, or a term of four letters or more it starts with.
