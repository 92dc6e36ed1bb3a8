package passage

// Which lines of a section an answer quotes: the best ones (Lines), the
// short line a chosen line announces, and in the best section the line
// that follows each. Ranked search_documents and librarian_ask both quote
// through Shown and ShownFollowed (librarian_ask's later passages through
// ShownProse, Shown's prose lines).

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SectionLines is how many lines a section is quoted by (Shown's n), in
// ranked search_documents and librarian_ask alike.
const SectionLines = 3

// announcedLineRunes is the longest line Shown quotes because a chosen
// line announces it: decided on the fact eval's tune sets (60 and 100 held
// one fact more each way, the held-out sets the same, answers 0 to 3 %
// larger).
const announcedLineRunes = 60

// followedLineRunes is the longest line ShownFollowed quotes because it
// follows a chosen line: the fact is often the next list item or the
// next sentence or paragraph after the line that names the topic, in words
// the question does not share. Decided on a set of fact questions written
// apart from the tune sets (64, over eight corpora, that no change had been
// tried on): 160 runes held 2 facts of them more, 250 4, 320 4.
const followedLineRunes = 250

// Shown returns the lines of lines from..to (a section) to quote for q:
// its n best (Lines) or, when none holds a word, fallback (a search
// index's best lines), less those a section quoted above shows already
// (shown, to which it adds its own), after a chosen line ending in a
// colon the short line it announces, and after a chosen list item the next
// one when it starts alike (parallelItems), in line order. A section and
// its subsection both found quote a line once. Ranked search_documents and
// librarian_ask quote each section through it, so they quote the same
// lines.
//
// In every section, a chosen line whose hard-wrapped sentence ends in a
// colon announces the line after that end ("you need to note" / "that:"
// / "1. Using gRPC for exporting is not supported"): fresh8 +1 each way;
// and, when the question asks for a value, the section's labelled default
// is quoted (labelledDefaultLine): in the best section, tune +1 each way;
// in every section, tune 609 -> 610 and 618 -> 620 of 710 (PostgreSQL +2
// each way), held out +1 each way over SQLite (PostgreSQL the same),
// answers 0.2 to 0.3 % larger; a label with no value of its own with the
// list nested under it (nestedValues): tune +1 each way, held out +1 each
// way over both indexes.
func (q Question) Shown(lines []string, from, to, n int, fallback []int, shown map[int]bool) []int {
	return q.shown(lines, from, to, n, fallback, shown, false, false)
}

// ShownProse is Shown without code: a code line among the n best takes
// its place but is not quoted, unless the section has no prose line
// among them (chosen's proseOnly). librarian_ask quotes its passages
// after the first through it: on the tune sets its answers held the same
// facts in 2 % fewer tokens (mean 461 -> 450), room for a fourth passage.
func (q Question) ShownProse(lines []string, from, to, n int, fallback []int, shown map[int]bool) []int {
	return q.shown(lines, from, to, n, fallback, shown, false, true)
}

// ShownFollowed is Shown for the best section of an answer, the likeliest
// to hold the fact: each chosen line is quoted with the line that follows
// it (the next one that is not blank, within two lines and the section),
// unless that is a heading or longer than followedLineRunes; a chosen
// code line with the prose line introducing its block (introducingLine,
// when it holds a word of the question: tune +1 each way over both
// indexes, held out the same); a chosen list item with the prose line
// that closes its list (listClosingLine: tune +1 each way over both
// indexes, held out the same); the last chosen place goes to the line
// holding a word of the question no other line holds (withRareLine); a
// followed line that a hard wrap cuts mid-sentence with the lines up to
// its sentence's end (sentenceEnd, up to five: the 88 fresh10 questions
// +1 each way, tune and held out the same), and after a hard-wrapped
// sentence's end the next sentence or list item, to its end (up to
// maxNextSentenceLines lines), when it holds a word of the question. The sentence's end held one of the 88
// fresh8 questions (written apart from the tune sets) more; with the
// wrapped sentence's colon and the labelled default (Shown), in the best
// section only at first, held out +3 each way over SQLite, +2 and +3 over
// PostgreSQL, answers 0.4 % larger.
func (q Question) ShownFollowed(lines []string, from, to, n int, fallback []int, shown map[int]bool) []int {
	return q.shown(lines, from, to, n, fallback, shown, true, false)
}

// maxFollowedShare bounds how many lines the best section quotes for
// each of its n places as a wrapped sentence is followed to its end
// (sentenceEnd): a paragraph hard-wrapped with no full stop is not
// quoted whole.
const maxFollowedShare = 3

// maxNextSentenceLines is how many lines the best section quotes of the
// sentence or list item after a chosen line's hard-wrapped sentence.
const maxNextSentenceLines = 3

// maxSentenceEndLines is how many lines past a followed line its wrapped
// sentence is looked for to its end (sentenceEnd).
const maxSentenceEndLines = 5

func (q Question) shown(lines []string, from, to, n int, fallback []int, shown map[int]bool, followed, prose bool) []int {
	block := codeBlocks(lines, from, to)
	best, codePlaces := q.chosen(lines, from, to, n, shown, block, prose)
	if followed && len(best) == n {
		best = q.withRareLine(lines, from, to, best, shown, block)
	}
	if len(best) == 0 {
		// The index's lines, those of the section not shown above.
		best = slices.DeleteFunc(slices.Clone(fallback), func(l int) bool { return shown[l] || l < max(from, 1) || l > min(to, len(lines)) })
	}
	if len(best) > n {
		best = best[:n]
	}
	if !followed {
		// A chosen heading names the topic, as the section's own header
		// does already: in a section other than the best (whose chosen
		// lines are each quoted with the line that follows them), its place
		// goes to the line under it ("#### Rules" / "- Add `h-*` and `w-*`
		// utility classes to set height and width").
		for i, l := range best {
			if l < 1 || l > len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[l-1]), "#") {
				continue
			}
			if k := followingLine(lines, l, to); k > 0 && block[k] == 0 && !shown[k] && !slices.Contains(best, k) {
				best[i] = k
			}
		}
	}
	chosen := slices.Clone(best)
	// unquoted tells whether line k is neither shown above nor quoted yet:
	// the test every line added below passes.
	unquoted := func(k int) bool { return k > 0 && !shown[k] && !slices.Contains(best, k) }
	// A chosen line that announces what follows ("by setting up an
	// environment variable in your `.env` file:") is quoted with the first
	// line it announces when that line is short (NODEJS_HELPERS=0): the
	// value is there, in words the question does not share. It is looked
	// for three lines down, or three past a container's marker (isMarkup:
	// VitePress's "::: code-group" of install commands, MDX's <Tabs>: the
	// first tab's line, up to six lines down; tune ranked +1, held out the
	// same).
	for _, l := range chosen {
		// A hard-wrapped sentence announces from its last line ("you
		// need to note" / "that:").
		for range 2 {
			if c := sentenceEnd(lines, l, to, block); c > 0 {
				l = c
			}
		}
		if l < 1 || l > len(lines) || !strings.HasSuffix(strings.TrimSpace(lines[l-1]), ":") {
			continue
		}
		limit := l + 3
		for k := l + 1; k <= min(to, len(lines), limit); k++ {
			t := strings.TrimSpace(lines[k-1])
			if isMarkup(t) && limit < l+6 {
				limit = k + 3
				continue
			}
			if isBlankOrFence(t) || isCommentLine(t) || !holdsWord(t) {
				continue
			}
			if block[k] > 0 && opensConstruct(t) {
				// A code line that only opens a construct (`<Slider`,
				// `export default {`) says nothing, as a bracket alone does:
				// the line past it is looked at, even past the three lines
				// looked through: the construct's content. Tune and
				// fresh12-14 the same facts in answers 0.02 to 0.16 %
				// smaller; with nothing quoted past the three lines, 0.2 to
				// 0.5 % smaller, the same facts.
				limit = max(limit, k+1)
				continue
			}
			if utf8.RuneCountInString(t) <= announcedLineRunes && unquoted(k) {
				best = append(best, k)
				// An announced list's first item is one case of what the
				// line announces ("- Local runs (non-CI): works same as
				// `new`"): the next item, when as short, is the other.
				if m := listMarker(t); m != "" && k < min(to, len(lines)) {
					second := strings.TrimSpace(lines[k])
					if listMarker(second) == m && utf8.RuneCountInString(second) <= announcedLineRunes && unquoted(k+1) {
						best = append(best, k+1)
					}
				}
			}
			break
		}
	}
	if q.asksValue || q.asksDefault {
		// An option's section states its default in words no question
		// shares ("- **Default:** `['**/package.json', ...]`").
		if k := labelledDefaultLine(lines, from, to, block); k > 0 && !shown[k] {
			if !slices.Contains(best, k) {
				best = append(best, k)
			}
			for _, v := range nestedValues(lines, k, to) {
				if unquoted(v) {
					best = append(best, v)
				}
			}
		}
	}
	if followed {
		for _, l := range chosen {
			if k := listClosingLine(lines, l, to, block); unquoted(k) {
				best = append(best, k)
			}
		}
		for _, l := range chosen {
			if k := introducingLine(lines, l, from, block); unquoted(k) && q.holdsAsked(lines[k-1]) {
				best = append(best, k)
				// An introducing line that continues a hard-wrapped sentence
				// ("even over `!important` properties:") is quoted with the
				// line that starts it, where the statement is.
				if s := sentenceStart(lines, k, from, block); unquoted(s) {
					best = append(best, s)
				}
			}
		}
		// A chosen code line is quoted with the prose line right after
		// its block (codeClosingLine), when that line holds a word asked:
		// what the example shows, said in words ("If `false` is returned,
		// the module will not be cached on the file system." under a
		// plugin's example). Tune the same, fresh12-14 ask +2, ranked +3,
		// answers 0.3 % larger (tune); with lines ending in a colon too
		// (the next example's introduction), the same facts 0.5 % larger.
		for _, l := range chosen {
			if k := codeClosingLine(lines, l, to, block); unquoted(k) && q.holdsAsked(lines[k-1]) {
				best = append(best, k)
			}
		}
		var ends []int // where a chosen line's wrapped sentence ends
		for _, l := range chosen {
			if k := followingLine(lines, l, to); unquoted(k) {
				best = append(best, k)
				// Up to maxSentenceEndLines lines to the sentence's end, while
				// the section quotes at most maxFollowedShare lines a place.
				last, wrapped := k, sentenceEnd(lines, l, to, block) == k
				for c, m := sentenceEnd(lines, k, to, block), 0; c > 0 && m < maxSentenceEndLines && len(best) < maxFollowedShare*max(n, 1); c, m = sentenceEnd(lines, c, to, block), m+1 {
					if unquoted(c) {
						best = append(best, c)
					}
					last, wrapped = c, true
				}
				if wrapped && sentenceEnd(lines, last, to, block) == 0 {
					ends = append(ends, last)
				}
			}
		}
		// In hard-wrapped prose the line that follows a chosen one carries
		// its sentence on (above); the next sentence or list item, which an
		// unwrapped doc puts on the line that follows, is quoted after the
		// sentence's end, to its own end, up to followedLineRunes and
		// maxNextSentenceLines lines, when one of them holds a word of the
		// question ("- Retry Mechanism: ..." / "... By default, it retries
		// for up to 5 minutes." after the list item before it): tune +2
		// each way, fresh12-14 +2 each way, answers 0.3 to 0.4 % larger
		// (0.4 to 0.5 % when it need hold no word, the same facts).
		for _, last := range ends {
			if f := followingLine(lines, last, to); unquoted(f) {
				runes := utf8.RuneCountInString(strings.TrimSpace(lines[f-1]))
				next := []int{f}
				asked := q.holdsAsked(lines[f-1])
				for c, m := sentenceEnd(lines, f, to, block), 1; c > 0 && runes < followedLineRunes && m < maxNextSentenceLines; c, m = sentenceEnd(lines, c, to, block), m+1 {
					runes += utf8.RuneCountInString(strings.TrimSpace(lines[c-1]))
					asked = asked || q.holdsAsked(lines[c-1])
					if unquoted(c) {
						next = append(next, c)
					}
				}
				if asked {
					best = append(best, next...)
				}
			}
		}
	} else {
		// A place a code line took unquoted (ShownProse) goes to the line
		// that follows a chosen prose line, when it holds a word asked:
		// the fact is often the next sentence or row after the line naming
		// the topic ("If the component is not found, ... the name string
		// is returned" after "`resolveComponent()` must be called inside
		// ..."). With link-only lines passed over (linkOnly), tune ask
		// 863 -> 865, ranked 877 -> 880, fresh12-14 +1 each way (223 ->
		// 224, 226 -> 227), answers 0.6 % (ask) and 0.9 % (ranked) larger
		// in bytes. Any following line: +1 -1 and +2, 1.1 to 1.5 % larger;
		// one holding a word asked that the chosen line lacks: +2 each way
		// in answers the same size, fresh12-14 the same.
		if codePlaces > 0 {
			for _, l := range chosen {
				if codePlaces == 0 {
					break
				}
				if k := followingLine(lines, l, to); k > 0 && block[k] == 0 && unquoted(k) && q.holdsAsked(lines[k-1]) {
					best = append(best, k)
					codePlaces--
				}
			}
		}
		// A short sentence alone on its line ("Hono's API is simple.")
		// says little; in a doc written a sentence a line, the paragraph's
		// next line is its next sentence, which says what it leads to
		// ("Just composed by extended objects from Web Standards."). The
		// best section quotes every chosen line's next line already. Tune
		// ranked +1 (ask the same), answers +0.01 %; fresh12-14 and
		// fresh16 the same answers byte for byte.
		for _, l := range chosen {
			if l < 1 || l >= min(to, len(lines)) || block[l] > 0 || block[l+1] > 0 {
				continue
			}
			t, next := strings.TrimSpace(lines[l-1]), strings.TrimSpace(lines[l])
			if utf8.RuneCountInString(t) > shortSentenceRunes || !strings.HasSuffix(t, ".") || strings.HasPrefix(t, "#") || listMarker(t) != "" ||
				isBlankOrFence(next) || strings.HasPrefix(next, "#") || isMarkup(next) || listMarker(next) != "" || !unquoted(l+1) {
				continue
			}
			best = append(best, l+1)
		}
		// Another section quotes the next case of a list of cases.
		for _, l := range chosen {
			if l < 1 || l >= min(to, len(lines)) {
				continue
			}
			if k := l + 1; unquoted(k) && parallelItems(lines[l-1], lines[k-1]) {
				best = append(best, k)
			}
		}
	}
	// In the best section, a chosen line that continues a hard-wrapped
	// sentence is quoted with the line that starts it (sentenceStart).
	if followed {
		for _, l := range chosen {
			if k := sentenceStart(lines, l, from, block); unquoted(k) {
				best = append(best, k)
			}
		}
	}
	for _, l := range best {
		shown[l] = true
	}
	slices.Sort(best)
	return best
}

