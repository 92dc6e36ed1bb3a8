// Package passage chooses, inside a section a search found, the lines that
// answer a question: not the section's first lines, but the ones that hold
// the question's words (by stem, and code names split into their words:
// generateDigest is "generate digest"), the rarest of them in the section
// weighing most, close together, and, when the question asks for a value (a
// default, a limit, a name, a count), the lines that hold one (a number, a
// code span, a quoted name), and the lines of the kind asked for (a command,
// a default, a caveat, a limit for a yes-or-no question, the code the
// question pastes: asks.go, quoted.go).
// Ranked search_documents, librarian_ask,
// librarian_discuss and librarian_brief quote through it, so they show the
// same lines. Pure, and linear in the section's size. It imports only the
// standard library.
package passage

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Question is a question's words, prepared once for any number of
// sections.
type Question struct {
	terms []string // distinct stems of its content words, in order, then of related words
	// related are the stems added for words the docs use for the
	// question's (relatedWords): they weigh relatedWeight of a word asked.
	related map[string]bool
	// asksValue: the question asks for a value (which, how many, the
	// default, the largest...): lines holding one are preferred.
	asksValue bool
	// idf, when set (Pooled), is each term's weight over the lines of all
	// the sections a search found: a line's term weighs the geometric mean
	// of it and the term's weight in the line's own section, so that the
	// best lines of different sections compare.
	idf map[string]float64
	// group maps a code name's part to the name's stem (daisy and ui to
	// daisyui): a line holding the name, or its parts, holds one term.
	group map[string]string
	// code are the calls the question quotes (fn('a', 'b')), folded by
	// foldCode: a line that writes one as it is holds what was asked.
	code []string
	// asksDefault: the question asks what happens unless set (its words or
	// the docs' words for them hold "default").
	asksDefault bool
	// asksCommand: the question asks for a command or a flag; lines
	// holding one are preferred as lines are chosen.
	asksCommand bool
	// asksCaveat: the question asks for a catch or a reason; lines
	// stating one are preferred as lines are chosen.
	asksCaveat bool
	// asksYesNo: the question asks whether something can or does happen;
	// lines stating a limit (not, only, unless) are preferred as lines are
	// chosen.
	asksYesNo bool
	// asksCondition: it names a case (if, unless, instead of), which a note
	// often states apart (calloutLineBoost).
	asksCondition bool
	// asksLimits: it asks yes or no, or what happens; a section whose
	// heading names the doc's limits (namesLimits) ranks higher.
	asksLimits bool
	// asksRequirement: it asks for a minimum version or what a thing
	// supports; a section whose heading names requirements
	// (namesRequirements) ranks higher.
	asksRequirement bool
	// asksQuantity: it asks how many, how much, how long: a long line is
	// cut where a number stands among its words (WindowWithin).
	asksQuantity bool
	// asksWhere: it asks where a thing is kept or goes (a path, a
	// folder): what a setting's default may be (AsksSetting).
	asksWhere bool
	// codeNames are the code names the question writes as code (a dotted
	// path, a call, a code span), lower case, without a call's arguments:
	// a section headed by one of them is about what was asked
	// (namesAskedCode).
	codeNames []string
}

