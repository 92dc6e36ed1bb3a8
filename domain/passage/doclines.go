package passage

import "maps"

// A doc's lines outside the sections an answer quotes: its opening (the
// text before the first heading) and the line of another section that
// answers better than the best section's own.

// openingShare is how well a doc's opening line must answer, as a share
// of its best section's best line, to be quoted above that section
// (OpeningLine). Decided on the fact eval's tune sets: any line holding a
// word of the question held one fact more each way in answers 4 % larger;
// at half the best line's score, the same fact, 1 % larger.
const openingShare = 0.5

// OpeningLine returns the line of a doc's opening (lines from..to: the
// text before its first heading or under its title) to quote with its
// best section (lines bestFrom..bestTo), 0 for none: the opening's best
// prose line (ShownProse, less the lines shown, to which it adds it),
// when it scores at least openingShare of the section's best line. A
// doc's first lines state what holds for all of it ("In a CI environment,
// installation fails if a lockfile ... needs an update"; a feature
// removed), which a question about one of its sections asks.
func (q Question) OpeningLine(lines []string, from, to, bestFrom, bestTo int, shown map[int]bool) int {
	chosen := q.ShownProse(lines, from, to, 1, nil, maps.Clone(shown))
	if len(chosen) == 0 {
		return 0
	}
	l, score := chosen[0], 0.0
	for _, sc := range q.Lines(lines, from, to, to-from+1) {
		if sc.Line == l {
			score = sc.Score
		}
	}
	if top := q.Lines(lines, bestFrom, bestTo, 1); len(top) > 0 && score < openingShare*top[0].Score {
		return 0
	}
	shown[l] = true
	return l
}

// How well a doc's line outside the sections an answer quotes must
// answer, as a share of the first passage's best line, to be quoted with
// it (ElsewhereShare, ElsewhereLine). Decided on the fact eval's tune
// sets. When the doc gives two passages or more, or the only one, it is
// the doc that answers: 1.25 and 1 held the same two facts more (0.75
// too, in answers twice as much larger), 1.5 one. When it gives one of
// several, only a line that answers far better is worth its bytes: 2
// held two facts more, and three of the fresh sets' 264 (1.5 the same
// tune facts in answers 1.6 % larger, not 1 %; 3 one).
const (
	elsewhereShare    = 1.25
	elsewhereShareOne = 2.0
)

// ElsewhereShare returns how well a doc's line outside its passages must
// answer, as a share of the first passage's best line, when the doc
// gives docPassages of an answer's passages.
func ElsewhereShare(docPassages, passages int) float64 {
	if docPassages >= 2 || passages == 1 {
		return elsewhereShare
	}
	return elsewhereShareOne
}

// ElsewhereLine returns the line of a doc (lines from..to) that answers
// best outside the sections an answer quotes from it (quoted reports a
// line inside one, or one shown already), when it scores at least share
// (ElsewhereShare) of the best line of the first passage's section
// (bestFrom..bestTo); 0 for none. An answer whose passages come from one
// doc has found the doc but not always the section that states the fact
// ("the Collector often runs off-platform" under "How OpenTelemetry can
// help", below sections that name mainframes more often): the doc's best
// line is that fact more often than the next section is.
//
// With no such line, a question asking a default gets the best line
// outside the quoted sections that states one (statesDefault) and holds
// a word of the question, when it scores at least defaultElsewhereShare
// of that best line: an option page states each option's default in the
// option's own section ("By default, `--location` is set to `global`."),
// which shares few of the question's words with the command's section
// the answer found. The doc's lines are scored once for both.
func (q Question) ElsewhereLine(lines []string, from, to, bestFrom, bestTo int, quoted func(line int) bool, share float64) int {
	top := q.Lines(lines, bestFrom, bestTo, 1)
	if len(top) == 0 {
		return 0
	}
	scored := q.Lines(lines, from, to, to-from+1)
	if l := firstScoring(scored, share*top[0].Score, func(line int) bool { return !quoted(line) }); l > 0 || !q.asksDefault {
		return l
	}
	return firstScoring(scored, defaultElsewhereShare*top[0].Score, func(line int) bool {
		return !quoted(line) && statesDefault(lines[line-1]) && q.holdsAskedWord(lines[line-1])
	})
}

// firstScoring returns the first line of scored (best first) that take
// accepts among those scoring at least least; 0 for none.
func firstScoring(scored []Scored, least float64, take func(line int) bool) int {
	for _, sc := range scored {
		if sc.Score < least {
			return 0
		}
		if take(sc.Line) {
			return sc.Line
		}
	}
	return 0
}

// defaultElsewhereShare is how well a doc's line stating a default must
// answer, as a share of the first passage's best line, to be quoted with
// it for a question asking a default (ElsewhereLine).
const defaultElsewhereShare = 0.5

// holdsAskedWord reports whether line holds one of the question's own
// words (not only the docs' words for them, relatedWords).
func (q Question) holdsAskedWord(line string) bool {
	want := map[string]bool{}
	for _, t := range q.terms {
		if !q.related[t] {
			want[t] = true
		}
	}
	for _, w := range lineTerms(line) {
		if q.termOf(w, want) != "" {
			return true
		}
	}
	return false
}