// maxScoredLines bounds how many of a section's scored lines chosen looks
// through for its n: enough past those a code block already gave one.
const maxScoredLines = 12

// proseShareOfCode is how near a code line's score the best prose line
// must score to take a section's place when only code was chosen (0.5: the
// same facts in answers 0.15 % larger; 0.3: 0.25 % larger).
const proseShareOfCode = 0.75

// chosen is the section's n best lines (Lines) that a section quoted above
// does not show already (shown), and at most one of each fenced code
// block: an example that repeats the question's names on every line
// would otherwise fill the places of the prose that states the fact (a
// rule's `"max-classes-per-file": ["error", 1]` lines before "`max` …
// (defaulted to 1)"). Decided on 72 questions written apart from the
// tune sets: +1 each way over SQLite, +2 over PostgreSQL; held out +3
// each way over both.
//
// With proseOnly, a code line among the n best takes its place but is not
// quoted, unless none of them is prose (the second result: how many such
// places), and a line that is only links is passed over.
func (q Question) chosen(lines []string, from, to, n int, shown map[int]bool, block map[int]int, proseOnly bool) ([]int, int) {
	used := map[int]bool{}
	var out []int
	places, firstCode := 0, 0
	looked := 0
	firstScore, prose := 0.0, 0
	scored := q.Lines(lines, from, to, to-from+1)
	for i, sc := range scored {
		if places == n || looked == n+maxScoredLines {
			// A section whose places all went to code shows its best prose
			// line instead of a code line, when it scores near it.
			if proseOnly && len(out) == 0 && firstCode > 0 {
				for _, p := range scored[i:] {
					if block[p.Line] == 0 && !shown[p.Line] && !linkOnly(lines[p.Line-1]) {
						if p.Score >= proseShareOfCode*firstScore {
							prose = p.Line
						}
						break
					}
				}
			}
			break
		}
		if b := block[sc.Line]; b > 0 && used[b] {
			continue // a block's other lines do not use up the lines looked through
		}
		looked++
		if shown[sc.Line] || repeatsChosen(lines, out, sc.Line) {
			continue
		}
		if htmlComment(strings.TrimSpace(lines[sc.Line-1])) {
			continue
		}
		if proseOnly && linkOnly(lines[sc.Line-1]) {
			continue // a link's words alone: no fact, and a long address (tune answers 0.35 % smaller, the same facts)
		}
		if b := block[sc.Line]; b > 0 {
			used[b] = true
			if proseOnly {
				places++
				if firstCode == 0 {
					firstCode, firstScore = sc.Line, sc.Score
				}
				continue
			}
		}
		places++
		out = append(out, sc.Line)
	}
	if len(out) == 0 && prose > 0 {
		return []int{prose}, places - 1
	}
	if len(out) == 0 && firstCode > 0 {
		out = append(out, firstCode) // a section of code alone shows its best line
		return out, 0
	}
	return out, places - len(out)
}

