package wording

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Excerpt shortens a long line to at most maxRunes runes around the match
// [start, end) (byte offsets), up to 1/before of them before it and the
// rest after, marking each cut with '…'; when the line's end is in view
// the whole window goes before it. A trailing '\r' (CRLF files) is
// dropped. A line no longer than maxRunes is returned whole; a longer one
// has its runs of spaces and tabs shown as one space and its trailing ones
// dropped first (and is whole if that makes it short enough).
func Excerpt(line []byte, start, end, maxRunes, before int) string {
	return excerpt(line, start, end, maxRunes, maxRunes, before, 0)
}

// AnswerSlack is how much longer than an answer's excerpt a line may be
// and still be quoted whole (ExcerptOrWhole): cutting a line a little too
// long saves few tokens and loses its end, where the value it states often
// is (`pnpm deploy`'s "use the `--legacy` flag or set `force-legacy-deploy`
// to `true`" after 180 characters of the case it is for). Decided on the
// fact eval: on the tune sets 1.3 held 4 facts more each way and 1.5 4 and
// 5; on 72 questions written apart and not tuned on, 1.3 none and 1.5 one
// each way; held out, 1.5 held 2 more each way (answers 0 to 6 % larger).
const AnswerSlack = 1.5

// ExcerptOrWhole is Excerpt for the lines an answer quotes (ranked search,
// librarian_ask): a line at most AnswerSlack times maxRunes long, once its
// runs of blanks are one space, is quoted whole, and a cut one starts at
// the start of its first sentence when that is at most SentenceSnap runes
// before the window, or at the line's start when the match ends within
// maxRunes of it (its end where it would have been either way: the line's
// first sentence names its subject, often the fact; tune +1 each way,
// fresh12-14 +1 each way, answers 0.14 to 0.29 % larger in bytes).
func ExcerptOrWhole(line []byte, start, end, maxRunes, before int) string {
	if isTableRow(line) {
		line, start, end = collapseBlanks(bytes.TrimRight(line, "\r"), start, end)
	}
	return excerpt(line, start, end, maxRunes, int(float64(maxRunes)*AnswerSlack), before, SentenceSnap)
}

// TableRow is an answer's quoted line as ExcerptOrWhole shows a table row
// of any length: its runs of blanks (the padding that aligns the doc's
// columns) as one space, so that an answer's bytes go to the cells' words
// (librarian_ask's byte budget then holds a fourth or fifth passage more
// often). Another line is returned as it is. On the fact eval's tune sets:
// the same facts, librarian_ask's answers 0.26 % smaller in bytes.
func TableRow(line string) string {
	if !isTableRow([]byte(line)) {
		return line
	}
	out, _, _ := collapseBlanks([]byte(strings.TrimRight(line, "\r")), 0, 0)
	return string(out)
}

// isTableRow reports whether line is a markdown table's row: it opens
// with a pipe.
func isTableRow(line []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("|"))
}

// SentenceSnap is how far (in runes) before an answer's excerpt the start
// of the sentence it cuts may be, and the excerpt then starts there: the
// subject of a sentence cut in its middle is often what was asked
// ("Animations do not run when an element is added or removed" shown from
// "run when"). An excerpt that starts at the end of another sentence
// starts at the next one instead; its end stays where it was either way.
// Decided on the fact eval's tune sets (moving back only: 50 runes held 1
// fact more each way, 80 and 120 2, 160 3 in answers 2 % larger; moving
// forward too, at 80: the same 2 in answers 1 % smaller); held out, 1
// more each way.
const SentenceSnap = 80

