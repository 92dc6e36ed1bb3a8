package appfx_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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
)

// The sections an answer shows, in its two shapes: librarian_ask's
// passages ("[1] id (path) § section "Heading" · L14–43", the path left out
// when the id is the path without .md), and ranked search's docs and
// sections ("id (path) ~400 tokens", then "§ section L14–43 ~226 tokens"),
// each followed by its quoted lines ("  L16: …", "L28 [sql code]: …").
var (
	askPassage    = regexp.MustCompile(`^\[\d+\] (\S+)(?: \((\S+)\))? § \S+ "[^"\n]*" · L(\d+)–(\d+)`)
	rankedDoc     = regexp.MustCompile(`^\S+ \((\S+)\) ~\d+ tokens`)
	rankedSection = regexp.MustCompile(`^§ \S+ L(\d+)–(\d+)`)
	quotedLine    = regexp.MustCompile(`^\s*L(\d+)(?: \[[^\]]*\])?: `)
)

// classifyMiss says why answer, which does not hold the fact that src's
// line states, missed it: the doc is not among those shown, or it is but
// none of its sections shown holds the line, or one does and the line
// was not quoted, or was quoted cut short (a long line's excerpt) without
// the fact.
func classifyMiss(answer string, src factSource) string {
	kind := missDoc
	doc, path := "", "" // ranked search's current doc; the current section's doc
	for _, l := range regexp.MustCompile(`\r?\n`).Split(answer, -1) {
		from, to := 0, 0
		switch {
		case askPassage.MatchString(l):
			m := askPassage.FindStringSubmatch(l)
			path = m[2]
			if path == "" {
				path = m[1] + ".md"
			}
			from, _ = strconv.Atoi(m[3])
			to, _ = strconv.Atoi(m[4])
		case rankedDoc.MatchString(l):
			doc, path = rankedDoc.FindStringSubmatch(l)[1], ""
			continue
		case rankedSection.MatchString(l) && doc != "":
			m := rankedSection.FindStringSubmatch(l)
			path = doc
			from, _ = strconv.Atoi(m[1])
			to, _ = strconv.Atoi(m[2])
		case quotedLine.MatchString(l):
			if n, _ := strconv.Atoi(quotedLine.FindStringSubmatch(l)[1]); path == src.path && n == src.line {
				return missCut
			}
			continue
		default:
			continue
		}
		if path != src.path {
			continue
		}
		if from <= src.line && src.line <= to {
			kind = missLine
		} else if kind == missDoc {
			kind = missSection
		}
	}
	return kind
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
