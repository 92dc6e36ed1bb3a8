package passage

import (
	"slices"
	"strings"
	"unicode"
)

// What a question asks for (a value, a default, a command, a catch) and
// whether a line states that kind of thing: a line of the kind asked for
// answers before one that only shares more of the question's words.

// asksForValue reports whether a question asks for a value: a default, a
// limit, a name, a number, a command.
func asksForValue(q string) bool {
	low := askedPhrase(q)
	if strings.Contains(low, " what happen") || strings.Contains(low, " what does ") && strings.Contains(low, " do ") {
		return false // asks for a behaviour, not a value
	}
	return containsAny(low, []string{" which ", " what ", " default", " how many ", " how much ", " how long ", " how big ", " how large ",
		" how often ", " largest ", " smallest ", " maximum ", " minimum ", " max ", " min ", " limit", " longest ",
		" shortest ", " what is the name", " what name", " what command", " which command", " what port", " what value",
		" what version", " what size", " what format", " what type", " what algorithm", " what hash", " what flag",
		" what option", " what key", " what prefix", " what suffix", " what extension", " what status", " what code",
		" how do i call", " called", " named", " how do i ", " how can i ", " how should i "})
}

// askedPhrase is a question in lower case between blanks, its sentence
// marks read as blanks ("... and Jest finds no tests. Why?"), so that a
// kind's phrases meet it at a sentence's end as they do mid-sentence.
func askedPhrase(q string) string {
	low := strings.ToLower(q)
	low = strings.NewReplacer("?", " ", "!", " ", ",", " ", ";", " ", ":", " ", "(", " ", ")", " ").Replace(low)
	low = strings.ReplaceAll(low, ". ", " ")
	return " " + strings.TrimSuffix(low, ".") + " "
}