// minRepeatedRunes is how long a line must be for chosen to pass over it
// when a line it chose already reads (nearly) the same: the same long
// command in each of a section's tabs (npm, bun, deno) says nothing new,
// while a short line such as `@plugin "daisyui" {` opens a different block
// each time.
const minRepeatedRunes = 40

// repeatedShare is how many of two long lines' distinct words they must
// share (of the words either holds) to read as the same line.
const repeatedShare = 0.75

// repeatsChosen reports whether line l, at least minRepeatedRunes long,
// reads as one of the chosen lines: repeatedShare of their words shared.
func repeatsChosen(lines []string, chosen []int, l int) bool {
	t := strings.TrimSpace(lines[l-1])
	if utf8.RuneCountInString(t) < minRepeatedRunes || len(chosen) == 0 {
		return false
	}
	words := wordSet(t)
	for _, c := range chosen {
		other := wordSet(lines[c-1])
		shared := 0
		for w := range words {
			if other[w] {
				shared++
			}
		}
		if union := len(words) + len(other) - shared; union > 0 && float64(shared) >= repeatedShare*float64(union) {
			return true
		}
	}
	return false
}

// wordSet is the distinct words of s (Words).
func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range Words(s) {
		out[w] = true
	}
	return out
}

// codeBlocks numbers the fenced code blocks of lines from..to (1, 2, ...)
// and says which one each line inside one is in (the fences are in none).
func codeBlocks(lines []string, from, to int) map[int]int {
	out := map[int]int{}
	n, in := 0, false
	for k := max(from, 1); k <= min(to, len(lines)); k++ {
		t := strings.TrimSpace(lines[k-1])
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			if !in {
				n++
			}
			in = !in
			continue
		}
		if in {
			out[k] = n
		}
	}
	return out
}

