package appfx_test

import (
	"github.com/librarian/librarian/domain/passage"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// factSource is where a fact question is answered: a doc (its path in the
// corpus) and the line that states the fact.
type factSource struct {
	path string
	line int
}

// The lines the sources files give each question, in their two formats:
// "- `id`: `path:line`" (testdata/eval/facts/SOURCES*.md) and
// "- `id` — `path` line N" (testdata/vitest-docs/questions-sources.md).
var (
	sourceColon = regexp.MustCompile("(?m)^- `([^`]+)`: `([^`:]+):(\\d+)`")
	sourceDash  = regexp.MustCompile("(?m)^- `([^`]+)` — `([^`]+)` line (\\d+)")
)

// factSources reads where every fact question, tune and held out, is
// answered. The test reads the held-out lines so that it can say why a
// held-out question was missed in counts, never which question.
func factSources(t *testing.T) map[string]factSource {
	t.Helper()
	out := map[string]factSource{}
	// The first corpora's lines are in testdata/eval/facts; each corpus
	// that joined later has its own questions-sources.md beside its docs
	// (a missing one fails the test: its misses could not be told apart).
	files := []string{
		filepath.Join("..", "..", "testdata", "eval", "facts", "SOURCES.md"),
		filepath.Join("..", "..", "testdata", "eval", "facts", "SOURCES-heldout2.md"),
	}
	for _, c := range factCorpora {
		if c.name != "library" && c.name != "examples" {
			files = append(files, filepath.Join(filepath.Dir(c.root), "questions-sources.md"))
		}
	}
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, re := range []*regexp.Regexp{sourceColon, sourceDash} {
			for _, m := range re.FindAllStringSubmatch(string(raw), -1) {
				n, _ := strconv.Atoi(m[3])
				out[m[1]] = factSource{m[2], n}
			}
		}
	}
	return out
}

// Why a question was missed, read off its answer.
const (
	missDoc     = "doc not found"
	missSection = "right doc, other sections"
	missLine    = "section shown, not the line"
	missCut     = "line shown, the fact cut off"
	// missNextTo is a missLine whose line is next to one the answer
	// quotes (the next or the one before that is not blank, within two
	// lines): counted apart, as the place such misses were found to be.
	missNextTo = "  of them, the line next to a quoted one"
)

// The sections an answer shows, in its two shapes: librarian_ask's
// passages ("[1] id (path) § section "Heading" · L14–43", the path left out
// when the id is the path without .md), and ranked search's docs and
// sections ("id (path) ~400 tokens", then "§ section L14–43 ~226 tokens"),
// each followed by its quoted lines ("  L16: …", "L28 [sql code]: …").
var (
	askPassage    = regexp.MustCompile(`^\[\d+\] (\S+)(?: \((\S+)\))? § \S+(?: "(?:[^"\\\n]|\\.)*")? · L(\d+)–(\d+)`)
	rankedDoc     = regexp.MustCompile(`^\S+ \((\S+)\) ~\d+ tokens`)
	rankedSection = regexp.MustCompile(`^§ \S+ L(\d+)–(\d+)`)
	quotedLine    = regexp.MustCompile(`^\s*L(\d+)(?: \[[^\]]*\])?: `)
)

// shownPart is a section an answer shows (line 0: its range from..to) or
// a line it quotes of one (line > 0), with the section's doc's path.
type shownPart struct {
	path           string
	from, to, line int
}

// shownParts reads an answer's sections and quoted lines, in order.
func shownParts(answer string) []shownPart {
	var out []shownPart
	doc, path := "", "" // ranked search's current doc; the current section's doc
	for _, l := range regexp.MustCompile(`\r?\n`).Split(answer, -1) {
		switch {
		case askPassage.MatchString(l):
			m := askPassage.FindStringSubmatch(l)
			path = m[2]
			if path == "" {
				path = m[1] + ".md"
			}
			from, _ := strconv.Atoi(m[3])
			to, _ := strconv.Atoi(m[4])
			out = append(out, shownPart{path: path, from: from, to: to})
		case rankedDoc.MatchString(l):
			doc, path = rankedDoc.FindStringSubmatch(l)[1], ""
		case rankedSection.MatchString(l) && doc != "":
			m := rankedSection.FindStringSubmatch(l)
			path = doc
			from, _ := strconv.Atoi(m[1])
			to, _ := strconv.Atoi(m[2])
			out = append(out, shownPart{path: path, from: from, to: to})
		case quotedLine.MatchString(l):
			n, _ := strconv.Atoi(quotedLine.FindStringSubmatch(l)[1])
			out = append(out, shownPart{path: path, line: n})
		}
	}
	return out
}

// classifyMiss says why answer, which does not hold the fact that src's
// line states, missed it: the doc is not among those shown, or it is but
// none of its sections shown holds the line, or one does and the line
// was not quoted, or was quoted cut short (a long line's excerpt) without
// the fact.
func classifyMiss(answer string, src factSource) string {
	kind := missDoc
	for _, p := range shownParts(answer) {
		switch {
		case p.path != src.path:
		case p.line == src.line:
			return missCut
		case p.line > 0:
		case p.from <= src.line && src.line <= p.to:
			kind = missLine
		case kind == missDoc:
			kind = missSection
		}
	}
	return kind
}