// holdsValue reports whether a line states a value: a number, a code span,
// a quoted name or a key: value pair.
func holdsValue(s string) bool {
	if strings.Contains(s, "`") || strings.Contains(s, "\"") || strings.Contains(s, "'") {
		return true
	}
	for _, r := range s {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// defaultLineBoost is how much more a line that states a default weighs,
// when the question asks for one, as lines are chosen (not as sections
// are ranked: weighed there too, it moved sections and lost an answer).
// Chosen on the fact eval's tune sets: 1.5 gained one fact in ranked
// search only, 2 one each way.
const defaultLineBoost = 2.0

// emphasis drops markdown's emphasis marks (**Default:**, _default_).
var emphasis = strings.NewReplacer("*", "", "_", "")

// statesDefault reports whether a line states a default: a "Default:"
// label (a setting's list, a table's column), "defaults to", "default
// is", "(default", "by default".
func statesDefault(line string) bool {
	low := strings.ToLower(emphasis.Replace(line))
	if !strings.Contains(low, "default") || strings.Contains(low, "export default") {
		return false
	}
	return containsAny(low, []string{"default:", "defaults to", "default is", "(default", "default value", "by default"})
}

// commandLineBoost is how much more a line holding a command weighs, as
// lines are chosen, when the question asks for one. Chosen on the fact
// eval's tune sets (1.5 and 2 gained the same fact).
const commandLineBoost = 1.5

// asksForCommand reports whether a question asks for a command or a flag
// ("what command actually deploys", "which command-line switch").
func asksForCommand(q string) bool {
	low := askedPhrase(q)
	return containsAny(low, []string{" what command", " which command", " what cli ", " which cli ", " command-line switch", " command line switch", " what do i run", " what should i run", " which flag", " what flag", " cli flag", " cli option"})
}

// holdsCommand reports whether a line holds a code span that reads as a
// command: a lower-case word, then up to five more (npx wrangler deploy,
// pnpm install --frozen-lockfile), or a long flag (--no-file-parallelism).
func holdsCommand(s string) bool {
	for _, sp := range codeSpans(s) {
		span := strings.TrimSpace(s[sp[0]:sp[1]])
		if strings.HasPrefix(span, "--") && len(span) > 3 {
			return true
		}
		f := strings.Fields(span)
		if len(f) >= 2 && len(f) <= 6 && isCommandWord(f[0]) {
			return true
		}
	}
	return false
}

// isCommandWord reports whether w may name a program: lower case, digits
// and hyphens (npx, vite, create-vite), not a sentence's word or a type.
func isCommandWord(w string) bool {
	for _, r := range w {
		if !(unicode.IsLower(r) || unicode.IsDigit(r) || r == '-') {
			return false
		}
	}
	return len(w) >= 2
}

// caveatLineBoost is how much more a line stating a caveat or a reason
// weighs, as lines are chosen, when the question asks for one. Chosen on
// the fact eval's tune sets: 1.5 gained nothing, 2 one fact each way.
const caveatLineBoost = 2.0

// asksForCaveat reports whether a question asks for a catch, a reason or
// why something still happens ("what's the catch", "why", "still skipped").
func asksForCaveat(q string) bool {
	low := askedPhrase(q)
	return containsAny(low, []string{" catch", " downside", " drawback", " caveat", " gotcha", " pitfall", " why ", " risk", " trade-off", " tradeoff", " still "})
}

// statesCaveat reports whether a line states a caveat or a reason: "however",
// "note that", "beware", "slower", "because", "this means"..., or advises
// against something ("not recommended", "avoid", "expensive": the 88
// fresh11 questions +1 each way, tune and held out the same).
func statesCaveat(s string) bool {
	low := " " + strings.ToLower(s) + " "
	return containsAny(low, []string{" however", " note that", " beware", " be aware", " caution", " warning", " keep in mind", " careful", " downside", " drawback", " slower", " limitation", " because ", " precaution", " this means ", " otherwise", " not recommended", " discouraged", " avoid", " expensive", " costly", " overhead", " performance heavy"})
}

// kindWeight is how much more text weighs for stating what the question
// asks for: a value when it asks for one, the code it pastes; and, as
// lines are chosen (not as sections are ranked), a command, a caveat or a
// default when it asks for one.
func (q Question) kindWeight(text string, choosing bool) float64 {
	w := 1.0
	if q.asksValue && holdsValue(text) {
		w *= 1.6
	}
	if choosing && q.asksCommand && holdsCommand(text) {
		w *= commandLineBoost
	}
	if choosing && q.asksCaveat && statesCaveat(text) {
		w *= caveatLineBoost
	}
	if choosing && q.asksYesNo && statesLimit(text) {
		w *= limitLineBoost
	}
	if choosing && q.asksDefault && statesDefault(text) {
		w *= defaultLineBoost
	}
	if choosing && q.asksValue && q.keyedByTerm(text) {
		w *= keyedLineBoost
	}
	if len(q.code) > 0 {
		folded := foldCode(text)
		for _, c := range q.code {
			if strings.Contains(folded, c) {
				w *= quotedCallBoost
			}
		}
	}
	return w
}

// containsAny reports whether s holds one of subs.
func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// limitLineBoost is how much more a line stating a limit weighs, as lines
// are chosen, when the question asks yes or no: 18 of the 46 such tune
// questions are answered by one ("does not check ES2015 imports"). Chosen
// on the fact eval's tune sets: 1.5 gained one fact over PostgreSQL
// (ranked), 2 lost one each way.
const limitLineBoost = 1.5

// asksYesOrNo reports whether a question asks whether something can, does
// or will happen ("Can it skip those?", "will it be reported?").
func asksYesOrNo(q string) bool {
	low := " " + strings.ToLower(q) + " "
	for _, sep := range []string{". ", "? ", ", ", " and ", " but ", " so "} {
		low = strings.ReplaceAll(low, sep, " | ")
	}
	for _, clause := range strings.Split(low, "|") {
		f := strings.Fields(clause)
		if len(f) > 1 && yesNoVerbs[f[0]] {
			return true
		}
	}
	return false
}

var yesNoVerbs = map[string]bool{"can": true, "could": true, "does": true, "do": true, "is": true, "are": true,
	"will": true, "would": true, "should": true, "must": true, "may": true}

// statesLimit reports whether a line states a limit or an exception:
// not, never, only, unless, except, without, required, optional (whether
// something may be left out: "{PLACEMENT} is required"), each between blanks (with
// punctuation read as blanks too, "is not." and "(only", the tune sets
// lost one fact over PostgreSQL).
func statesLimit(s string) bool {
	low := " " + strings.ToLower(s) + " "
	return containsAny(low, []string{" not ", " no ", " never ", " cannot ", " can't ", " only ", " unless ", " except", " won't ", " doesn't ", " isn't ", " without ", " required ", " optional "})
}

// keyedLineBoost is how much more a table row or a list item weighs, as
// lines are chosen, when its key is a word the question asks a value of
// ("| version: | The version for your custom Collector | Yes | `1.0.0` |").
// Chosen on the fact eval's tune sets: 1.5 and 2 gained one fact each
// way (PostgreSQL ask 2), fresh11 and held out the same.
const keyedLineBoost = 1.5

// keyedByTerm reports whether line is a table row or a list item whose key
// (its first cell, or its text before a colon or dash, one or two words)
// is made of the question's terms.
func (q Question) keyedByTerm(line string) bool {
	t := strings.TrimSpace(line)
	var key string
	switch {
	case strings.HasPrefix(t, "|"):
		cells := strings.Split(t, "|")
		if len(cells) < 3 {
			return false
		}
		key = cells[1]
	case listMarker(t) != "":
		// Every marker ends at the line's first space ("-", "*", "12.").
		rest := strings.TrimSpace(t[strings.IndexByte(t, ' ')+1:])
		i := strings.IndexAny(rest, ":—")
		if i <= 0 {
			return false
		}
		key = rest[:i]
	default:
		return false
	}
	words := Words(emphasis.Replace(strings.Trim(strings.TrimSpace(key), "`:")))
	if len(words) == 0 || len(words) > 2 {
		return false
	}
	for _, w := range words {
		if s := Stem(w); !slices.Contains(q.terms, s) || q.related[s] {
			return false
		}
	}
	return true
}

// asksForRequirement reports whether a question asks what a thing needs or
// runs on: a minimum or oldest version, what it supports or is compatible
// with.
func asksForRequirement(q string) bool {
	low := askedPhrase(q)
	if containsAny(low, []string{" oldest ", " minimum ", " at least ", " prerequisite", " requirement", " compatible ", " compatibility ", " supported ", " supports "}) {
		return true
	}
	return strings.Contains(low, " version") && containsAny(low, []string{" need", " require ", " required ", " run on ", " work with ", " works with "})
}
