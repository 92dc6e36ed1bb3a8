package passage

// The lines an answer quotes for their place next to a chosen one: the
// line that follows it, the prose introducing its code block or closing
// its list, the other cases of a list or a paragraph of cases, a
// setting's labelled default and the list under it, and in hard-wrapped
// prose the lines that start and end its sentence. Shown decides when each
// applies; these only find them.

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// followingLine is the line after line l that ShownFollowed quotes with
// it (0 when none): the next one not blank nor a fence within two lines
// and to, when it is not a heading, holds a word (not `});`) and is at
// most followedLineRunes long. A
// container's marker (`::: warning`, isMarkup) is passed, and the two
// lines after it looked at instead: the warning is the line (tune +1 each
// way over both indexes, held out the same); so is a second one (a tab
// inside its tabs), up to five lines down. So is the line right after l
// when it reads as l does (repeatsChosen: a screenshot's dark-mode twin
// under its light one, the same command in the next tab), and the two
// lines after it looked at instead: tune +1 each way, the fresh sets the
// same, answers no larger.
func followingLine(lines []string, l, to int) int {
	if l < 1 {
		return 0 // a fallback line outside the file (the index's, stale)
	}
	limit := l + 2
	for k := l + 1; k <= min(to, len(lines), limit); k++ {
		t := strings.TrimSpace(lines[k-1])
		if isBlankOrFence(t) {
			continue
		}
		if isMarkup(t) && limit < l+6 {
			limit = k + 2
			continue
		}
		if htmlComment(t) {
			limit = min(k+2, l+6)
			continue // an author's note to the docs' editors, no fact
		}
		if k == l+1 && repeatsChosen(lines, []int{l}, k) {
			limit = k + 2 // its twin (a dark-mode screenshot, another tab's command) says nothing new
			continue
		}
		if strings.HasPrefix(t, "#") || utf8.RuneCountInString(t) > followedLineRunes || !holdsWord(t) {
			return 0
		}
		return k
	}
	return 0
}

// parallelItems reports whether b, the line after the list item a, is an
// item of the same list that starts with the same parallelWords words: a
// list of cases ("- The cookie name starts with `__Host-`, but `secure`
// …", "- The cookie name starts with `__Host-`, but `path` …"), one of
// which a section other than the best quotes; the next case is then quoted
// too, where the best section quotes the line after each of its own.
// Decided on the fact eval's tune sets: +2 each way (PostgreSQL +1), held
// out the same, answers the same size (2 words: the same facts). A keyed
// list's items (isKey) are cases too when their words after the key open
// alike: an option list's next option, whose value the question may ask
// (tune ranked +1, answers +0.06 %; ask +0, fresh12-14 the same).
func parallelItems(a, b string) bool {
	ta, tb := strings.TrimSpace(a), strings.TrimSpace(b)
	for _, m := range []string{"- ", "* ", "+ "} {
		if strings.HasPrefix(ta, m) && strings.HasPrefix(tb, m) {
			wa, wb := strings.Fields(ta[2:]), strings.Fields(tb[2:])
			if len(wa) < parallelWords || len(wb) < parallelWords {
				return false
			}
			if slices.Equal(wa[:parallelWords], wb[:parallelWords]) {
				return true
			}
			// A keyed list (an option's name, then what it does): two
			// keys whose descriptions open alike ("- **`maxDepth`** -
			// Maximum depth ...", "- **`maxLength`** - Maximum length ...").
			return isKey(wa[0]) && isKey(wb[0]) && slices.Equal(wa[1:parallelWords], wb[1:parallelWords])
		}
	}
	return false
}

// parallelWords is how many first words two list items share to be cases
// of one rule (parallelItems).
const parallelWords = 3

// introducingLine is the prose line that introduces the code block line l
// is in (0 when l is not in one, or none does): the last line before its
// fence that is not blank nor markup, within from, when it introduces
// what follows (introduces: it ends with a colon, "the directives will
// take precedence, even over `!important` properties:", or its last
// sentence points on to an example, "The following is an example that
// uses the option.") and is not a heading: what the example shows, said
// in words. A block right after another one (an example's second file) is
// introduced by the line introducing the first. Pointing on as a colon
// does, past one block: tune +1 each way (the `initApp` option's line
// above two files of its example), fresh12-14 the same, answers +0.00 %
// (ask) and +0.04 % (ranked) in bytes.
func introducingLine(lines []string, l, from int, block map[int]int) int {
	b := block[l]
	if b == 0 {
		return 0
	}
	fence := l
	for fence > from && block[fence-1] == b {
		fence--
	}
	fence-- // the opening fence
	skipped := false
	for k := fence - 1; k >= max(from, 1) && k >= fence-3; k-- {
		t := strings.TrimSpace(lines[k-1])
		if t == "" || isMarkup(t) {
			continue
		}
		if !skipped && block[k] == 0 && block[k-1] > 0 && isBlankOrFence(t) {
			// The block right above (an example's first file, then its
			// second) is introduced by the same line.
			skipped = true
			b := block[k-1]
			fence = k - 1
			for fence > from && block[fence-1] == b {
				fence--
			}
			fence--
			k = fence
			continue
		}
		if block[k] > 0 || strings.HasPrefix(t, "#") || !introduces(t) || utf8.RuneCountInString(t) > followedLineRunes {
			return 0
		}
		return k
	}
	return 0
}

