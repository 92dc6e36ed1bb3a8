package wording

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A long table row's padding is shown as one space, so the window holds
// the row's words: its first cell (an option's name) stays in view.
func TestExcerptCollapsesPadding(t *testing.T) {
	row := "| `--experimentalBundle`    | Use experimental full bundle mode (`boolean`)" + strings.Repeat(" ", 150) + "|"
	at := strings.Index(row, "full")
	got := Excerpt([]byte(row), at, at+4, 200, 6)
	if want := "| `--experimentalBundle` | Use experimental full bundle mode (`boolean`) |"; got != want {
		t.Errorf("Excerpt = %q, want %q", got, want)
	}
	// Offsets inside the collapsed line still point at the match.
	long := strings.Repeat("word ", 30) + "   " + "the match" + strings.Repeat("  tail", 40)
	at = strings.Index(long, "the match")
	got = Excerpt([]byte(long), at, at+len("the match"), 60, 6)
	if !strings.Contains(got, "the match") || !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") || strings.Contains(got, "  ") {
		t.Errorf("Excerpt = %q: want the match, cut on both sides, no double space", got)
	}
	// A short line is whole, blanks and all.
	if got := Excerpt([]byte("a  b"), 0, 1, 200, 6); got != "a  b" {
		t.Errorf("short line: %q", got)
	}
}

// An answer's table row is shown without its padding even when short
// enough to show whole: the bytes go to its cells' words. Other lines keep
// their blanks (a code line's alignment).
func TestTableRowCollapsesPadding(t *testing.T) {
	row := "| `--sourcemap [output]`   | Output source maps for build (default: `false`)      |\r"
	want := "| `--sourcemap [output]` | Output source maps for build (default: `false`) |"
	if got := TableRow(row); got != want {
		t.Errorf("TableRow = %q, want %q", got, want)
	}
	at := strings.Index(row, "default")
	if got := ExcerptOrWhole([]byte(row), at, at+7, 200, 6); got != want {
		t.Errorf("ExcerptOrWhole = %q, want %q", got, want)
	}
	if got := TableRow("x :=  1  // aligned"); got != "x :=  1  // aligned" {
		t.Errorf("TableRow changed a line that is no row: %q", got)
	}
	if got := ExcerptOrWhole([]byte("a  b"), 0, 1, 200, 6); got != "a  b" {
		t.Errorf("ExcerptOrWhole changed a short line that is no row: %q", got)
	}
}

// A window that would cut a code span in its middle goes on to its
// closing backtick when that is near: the path it holds is the fact.
func TestExcerptClosesACodeSpan(t *testing.T) {
	line := strings.Repeat("word ", 20) + "create a file at `__mocks__/@scope/project-name.js`, and so on " + strings.Repeat("tail ", 20)
	at := strings.Index(line, "create")
	got := Excerpt([]byte(line), at, at+6, 40, 6)
	if !strings.Contains(got, "`__mocks__/@scope/project-name.js`…") {
		t.Errorf("Excerpt = %q: want the code span whole", got)
	}
	// A span that stays open far past the window is cut as before.
	far := "see `" + strings.Repeat("x", 200) + "`"
	if got := Excerpt([]byte(far), 0, 3, 40, 6); utf8.RuneCountInString(got) != 41 {
		t.Errorf("Excerpt = %q (%d runes): want the window and a mark", got, utf8.RuneCountInString(got))
	}
}

func FuzzExcerptKeepsTheMatch(f *testing.F) {
	f.Add("| a   | b  c   |     d", 6, 7, 10)
	f.Fuzz(func(t *testing.T, line string, start, end, max int) {
		if max < 8 || max > 400 || start < 0 || end < start || end > len(line) || !strings.HasPrefix(line[start:], strings.TrimSpace(line[start:end])) {
			return
		}
		got := Excerpt([]byte(line), start, end, max, 6)
		if n := len([]rune(got)); n > max+2+codeSpanTail {
			t.Fatalf("Excerpt is %d runes, over %d (+2 marks, +%d to close a code span): %q", n, max, codeSpanTail, got)
		}
		match := line[start:end]
		if len([]rune(match)) <= max/2 && !strings.ContainsAny(match, " \t\r") && utf8.ValidString(line) && !strings.Contains(got, match) {
			t.Fatalf("Excerpt %q lost the match %q of %q", got, match, line)
		}
		// An answer's excerpt: whole when a little long, from its sentence's
		// start when near, and the match kept all the same.
		answer := ExcerptOrWhole([]byte(line), start, end, max, 6)
		if n, bound := len([]rune(answer)), int(float64(max)*AnswerSlack)+SentenceSnap+2+codeSpanTail; n > bound {
			t.Fatalf("ExcerptOrWhole is %d runes, over %d: %q", n, bound, answer)
		}
		if len([]rune(match)) <= max/2 && !strings.ContainsAny(match, " \t\r") && utf8.ValidString(line) && !strings.Contains(answer, match) {
			t.Fatalf("ExcerptOrWhole %q lost the match %q of %q", answer, match, line)
		}
	})
}