// excerpt is Excerpt, a line of at most wholeRunes runes (at least
// maxRunes) returned whole, the window's start moved back to its
// sentence's start within snap runes.
func excerpt(line []byte, start, end, maxRunes, wholeRunes, before, snap int) string {
	maxHitRunes := maxRunes
	wholeRunes = max(wholeRunes, maxRunes)
	before = max(before, 1)
	line = bytes.TrimSuffix(line, []byte("\r"))
	if utf8.RuneCount(line) <= maxHitRunes {
		return string(line)
	}
	// A long line's runs of blanks (a table row's padding, alignment) are
	// shown as one space: the window is spent on words.
	line, start, end = collapseBlanks(line, start, end)
	if utf8.RuneCount(line) <= wholeRunes {
		return string(line)
	}
	start = min(max(start, 0), len(line))
	end = min(max(end, start), len(line))
	// Up to a share of the window before the match, the rest after it.
	lo := start
	for n := 0; lo > 0 && n < maxHitRunes/before; n++ {
		_, size := utf8.DecodeLastRune(line[:lo])
		lo -= size
	}
	hi := lo
	for n := 0; hi < len(line) && n < maxHitRunes; n++ {
		_, size := utf8.DecodeRune(line[hi:])
		hi += size
	}
	if snap > 0 && utf8.RuneCount(line[:end]) <= maxHitRunes {
		// The match ends within a window's length of the line's start: the
		// excerpt starts there, at the line's first sentence (its subject,
		// often the fact: "animation frames are executed every `16ms`"
		// before "When you schedule a callback ... `16ms`"), and ends where
		// it would have, as a sentence's start moved back to does.
		lo = 0
	}
	if hi == len(line) {
		// The end of the line is in view: spend the window before the match.
		lo = hi
		for n := 0; lo > 0 && n < maxHitRunes; n++ {
			_, size := utf8.DecodeLastRune(line[:lo])
			lo -= size
		}
	}
	hi = closeCodeSpan(line, hi)
	lo = sentenceStart(line, lo, start, snap)
	var b strings.Builder
	if lo > 0 {
		b.WriteString("…")
	}
	b.Write(line[lo:hi])
	if hi < len(line) {
		b.WriteString("…")
	}
	return b.String()
}

// sentenceStart returns where the excerpt from lo should start so that it
// starts a sentence: the first sentence start after lo and at most at the
// match's start (the words before it are the end of another sentence), or
// else the start of the sentence lo cuts, when that is at most snap runes
// before lo; lo otherwise, and always when snap is 0.
func sentenceStart(line []byte, lo, start, snap int) int {
	if snap <= 0 || lo == 0 {
		return lo
	}
	begins := func(k int) bool { return k >= 2 && line[k-1] == ' ' && strings.IndexByte(".!?", line[k-2]) >= 0 }
	for k := lo + 1; k <= start; k++ {
		if begins(k) {
			return k
		}
	}
	k := lo
	for n := 0; k > 0 && n <= snap; n++ {
		if begins(k) {
			return k
		}
		_, size := utf8.DecodeLastRune(line[:k])
		k -= size
	}
	if k == 0 {
		return 0
	}
	return lo
}

// codeSpanTail is how many runes past the window an excerpt goes on to
// close a code span the window would cut: a path or value cut in its
// middle (`__mocks__/@scope/…`) is the fact lost.
const codeSpanTail = 40

// closeCodeSpan returns hi, or, when line[:hi] leaves a code span open
// (an odd number of backticks) and it closes within codeSpanTail runes,
// the offset just past its closing backtick.
func closeCodeSpan(line []byte, hi int) int {
	if hi >= len(line) || bytes.Count(line[:hi], []byte("`"))%2 == 0 {
		return hi
	}
	k := hi
	for n := 0; k < len(line) && n < codeSpanTail; n++ {
		r, size := utf8.DecodeRune(line[k:])
		k += size
		if r == '`' {
			return k
		}
	}
	return hi
}

// collapseBlanks returns line with each run of two or more spaces or tabs
// replaced by one space and trailing blanks dropped, and the byte offsets
// start and end moved to the same places in it.
func collapseBlanks(line []byte, start, end int) ([]byte, int, int) {
	isBlank := func(c byte) bool { return c == ' ' || c == '\t' }
	out := make([]byte, 0, len(line))
	newStart, newEnd := -1, -1
	for i := 0; i < len(line); {
		if i >= start && newStart < 0 {
			newStart = len(out)
		}
		if i >= end && newEnd < 0 {
			newEnd = len(out)
		}
		if !isBlank(line[i]) {
			out = append(out, line[i])
			i++
			continue
		}
		j := i
		for j < len(line) && isBlank(line[j]) {
			j++
		}
		if j-i == 1 {
			out = append(out, line[i])
		} else if j < len(line) {
			out = append(out, ' ')
		}
		if start > i && start < j && newStart < 0 {
			newStart = len(out)
		}
		if end > i && end < j && newEnd < 0 {
			newEnd = len(out)
		}
		i = j
	}
	if newStart < 0 {
		newStart = len(out)
	}
	if newEnd < 0 {
		newEnd = len(out)
	}
	return bytes.TrimRight(out, " \t"), min(newStart, len(bytes.TrimRight(out, " \t"))), min(newEnd, len(bytes.TrimRight(out, " \t")))
}