// NewQuestion reads a question (or a search's words).
func NewQuestion(text string) Question {
	q := Question{asksValue: asksForValue(text), related: map[string]bool{}, code: quotedCode(text), codeNames: writtenCodeNames(text)}
	seen := map[string]bool{}
	words := Words(text)
	for _, w := range words {
		if stopwords[w] || len(w) < 2 {
			continue
		}
		s := Stem(w)
		if !seen[s] {
			seen[s] = true
			q.terms = append(q.terms, s)
		}
	}
	// A code name's parts stand for it: a line holding daisyUI holds one
	// term of the question, not three (daisyui, daisy and ui). A part the
	// question also asks as a word of its own (lint in "lint-staged runs
	// ESLint") is that word too: a line holding it alone holds it.
	tokens := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
	asked := map[string]bool{}
	for _, w := range tokens {
		if len(splitIdentifier(w)) < 2 {
			asked[Stem(strings.ToLower(w))] = true
		}
	}
	q.group = map[string]string{}
	for _, tok := range tokens {
		parts := splitIdentifier(tok)
		if len(parts) < 2 {
			continue
		}
		whole := Stem(strings.ToLower(tok))
		for _, p := range parts {
			if ps := Stem(strings.ToLower(p)); ps != whole && q.group[ps] == "" && !asked[ps] {
				q.group[ps] = whole
			}
		}
	}
	q.asksDefault = seen[Stem("default")]
	q.asksCommand = asksForCommand(text)
	q.asksCaveat = asksForCaveat(text)
	q.asksYesNo = asksYesOrNo(text)
	q.asksLimits = q.asksYesNo || strings.Contains(strings.ToLower(text), "what happen")
	q.asksRequirement = asksForRequirement(text)
	q.asksWhere = strings.Contains(askedPhrase(text), " where ")
	q.asksCondition = containsAny(askedPhrase(text), []string{" if ", " unless ", " instead of "})
	q.asksQuantity = containsAny(askedPhrase(text), []string{" how many ", " how much ", " how long ", " how big ", " how large ", " how often ", " how far ", " roughly ", " approximately "})
	for _, r := range relatedTo(" " + strings.Join(words, " ") + " ") {
		if r == "default" {
			q.asksDefault = true
		}
		if s := Stem(r); !seen[s] {
			seen[s] = true
			q.terms = append(q.terms, s)
			q.related[s] = true
		}
	}
	return q
}

// Terms returns the question's content stems, in order, then those of
// the words docs use for them.
func (q Question) Terms() []string { return q.terms }

// Related returns the words the docs use for the question's words, which
// it does not hold (relatedWords), for a search to look for too.
func (q Question) Related() []string {
	var out []string
	for _, t := range q.terms {
		if q.related[t] {
			out = append(out, t)
		}
	}
	return out
}

// Empty reports whether the question has no content word.
func (q Question) Empty() bool { return len(q.terms) == len(q.related) }

// Scored is a line and how well it answers.
type Scored struct {
	Line  int // 1-based, in the file
	Score float64
}

// Lines scores lines from..to of a file (lines[k-1] is line k) and returns
// the n best that score above zero, best first (ties in line order).
// Blank lines and fence markers never answer.
func (q Question) Lines(lines []string, from, to, n int) []Scored {
	return q.lines(lines, from, to, n, true)
}