// Best is Lines' line numbers alone.
func (q Question) Best(lines []string, from, to, n int) []int {
	var out []int
	for _, s := range q.Lines(lines, from, to, n) {
		out = append(out, s.Line)
	}
	return out
}

// withoutURLs returns s without its web addresses (a link's target, a bare
// https://…): their words (https, github, com) are not what a line says.
func withoutURLs(s string) string {
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			return s
		}
		from := i
		for from > 0 && isURLRune(rune(s[from-1])) {
			from--
		}
		to := i + 3
		for to < len(s) && isURLRune(rune(s[to])) {
			to++
		}
		s = s[:from] + " " + s[to:]
	}
}

func isURLRune(r rune) bool {
	return r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-._~/?#[]@!$&'*+,;=%:", r))
}

// isMarkup reports whether a trimmed line is only the markup of a
// container around content, no words of its own: a VitePress or
// Docusaurus container (`::: tip`, `:::`), an MDX tab's tag alone
// (`<TabItem value="npm">`, `</Tabs>`), a Hugo shortcode alone
// (`{{< code-toggle file=hugo >}}`, `{{% /note %}}`), an MkDocs admonition or
// tab (`!!! warning`, `=== "npm"`), a GitHub alert's marker alone
// (`> [!NOTE]`). What a chosen line announces, or the line that follows
// it, is the content past it.
func isMarkup(t string) bool {
	switch {
	case strings.HasPrefix(t, ":::"), strings.HasPrefix(t, "!!! "), strings.HasPrefix(t, "=== \""):
		return true
	case strings.HasPrefix(t, "{{<") && strings.HasSuffix(t, ">}}"), strings.HasPrefix(t, "{{%") && strings.HasSuffix(t, "%}}"):
		return strings.Count(t, "{{") == 1
	case strings.HasPrefix(t, "> [!") && strings.HasSuffix(t, "]"):
		return true
	case strings.HasPrefix(t, "<Tab"), strings.HasPrefix(t, "</Tab"):
		return strings.HasSuffix(t, ">") && strings.Count(t, "<") == 1
	}
	return false
}