// nextToQuoted says whether src's line is next to a line the answer
// quotes of its doc (lines is the doc's): the next or previous line that
// is not blank, within two lines.
func nextToQuoted(answer string, src factSource, lines []string) bool {
	for _, p := range shownParts(answer) {
		if p.path != src.path || p.line == 0 {
			continue
		}
		for _, dir := range []int{1, -1} {
			for k := p.line + dir; k >= 1 && k <= len(lines) && k != p.line+3*dir; k += dir {
				if strings.TrimSpace(lines[k-1]) == "" {
					continue
				}
				if k == src.line {
					return true
				}
				break
			}
		}
	}
	return false
}

// lineRank is where the line scorer (passage.Question.Lines) puts src's
// line among the lines of the shown section that holds it (1 = best; 0
// when the answer shows no such section or the line holds none of the
// question's words): how far past the quoted lines the fact is.
func lineRank(question, answer string, src factSource, lines []string) int {
	for _, p := range shownParts(answer) {
		if p.path != src.path || p.line > 0 || src.line < p.from || src.line > p.to {
			continue
		}
		for i, sc := range passage.NewQuestion(question).Lines(lines, p.from, p.to, p.to-p.from+1) {
			if sc.Line == src.line {
				return i + 1
			}
		}
		return 0
	}
	return 0
}

func TestLineRank(t *testing.T) {
	doc := strings.Split("# Tokens\n\nA token is opaque.\nA refresh token lives 30 days.\nUnrelated.", "\n")
	answer := "[1] t § tokens \"Tokens\" · L1–5 · ~20 tokens\n  L3: A token is opaque.\n"
	if got := lineRank("how long does a refresh token live?", answer, factSource{"t.md", 4}, doc); got != 1 {
		t.Errorf("lineRank = %d, want 1: line 4 holds the most of the question", got)
	}
	if got := lineRank("how long does a refresh token live?", answer, factSource{"t.md", 5}, doc); got != 0 {
		t.Errorf("lineRank = %d, want 0 for a line holding no word of the question", got)
	}
	if got := lineRank("refresh", answer, factSource{"u.md", 4}, doc); got != 0 {
		t.Errorf("lineRank = %d, want 0: no section of u.md is shown", got)
	}
	// A passage whose id spells its heading is written without it.
	bare := "[1] t § tokens · L1–5 · ~20 tokens\n  L3: A token is opaque.\n"
	if got := lineRank("how long does a refresh token live?", bare, factSource{"t.md", 4}, doc); got != 1 {
		t.Errorf("lineRank = %d for a passage without its heading, want 1", got)
	}
}

func TestNextToQuoted(t *testing.T) {
	doc := strings.Split("# T\n\nintro\n- a\n- b\n\nafter\n\n\nfar", "\n")
	answer := "[1] t § t \"T\" · L1–10 · ~20 tokens\n  L4: - a\n"
	for line, want := range map[int]bool{3: true, 5: true, 7: false, 10: false} {
		if got := nextToQuoted(answer, factSource{"t.md", line}, doc); got != want {
			t.Errorf("line %d: %v, want %v", line, got, want)
		}
	}
	if nextToQuoted(answer, factSource{"u.md", 5}, doc) {
		t.Error("a line of another doc is not next to t.md's")
	}
}

func TestClassifyMiss(t *testing.T) {
	ask := "From the library, best first (the docs' own lines):\n\n" +
		"[1] auth (backend/auth.md) § refresh-tokens \"Refresh tokens\" · L14–43 · ~226 tokens\n  L16: x\n\n" +
		"[2] hono/helpers/cookie § import \"Import\" · L11–23 · ~40 tokens\n  L14: y\n"
	ranked := "2 sections of 9 docs, ranked, best first\n\n" +
		"hono/helpers/ssg (hono/helpers/ssg.md) ~900 tokens\n§ tossg L69–152 ~494 tokens\nL71: z\n"
	for _, tc := range []struct {
		answer string
		src    factSource
		want   string
	}{
		{ask, factSource{"backend/auth.md", 37}, missLine},
		{ask, factSource{"backend/auth.md", 50}, missSection},
		{ask, factSource{"hono/helpers/cookie.md", 20}, missLine},
		{ask, factSource{"hono/helpers/cookie.md", 40}, missSection},
		{ask, factSource{"backend/other.md", 1}, missDoc},
		{ranked, factSource{"hono/helpers/ssg.md", 135}, missLine},
		{ranked, factSource{"hono/helpers/ssg.md", 10}, missSection},
		{ranked, factSource{"hono/helpers/cookie.md", 135}, missDoc},
		{ask, factSource{"backend/auth.md", 16}, missCut},
		{ranked, factSource{"hono/helpers/ssg.md", 71}, missCut},
	} {
		if got := classifyMiss(tc.answer, tc.src); got != tc.want {
			t.Errorf("%s:%d: %q, want %q", tc.src.path, tc.src.line, got, tc.want)
		}
	}
}