// introduces reports whether a prose line introduces what follows it: it
// ends with a colon, or its last sentence points on to an example ("The
// following is an example that uses the option.", "as shown below.").
func introduces(t string) bool {
	if strings.HasSuffix(t, ":") {
		return true
	}
	if !strings.HasSuffix(t, ".") {
		return false // a hard-wrapped sentence's middle
	}
	last := strings.ToLower(t)
	if i := strings.LastIndex(strings.TrimRight(last, ". "), ". "); i >= 0 {
		last = last[i+2:]
	}
	return containsAny(last, []string{"the following", "as follows", "below", "an example", "example that", "like this"})
}

// codeClosingLine is the prose line right after the code block line l is
// in (0 when l is not in one, or none follows): the first line past its
// closing fence, within three lines (blank lines, a container's marker and
// a lone HTML tag such as `</div>` passed, and the same example's blocks
// in the next tabs right after it), when it is prose (no heading, table
// row, nor a line ending in a colon, which introduces the next example) of
// at most followedLineRunes: what the example shows, said in words ("If
// `false` is returned, the module will not be cached on the file system."
// under a plugin's example).
func codeClosingLine(lines []string, l, to int, block map[int]int) int {
	b := block[l]
	if l < 1 || b == 0 {
		return 0
	}
	end := closingFence(lines, l, to, block)
	limit, skipped := end+3, 0
	for k := end + 1; k <= min(to, len(lines), limit); k++ {
		t := strings.TrimSpace(lines[k-1])
		if t == "" {
			continue
		}
		if isMarkup(t) || lonelyTag(t) {
			limit = min(k+2, end+maxMarkupLines)
			continue
		}
		if block[k+1] > 0 && isBlankOrFence(t) && skipped < maxGroupBlocks {
			// The same example in the next tab (another language, API
			// style or package manager): the prose is past the group.
			skipped++
			end = closingFence(lines, k+1, to, block)
			k, limit = end, end+3
			continue
		}
		if block[k] > 0 || isBlankOrFence(t) || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") || strings.HasSuffix(t, ":") ||
			utf8.RuneCountInString(t) > followedLineRunes || !holdsWord(t) {
			return 0
		}
		return k
	}
	return 0
}

// closingFence is the line closing the code block line l is in: the one
// after its last line within to.
func closingFence(lines []string, l, to int, block map[int]int) int {
	end := l
	for end < min(to, len(lines)) && block[end+1] == block[l] {
		end++
	}
	return end + 1
}

// maxGroupBlocks is how many code blocks right after a chosen line's
// block (its tabs) codeClosingLine passes to reach the prose past them.
const maxGroupBlocks = 3

// maxMarkupLines is how far past a block's closing fence codeClosingLine
// looks when markup (a tab's or container's closing tags) comes first.
const maxMarkupLines = 8

// lonelyTag reports whether t is one HTML tag alone (`</div>`, `<div
// class="options-api">`): markup around content, no words of its own.
func lonelyTag(t string) bool {
	return strings.HasPrefix(t, "<") && strings.HasSuffix(t, ">") && strings.Count(t, "<") == 1
}

// listClosingLine is the prose line that closes the list line l is an
// item of (0 when l is no item, or none does): the first line past the
// list's last item, past one blank line, when it is prose (no heading,
// item, code or markup) of at most followedLineRunes ("All are
// readonly." after a list of bindings): what holds for every item.
func listClosingLine(lines []string, l, to int, block map[int]int) int {
	if l < 1 || l > len(lines) || block[l] > 0 || listMarker(strings.TrimSpace(lines[l-1])) == "" {
		return 0
	}
	last := l
	for k := l + 1; k <= min(to, len(lines)); k++ {
		t := strings.TrimSpace(lines[k-1])
		if listMarker(t) != "" || (t != "" && (lines[k-1][0] == ' ' || lines[k-1][0] == '\t')) {
			last = k
			continue
		}
		break
	}
	for k := last + 1; k <= min(to, len(lines), last+2); k++ {
		t := strings.TrimSpace(lines[k-1])
		if t == "" {
			continue
		}
		if block[k] > 0 || isBlankOrFence(t) || isMarkup(t) || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") ||
			listMarker(t) != "" || strings.HasSuffix(t, ":") || utf8.RuneCountInString(t) > followedLineRunes {
			return 0
		}
		return k
	}
	return 0
}