// TestExcerptOrWholeQuotesANearlyShortLine: a line at most AnswerSlack
// times the width is quoted whole, its end (the value) in view; a longer
// one is cut as Excerpt cuts it.
func TestExcerptOrWholeQuotesANearlyShortLine(t *testing.T) {
	line := []byte(strings.Repeat("word ", 54) + "use the `--legacy` flag.") // 294 runes
	if got := ExcerptOrWhole(line, 0, 4, 200, 6); got != string(line) {
		t.Errorf("ExcerptOrWhole = %q, want the whole line", got)
	}
	if got := Excerpt(line, 0, 4, 200, 6); strings.Contains(got, "--legacy") {
		t.Errorf("Excerpt = %q: a line over 200 runes is cut", got)
	}
	long := []byte(strings.Repeat("word ", 60) + "use the `--legacy` flag.") // 324 runes, over AnswerSlack x 200
	if got := ExcerptOrWhole(long, 0, 4, 200, 6); got != Excerpt(long, 0, 4, 200, 6) {
		t.Errorf("ExcerptOrWhole = %q, want it cut as Excerpt cuts it", got)
	}
}

// TestExcerptOrWholeStartsAtTheSentence: an answer's excerpt that would
// start inside a sentence starts at that sentence when it began at most
// SentenceSnap runes before, or at the next one when that begins before
// the match; its end is where Excerpt ends it. A sentence that began
// further back, and a search hit's excerpt, keep the window.
func TestExcerptOrWholeStartsAtTheSentence(t *testing.T) {
	lead := strings.Repeat("filler words here. ", 12) // other sentences, the line's start out of a window's reach
	tail := strings.Repeat(" the index changes", 20)
	for _, tc := range []struct {
		name, sentence, want string
	}{
		{"back", "Animations do not run on insert or removal of an element,", "…Animations do not run on insert or removal of an element,"},
		{"forward", "Not run when an element", "…Not run when an element"},
	} {
		line := []byte(lead + tc.sentence + tail)
		at := strings.Index(string(line), "element")
		got := ExcerptOrWhole(line, at, at+7, 200, 6)
		plain := Excerpt(line, at, at+7, 200, 6)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: ExcerptOrWhole = %q, want it from %q", tc.name, got, tc.want)
		}
		if strings.HasPrefix(plain, tc.want) {
			t.Errorf("%s: Excerpt = %q: a search hit's excerpt keeps its window", tc.name, plain)
		}
		if end := plain[strings.LastIndex(plain, " "):]; !strings.HasSuffix(got, end) {
			t.Errorf("%s: ExcerptOrWhole = %q, want it to end as Excerpt's %q", tc.name, got, end)
		}
	}
	far := []byte(lead + strings.Repeat("a very long sentence without a stop ", 4) + "element" + tail)
	at := strings.Index(string(far), "element")
	if got, want := ExcerptOrWhole(far, at, at+7, 200, 6), Excerpt(far, at, at+7, 200, 6); got != want {
		t.Errorf("ExcerptOrWhole = %q, want %q: the sentence starts past SentenceSnap", got, want)
	}
}

// TestExcerptOrWholeFromTheLineStart: when the match ends within a
// window's length of the line's start, an answer's excerpt starts there
// (the line's first sentence, often its subject and the fact) and ends
// where it would have; a search hit's excerpt keeps its window.
func TestExcerptOrWholeFromTheLineStart(t *testing.T) {
	line := []byte("For mock timing purposes, animation frames are executed every `16ms` (mapping to roughly `60` frames per second) after the clock starts. " +
		"When you schedule a callback in an animation frame, the `callback` will be called when the clock has advanced `16ms`." +
		strings.Repeat(" More words after the match.", 12))
	at := strings.Index(string(line), "callback")
	end := strings.LastIndex(string(line), "`16ms`") + len("`16ms`")
	got := ExcerptOrWhole(line, at, end, 300, 6)
	if !strings.HasPrefix(got, "For mock timing purposes") {
		t.Errorf("ExcerptOrWhole = %q, want it from the line's start", got)
	}
	plain := Excerpt(line, at, end, 300, 6)
	if strings.HasPrefix(plain, "For mock") {
		t.Errorf("Excerpt = %q: a search hit's excerpt keeps its window", plain)
	}
	if tail := plain[strings.LastIndex(plain, " "):]; !strings.HasSuffix(got, tail) {
		t.Errorf("ExcerptOrWhole = %q, want it to end as Excerpt's %q", got, tail)
	}
}