// holdsAsked reports whether line holds a word the question asks (not
// only a word docs use for one).
func (q Question) holdsAsked(line string) bool {
	want := make(map[string]bool, len(q.terms))
	for _, t := range q.terms {
		if !q.related[t] {
			want[t] = true
		}
	}
	for _, w := range lineTerms(withoutURLs(line)) {
		if q.termOf(w, want) != "" {
			return true
		}
	}
	return false
}

// linkOnly reports whether a line is only links ("[exporter
// package](https://pypi.org/...)", a hard-wrapped sentence's link on a
// line of its own, a "[chat docs](...)" pointer): its words are a link's,
// not a statement.
func linkOnly(line string) bool {
	t := strings.TrimSpace(line)
	had := false
	for {
		i := strings.Index(t, "](")
		if i < 0 {
			break
		}
		open := strings.LastIndex(t[:i], "[")
		end := strings.Index(t[i:], ")")
		if open < 0 || end < 0 {
			break
		}
		t = t[:open] + " " + t[i+end+1:]
		had = true
	}
	if !had {
		return false
	}
	return !strings.ContainsFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

// opensConstruct reports whether a code line only opens a construct whose
// content is on the lines after it: a tag's name alone (`<Slider`), or a
// line ending in an opening bracket (`export default {`, `defineConfig({`).
func opensConstruct(t string) bool {
	if strings.HasSuffix(t, "{") || strings.HasSuffix(t, "(") || strings.HasSuffix(t, "[") {
		return true
	}
	return strings.HasPrefix(t, "<") && !strings.ContainsAny(t, " =>")
}

// shortSentenceRunes is the longest line, ending in a full stop, read as
// a short sentence that leads to the next line of its paragraph.
const shortSentenceRunes = 40