// lines is Lines; choosing is false when the score only ranks the
// section (Rank), and a line stating a default is not preferred then.
func (q Question) lines(lines []string, from, to, n int, choosing bool) []Scored {
	from, to = max(from, 1), min(to, len(lines))
	if q.Empty() || from > to || n <= 0 {
		return nil
	}
	// How many lines of the section hold each term: a term on every line
	// (the section's topic) tells lines apart less than a rare one.
	type lineWords struct {
		words []string
		stems map[string][]int // stem -> word positions
	}
	parsed := make([]lineWords, to-from+1)
	df := make(map[string]int, len(q.terms))
	want := make(map[string]bool, len(q.terms))
	for _, t := range q.terms {
		want[t] = true
	}
	nonBlank := 0
	for k := from; k <= to; k++ {
		text := lines[k-1]
		if isBlankOrFence(text) {
			continue
		}
		nonBlank++
		words := lineTerms(text)
		lw := lineWords{words: words, stems: map[string][]int{}}
		for i, w := range words {
			if want[w] {
				lw.stems[w] = append(lw.stems[w], i)
				continue
			}
			if t := ifyForm(w, want); choosing && t != "" {
				lw.stems[t] = append(lw.stems[t], i)
				continue
			}
			for _, t := range q.terms {
				if len(t) >= 4 && strings.HasPrefix(w, t) { // "force" in "forcefully"
					lw.stems[t] = append(lw.stems[t], i)
					break
				}
			}
		}
		for s := range lw.stems {
			df[s]++
		}
		parsed[k-from] = lw
	}
	weight := make(map[string]float64, len(q.terms))
	for _, t := range q.terms {
		weight[t] = math.Log(1 + float64(nonBlank+1)/float64(df[t]+1))
		if q.idf != nil { // the section's weight and the pool's, as one
			weight[t] = math.Sqrt(weight[t] * q.idf[t])
		}
		if q.related[t] {
			weight[t] *= relatedWeight
		}
	}
	// Each term's group: itself, or the code name it is a part of; and how
	// many words the question asks, a name's parts not counted apart.
	groupOf := make([]string, len(q.terms))
	asked := len(q.terms) - len(q.related)
	for i, t := range q.terms {
		groupOf[i] = t
		if whole := q.group[t]; whole != "" {
			groupOf[i] = whole
			if !q.related[t] {
				asked--
			}
		}
	}
	type heldGroup struct {
		group  string
		weight float64
	}
	var held []heldGroup
	var out []Scored
	// Only where lines are chosen for a question a note answers
	// (calloutLineBoost): Rank scores every candidate's lines.
	var noted []bool
	if choosing && (q.asksLimits || q.asksCaveat || q.asksCondition) {
		noted = calloutLines(lines, from, to)
	}
	for k := from; k <= to; k++ {
		lw := parsed[k-from]
		if len(lw.stems) == 0 {
			continue
		}
		text := lines[k-1]
		// A code name and its parts count once, at the best of their
		// weights, in the sum and in the share of the question covered.
		held = held[:0]
		for i, t := range q.terms { // in the question's order: the same sum every time
			if _, ok := lw.stems[t]; !ok {
				continue
			}
			j := slices.IndexFunc(held, func(h heldGroup) bool { return h.group == groupOf[i] })
			if j < 0 {
				held = append(held, heldGroup{groupOf[i], weight[t]})
			} else {
				held[j].weight = max(held[j].weight, weight[t])
			}
		}
		score := 0.0
		for _, h := range held {
			score += h.weight
		}
		// The share of the question the line covers, and how close its
		// words are: a line that says the whole thing in a few words.
		score *= 0.5 + 0.5*float64(len(held))/float64(max(asked, 1))
		if len(lw.stems) > 1 {
			score *= 1 + 1/float64(1+span(lw.stems)/4)
		}
		score *= q.kindWeight(text, choosing)
		if noted != nil && noted[k-from] {
			score *= calloutLineBoost
		}
		trimmed := strings.TrimSpace(text)
		switch {
		case strings.HasPrefix(trimmed, "#"):
			score *= 0.5 // a heading names the topic; the lines under it answer
		case len(lw.words) > 60:
			score *= 60 / float64(len(lw.words)) // a paragraph on one line matches by its size
		}
		out = append(out, Scored{Line: k, Score: score})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	if len(out) > n {
		out = out[:n]
	}
	return out
}

func (q Question) termOf(w string, want map[string]bool) string {
	if want[w] {
		return w
	}
	for _, t := range q.terms {
		if len(t) >= 4 && strings.HasPrefix(w, t) {
			return t
		}
	}
	return ""
}

// span is how many words apart the nearest occurrences of all the
// matched stems lie: the smallest window holding one of each.
func span(stems map[string][]int) int {
	type hit struct{ pos, term int }
	var hits []hit
	t := 0
	for _, ps := range stems {
		for _, p := range ps {
			hits = append(hits, hit{p, t})
		}
		t++
	}
	sort.Slice(hits, func(i, j int) bool { return hits[i].pos < hits[j].pos })
	count := make([]int, t)
	have, best, lo := 0, math.MaxInt, 0
	for hi := range hits {
		if count[hits[hi].term] == 0 {
			have++
		}
		count[hits[hi].term]++
		for have == t {
			best = min(best, hits[hi].pos-hits[lo].pos)
			count[hits[lo].term]--
			if count[hits[lo].term] == 0 {
				have--
			}
			lo++
		}
	}
	return best
}

func isBlankOrFence(s string) bool {
	t := strings.TrimSpace(s)
	return t == "" || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || strings.Trim(t, "-|: ") == ""
}

// WindowWithin returns where in line the question's words lie closest
// together, for an excerpt that shows width runes of the line from there:
// the byte offsets of the smallest run of words holding every distinct
// term the line holds (ok is false when it holds none). An answer that
// shows only part of a long line shows this part: in a paragraph written
// on one line, the fact the question asks for is rarely at its start.
// When that run is wider than width, it is the run at most width runes wide that
// holds the most of the question's distinct terms (a word asked weighing 1,
// a word the docs use for one relatedWeight), the narrowest of those, and
// of equal ones the first. A sentence that names the topic early and the
// fact late ("…set `future.removePluginHookSsrArgument` to "warn" in your
// config") is shown where more of the question's words meet.
func (q Question) WindowWithin(line string, width int) (start, end int, ok bool) {
	words := q.termWords(line)
	if len(words) == 0 {
		return 0, 0, false
	}
	from, to := smallestRun(words)
	if words[to].runeTo-words[from].runeFrom <= width {
		return words[from].from, words[to].to, true
	}
	bestScore, bestFrom, bestTo := -1.0, 0, 0
	for i := range words {
		held := map[string]bool{}
		score := 0.0
		for j := i; j < len(words) && words[j].runeTo-words[i].runeFrom <= width; j++ {
			if t := words[j].term; !held[t] {
				held[t] = true
				if q.related[t] {
					score += relatedWeight
				} else if t == numberTerm {
					score += numberWeight
				} else {
					score++
				}
			}
			narrower := words[j].runeTo-words[i].runeFrom < words[bestTo].runeTo-words[bestFrom].runeFrom
			if score > bestScore || score == bestScore && narrower {
				bestScore, bestFrom, bestTo = score, i, j
			}
		}
	}
	return words[bestFrom].from, words[bestTo].to, true
}

// termWord is a word of a line that holds one of the question's terms:
// its byte and rune offsets in the line.
type termWord struct {
	from, to         int
	runeFrom, runeTo int
	term             string
}

// termWords returns the words of line that hold one of q's terms, in
// order.
func (q Question) termWords(line string) []termWord {
	if q.Empty() {
		return nil
	}
	want := make(map[string]bool, len(q.terms))
	for _, t := range q.terms {
		want[t] = !q.asksQuantity || !quantityWords[t]
	}
	var words []termWord
	i, runes := 0, 0
	for i < len(line) {
		r, size := utf8.DecodeRuneInString(line[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			i += size
			runes++
			continue
		}
		j, runesJ := i, runes
		for j < len(line) {
			r, size := utf8.DecodeRuneInString(line[j:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
				break
			}
			j += size
			runesJ++
		}
		for _, w := range Words(line[i:j]) {
			s := Stem(w)
			term := ""
			if want[s] {
				term = s
			} else {
				for _, t := range q.terms {
					if want[t] && len(t) >= 4 && strings.HasPrefix(s, t) {
						term = t
						break
					}
				}
			}
			if term != "" {
				words = append(words, termWord{i, j, runes, runesJ, term})
				break
			}
		}
		if q.asksQuantity && (len(words) == 0 || words[len(words)-1].from != i) && strings.ContainsFunc(line[i:j], unicode.IsDigit) {
			// A number, for a question asking how many or how much: one
			// term more where it stands.
			words = append(words, termWord{i, j, runes, runesJ, numberTerm})
		}
		i, runes = j, runesJ
	}
	return words
}

// numberTerm is the term a number holds in termWords, for a question
// asking how many or how much.
const numberTerm = "\x00number"

// numberWeight is what a number weighs in a window, for a question asking
// how many or how much: more than a word asked.
const numberWeight = 1.5

// quantityWords are the stems a question asking for a quantity asks it
// with ("how much", "roughly"): the number stands for them in a window.
var quantityWords = map[string]bool{"much": true, "many": true, "roughly": true, "approximately": true}

// smallestRun returns the first and last of the words of the smallest
// run (in bytes) holding every distinct term of words.
func smallestRun(words []termWord) (int, int) {
	distinct := map[string]int{}
	for _, w := range words {
		distinct[w.term] = 0
	}
	have, lo := 0, 0
	bestFrom, bestTo := 0, len(words)-1
	for hi, w := range words {
		if distinct[w.term] == 0 {
			have++
		}
		distinct[w.term]++
		for have == len(distinct) {
			if words[hi].to-words[lo].from < words[bestTo].to-words[bestFrom].from {
				bestFrom, bestTo = lo, hi
			}
			distinct[words[lo].term]--
			if distinct[words[lo].term] == 0 {
				have--
			}
			lo++
		}
	}
	return bestFrom, bestTo
}

// holdsWord reports whether a line holds two letters or digits in a row,
// so that a bracket alone ("{", "});") is not quoted as what a line
// announces.
func holdsWord(line string) bool {
	run := 0
	for _, r := range line {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			run++
			if run == 2 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// isCommentLine reports whether a (trimmed) line is a code comment alone
// ("// eslint.config.js", "# install it", "<!-- … -->"): the file name or
// remark a code example opens with, not what the line before announced.
func isCommentLine(t string) bool {
	for _, p := range []string{"//", "/*", "<!--", "# ", "-- "} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// calloutLineBoost is how much more a line inside a note weighs as a
// section's lines are chosen (not as sections are ranked): docs set apart
// in a callout what a reader would otherwise miss, the exception or the
// condition ("> If the provided expression is not a `Promise`, only the
// `:then` branch will be rendered"), in their own words rather than the
// question's, so such a line shares fewer of its words than the prose
// around it that restates the topic. Only for a question asking yes or
// no, what happens, for a caveat, or naming a case (if, unless): for
// every question (1.3) tune ask lost 7 (value questions' lines went to
// notes) for 3; at 1.2 the same tune facts less one, at 1.3 one lost.
const calloutLineBoost = 1.25

// calloutLines reports, for each line from from to to (1-based), whether
// it is inside a callout: a blockquote line (`> ...`, a GitHub alert's
// too) or a line of a note's container (`::: tip` to `:::`).
func calloutLines(lines []string, from, to int) []bool {
	out := make([]bool, to-from+1)
	open := false
	for k := from; k <= to; k++ {
		t := strings.TrimSpace(lines[k-1])
		switch {
		case strings.HasPrefix(t, ":::"):
			// A note's container opens with its kind; others (ESLint's
			// ":::incorrect" examples, ":::code-group" tabs) are no note.
			kind, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(strings.TrimLeft(t, ":"))), " ")
			open = noteKinds[kind]
		case strings.HasPrefix(t, ">"):
			out[k-from] = true
		default:
			out[k-from] = open
		}
	}
	return out
}

// noteKinds are the kinds of container (VitePress's, Docusaurus's `:::`)
// that set a note apart.
var noteKinds = map[string]bool{"tip": true, "note": true, "info": true, "warning": true,
	"danger": true, "caution": true, "important": true}

// ifyForm is the question's term that w is another form of when both are
// forms of one verb in -ify that Stem leaves apart: "identify" and
// "identified" (identif), "specify" and "specifies". Only where lines are
// chosen: in Rank it moved PostgreSQL's held-out order (an earlier try in
// Stem itself).
func ifyForm(w string, want map[string]bool) string {
	switch {
	case len(w) >= 6 && strings.HasSuffix(w, "if") && want[w+"y"]:
		return w + "y"
	case len(w) >= 7 && strings.HasSuffix(w, "ify") && want[w[:len(w)-1]]:
		return w[:len(w)-1]
	}
	return ""
}