// listMarker is a list item's marker ("-", "*", "+", or "1." for any
// number), "" for a line that is not an item.
func listMarker(t string) string {
	for _, m := range []string{"- ", "* ", "+ "} {
		if strings.HasPrefix(t, m) {
			return m
		}
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' ' {
		return "1" + t[i:i+1]
	}
	return ""
}

// labelledDefaultLine is the first line of from..to outside code that
// states a setting's default by a label ("- **Default:** `'node_modules/.vitest-cache'`",
// "Default: `["clover", "json"]`"), 0 when none: an option's section
// gives its default there, in words no question shares.
func labelledDefaultLine(lines []string, from, to int, block map[int]int) int {
	for k := max(from, 1); k <= min(to, len(lines)); k++ {
		if block[k] > 0 {
			continue
		}
		t := strings.ToLower(strings.TrimSpace(emphasis.Replace(lines[k-1])))
		t = strings.TrimSpace(strings.TrimLeft(t, "-+>|"))
		if strings.HasPrefix(t, "default:") || strings.HasPrefix(t, "default value:") {
			return k
		}
	}
	return 0
}

// sentenceEnd is the line after l when l, a line of a hard-wrapped
// paragraph, stops mid-sentence (no closing punctuation) and the next line
// carries the sentence on (prose, not a list item, heading or code), 0
// otherwise: a followed line cut by the wrap ("logs of level") is quoted to
// the end of its sentence ("`INFO` or higher are sent to the console").
func sentenceEnd(lines []string, l, to int, block map[int]int) int {
	k := l + 1
	if l < 1 || k > min(to, len(lines)) || block[l] > 0 || block[k] > 0 {
		return 0
	}
	t, next := strings.TrimSpace(lines[l-1]), strings.TrimSpace(lines[k-1])
	if t == "" || endsSentence(t) || isBlankOrFence(next) || strings.HasPrefix(next, "#") ||
		isMarkup(next) || listMarker(next) != "" || utf8.RuneCountInString(next) > followedLineRunes {
		return 0
	}
	return k
}

// maxNestedValues bounds how many items of a list nested under a label
// with no value of its own ("* Default:") are quoted with it.
const maxNestedValues = 4

// nestedValues returns the items of the list nested under line l when l
// is a label with nothing after its colon ("- **Default:**", then "  - if
// `watch` is disabled, uses all available parallelism", ...): the label's
// value is there. None when l has a value.
func nestedValues(lines []string, l, to int) []int {
	t := strings.TrimRight(emphasis.Replace(lines[l-1]), " \t")
	if !strings.HasSuffix(t, ":") {
		return nil
	}
	indent := len(lines[l-1]) - len(strings.TrimLeft(lines[l-1], " \t"))
	var out []int
	for k := l + 1; k <= min(to, len(lines)) && len(out) < maxNestedValues; k++ {
		line := lines[k-1]
		in := len(line) - len(strings.TrimLeft(line, " \t"))
		if in <= indent || listMarker(strings.TrimSpace(line)) == "" {
			break
		}
		out = append(out, k)
	}
	return out
}

// sentenceStart is the line before l when l continues its sentence (a
// hard-wrapped paragraph: l starts in lower case, after any opening
// bracket, quote or backtick ("(e.g., `static_configs`, ...) from the"),
// and the line before,
// prose of the same section, does not end one), 0 otherwise: the
// sentence's subject, often the fact, is there ("The NuGet packages don't
// support old-style `csproj` projects. Either deploy the" before "automatic
// instrumentation to the machine ..."). In the best section only: the 88
// fresh9 questions +1 each way, tune the same, held out +1 each way over
// both indexes (in every section: the same facts, answers twice as much
// larger). The opening bracket: the 88 fresh10 questions +1 each way,
// tune and held out the same.
func sentenceStart(lines []string, l, from int, block map[int]int) int {
	k := l - 1
	if k < max(from, 1) || l > len(lines) || block[l] > 0 || block[k] > 0 {
		return 0
	}
	t, prev := strings.TrimSpace(lines[l-1]), strings.TrimSpace(lines[k-1])
	r, _ := utf8.DecodeRuneInString(strings.TrimLeft(t, "(`[\"'"))
	if !unicode.IsLower(r) || isBlankOrFence(prev) || strings.HasPrefix(prev, "#") || isMarkup(prev) {
		return 0
	}
	if endsSentence(prev) {
		return 0
	}
	return k
}

// endsSentence reports whether a trimmed line that is not empty ends a
// sentence, a clause or a table row, so the next line does not carry it on.
func endsSentence(t string) bool {
	return strings.ContainsAny(t[len(t)-1:], ".!?:;|")
}

// isKey reports whether a list item's first word names a key: a code
// span, or bold or italic text.
func isKey(w string) bool {
	return strings.HasPrefix(w, "`") || strings.HasPrefix(w, "**") || strings.HasPrefix(w, "__")
}

// htmlComment reports whether a trimmed line is an HTML comment alone
// ("<!-- TODO in final docs, add link ... -->"): a note to the docs'
// editors, not shown to their readers.
func htmlComment(t string) bool {
	return strings.HasPrefix(t, "<!--") && strings.HasSuffix(t, "-->")
}
