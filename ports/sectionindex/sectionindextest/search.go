package sectionindextest

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
)

// matches is the truth the caller's matcher would find: a case-sensitive
// byte search, or Go's (?i) simple Unicode folding.
func matches(content []byte, lit string, fold bool) bool {
	if !fold {
		return bytes.Contains(content, []byte(lit))
	}
	return regexp.MustCompile("(?i)" + regexp.QuoteMeta(lit)).Match(content)
}

// checkCandidates fails when a doc that matches q is not a candidate, when
// the answer is out of path order or has duplicates, or when it leaves
// q.Paths.
func checkCandidates(t *testing.T, ix sectionindex.Index, es []sectionindex.Entry, q domain.CandidateQuery) {
	t.Helper()
	got, all, err := ix.Candidates(context.Background(), q)
	if err != nil {
		t.Fatalf("Candidates(%+q, fold %v): %v", q.AnyOf, q.Fold, err)
	}
	if all && got != nil {
		t.Errorf("Candidates(%+q): all with paths %q; all means paths is nil", q.AnyOf, got)
	}
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Errorf("Candidates(%+q) = %q: not in path order or with duplicates", q.AnyOf, got)
	}
	allowed := map[string]bool{}
	for _, p := range q.Paths {
		allowed[p] = true
	}
	for _, p := range got {
		if q.Paths != nil && !allowed[p] {
			t.Errorf("Candidates(%+q) answers %s, outside Paths %q", q.AnyOf, p, q.Paths)
		}
	}
	checkCandidateTexts(t, ix, es, q, got, all)
	if all {
		return
	}
	for _, e := range es {
		if q.Paths != nil && !allowed[e.Doc.Path] {
			continue
		}
		hit := len(q.AnyOf) == 0
		for _, lit := range q.AnyOf {
			hit = hit || matches(e.Content, lit, q.Fold)
		}
		if hit && !slices.Contains(got, e.Doc.Path) {
			t.Errorf("Candidates(%+q, fold %v) misses %s, which matches", q.AnyOf, q.Fold, e.Doc.Path)
		}
	}
}

// checkCandidateTexts, for an index with sectionindex.TextCandidates,
// fails when CandidateTexts misses a doc Candidates answered (any stored
// doc in q.Paths when it answered all), sends one out of path order, twice,
// outside q.Paths or with other bytes than stored.
func checkCandidateTexts(t *testing.T, ix sectionindex.Index, es []sectionindex.Entry, q domain.CandidateQuery, paths []string, all bool) {
	t.Helper()
	tc, ok := ix.(sectionindex.TextCandidates)
	if !ok {
		return
	}
	stored := map[string][]byte{}
	for _, e := range es {
		stored[e.Doc.Path] = e.Content
	}
	want := paths
	if all {
		want = nil
		for _, e := range es {
			if q.Paths == nil || slices.Contains(q.Paths, e.Doc.Path) {
				want = append(want, e.Doc.Path)
			}
		}
	}
	var got []string
	err := tc.CandidateTexts(context.Background(), q, func(tx sectionindex.Text) error {
		got = append(got, tx.Path)
		if c, ok := stored[tx.Path]; ok && !bytes.Equal(tx.Content, c) {
			t.Errorf("CandidateTexts(%+q): %s has other bytes than stored", q.AnyOf, tx.Path)
		}
		if q.Paths != nil && !slices.Contains(q.Paths, tx.Path) {
			t.Errorf("CandidateTexts(%+q) sends %s, outside Paths", q.AnyOf, tx.Path)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("CandidateTexts(%+q): %v", q.AnyOf, err)
	}
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Errorf("CandidateTexts(%+q) = %q: not in path order or with duplicates", q.AnyOf, got)
	}
	for _, p := range want {
		if !slices.Contains(got, p) {
			t.Errorf("CandidateTexts(%+q, fold %v) misses %s, which Candidates answers", q.AnyOf, q.Fold, p)
		}
	}
}

// pool is what generated docs are made of: ASCII, identifiers, and runes
// whose simple case folding is not ASCII's (Kelvin sign, long s, final
// sigma, title-case digraphs, dotted I, ligatures), CJK and emoji.
var pool = []string{
	"alpha", "Beta", "GAMMA", "getRuntimeKey", "max_age", "--radius-field", "hono/adapter",
	"Straße", "STRASSE", "ſecret", "Kelvin", "\u212a", "ΣΊΣΥΦΟΣ", "σίσυφος", "ς", "ǅemal", "Ǆ", "ǆ",
	"İstanbul", "ı", "ﬁle", "日本語", "テスト", "🎉", "naïve", "Ωmega", "µ", "Μ", "x", "ab", "42",
	"\t", "\n", "\r\n", " ", "  ", ".", "(", ")", "[", "*", "\"", "'", "\\",
}

// refold replaces each rune by a random member of its simple folding orbit.
func refold(r *rand.Rand, s string) string {
	var b strings.Builder
	for _, c := range s {
		orbit := []rune{c}
		for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
			orbit = append(orbit, f)
		}
		b.WriteRune(orbit[r.IntN(len(orbit))])
	}
	return b.String()
}

func generated(r *rand.Rand, n int) []sectionindex.Entry {
	var es []sectionindex.Entry
	for i := 0; i < n; i++ {
		var b strings.Builder
		for w := 0; w < 5+r.IntN(60); w++ {
			b.WriteString(refold(r, pool[r.IntN(len(pool))]))
			if r.IntN(3) == 0 {
				b.WriteByte(' ')
			}
		}
		es = append(es, MarkdownEntry(fmt.Sprintf("gen/%03d.md", i), fmt.Sprintf("Generated %d", i), nil, b.String()))
	}
	return es
}

// substring is a random rune-aligned piece of s, 1 to max runes long.
func substring(r *rand.Rand, s string, max int) string {
	rs := []rune(s)
	if len(rs) == 0 {
		return ""
	}
	start := r.IntN(len(rs))
	n := 1 + r.IntN(max)
	if start+n > len(rs) {
		n = len(rs) - start
	}
	return string(rs[start : start+n])
}

func testCandidatesGenerated(t *testing.T, ix sectionindex.Index) {
	r := rand.New(rand.NewPCG(8, 12))
	es := generated(r, 60)
	apply(t, ix, sectionindex.Update{Put: es})
	for i := 0; i < 300; i++ {
		src := string(es[r.IntN(len(es))].Content)
		lit := substring(r, src, 12)
		fold := r.IntN(2) == 0
		if fold || r.IntN(4) == 0 {
			lit = refold(r, lit)
		}
		q := domain.CandidateQuery{AnyOf: []string{lit}, Fold: fold}
		if r.IntN(5) == 0 {
			q.AnyOf = append(q.AnyOf, refold(r, substring(r, string(es[r.IntN(len(es))].Content), 8)))
		}
		checkCandidates(t, ix, es, q)
		if t.Failed() {
			return
		}
	}
	// Literals absent from every doc narrow to nothing or to some docs,
	// never fail.
	checkCandidates(t, ix, es, domain.CandidateQuery{AnyOf: []string{"zzzqqqzzz"}, Fold: true})
}

func testCandidatesFolding(t *testing.T, ix sectionindex.Index) {
	es := []sectionindex.Entry{
		MarkdownEntry("kelvin.md", "Kelvin", nil, "Temperature in \u212aelvin.\n"),
		MarkdownEntry("longs.md", "Long s", nil, "The ſecret recipe.\n"),
		MarkdownEntry("sigma.md", "Sigma", nil, "ΣΊΣΥΦΟΣ pushed the stone.\n"),
		MarkdownEntry("digraph.md", "Digraph", nil, "ǅemal wrote it.\n"),
		MarkdownEntry("accent.md", "Accent", nil, "A naïve café.\n"),
		MarkdownEntry("ascii.md", "ASCII", nil, "kelvin secret σίσυφος dzemal naive cafe\n"),
	}
	apply(t, ix, sectionindex.Update{Put: es})
	for _, lit := range []string{"kelvin", "KELVIN", "secret", "SECRET", "σίσυφοσ", "ΣΊΣΥΦΟΣ", "σίσυφος", "ǆemal", "ǄEMAL", "naïve", "NAÏVE", "CAFÉ", "naive"} {
		checkCandidates(t, ix, es, domain.CandidateQuery{AnyOf: []string{lit}, Fold: true})
		checkCandidates(t, ix, es, domain.CandidateQuery{AnyOf: []string{lit}})
	}
}

func testCandidatesShort(t *testing.T, ix sectionindex.Index) {
	es := []sectionindex.Entry{
		MarkdownEntry("one.md", "One", nil, "ab cd\n"),
		MarkdownEntry("two.md", "Two", nil, "x\n"),
		MarkdownEntry("three.md", "Three", nil, "日本\n"),
		MarkdownEntry("four.md", "Four", nil, ""),
	}
	apply(t, ix, sectionindex.Update{Put: es})
	for _, lit := range []string{"a", "ab", "AB", "x", "日", "日本", " ", "\n", "b c"} {
		checkCandidates(t, ix, es, domain.CandidateQuery{AnyOf: []string{lit}, Fold: true})
		checkCandidates(t, ix, es, domain.CandidateQuery{AnyOf: []string{lit}})
	}
	// One short literal among long ones still cannot narrow below its own matches.
	checkCandidates(t, ix, es, domain.CandidateQuery{AnyOf: []string{"longer literal", "x"}, Fold: true})
	checkCandidates(t, ix, es, domain.CandidateQuery{AnyOf: nil})
	checkCandidates(t, ix, es, domain.CandidateQuery{AnyOf: []string{}})
}

func testCandidatesPaths(t *testing.T, ix sectionindex.Index) {
	var es []sectionindex.Entry
	for i := 0; i < 10; i++ {
		es = append(es, MarkdownEntry(fmt.Sprintf("d%d.md", i), "D", nil, "shared needle text\n"))
	}
	apply(t, ix, sectionindex.Update{Put: es})
	for _, ps := range [][]string{{"d3.md", "d7.md"}, {"d0.md"}, {}, {"missing.md"}} {
		q := domain.CandidateQuery{AnyOf: []string{"needle"}, Fold: true, Paths: ps}
		checkCandidates(t, ix, es, q)
		got, all, _ := ix.Candidates(context.Background(), q)
		if !all && len(got) > len(ps) {
			t.Errorf("Candidates with Paths %q = %q", ps, got)
		}
	}
}

// ranked asks q and fails on an error or a result that breaks the port's
// promises (order by score, lines inside the section, a stored section).
func ranked(t *testing.T, ix sectionindex.Index, q domain.RankedQuery) []domain.RankedSection {
	t.Helper()
	rs, err := ix.Ranked(context.Background(), q)
	if err != nil {
		t.Fatalf("Ranked(%q): %v", q.Text, err)
	}
	for i, s := range rs {
		if i > 0 && s.Score > rs[i-1].Score {
			t.Errorf("Ranked(%q): result %d scores %v above result %d's %v", q.Text, i, s.Score, i-1, rs[i-1].Score)
		}
		if s.SectionID == "" || s.Start < 1 || s.End < s.Start {
			t.Errorf("Ranked(%q): malformed section %+v", q.Text, s)
		}
		if len(s.Lines) > 3 {
			t.Errorf("Ranked(%q): %d best lines, at most 3", q.Text, len(s.Lines))
		}
		for _, l := range s.Lines {
			if l < s.Start || l > s.End {
				t.Errorf("Ranked(%q): line %d outside %s's %d-%d", q.Text, l, s.SectionID, s.Start, s.End)
			}
		}
	}
	return rs
}

func top(rs []domain.RankedSection) string {
	if len(rs) == 0 {
		return "(nothing)"
	}
	return rs[0].Path + "#" + rs[0].SectionID
}

func fillers() []sectionindex.Entry {
	return []sectionindex.Entry{
		MarkdownEntry("misc/keys.md", "Keys", nil, "# Keys\n\nA key opens a door; keys come in sets.\n"),
		MarkdownEntry("misc/runtime.md", "Go runtime", nil, "# Go runtime\n\nThe scheduler runs goroutines on threads.\n"),
		MarkdownEntry("misc/forms.md", "Forms", nil, "# Forms\n\nA form has a field for each answer.\n"),
		MarkdownEntry("misc/age.md", "Ages", nil, "# Ages\n\nThe stone age came before the bronze age.\n"),
		MarkdownEntry("misc/weather.md", "Weather", nil, "# Weather\n\nRain in spring, sun in summer, wind in the autumn months.\n"),
	}
}

func testRankedHeadingAboveBody(t *testing.T, ix sectionindex.Index) {
	es := append(fillers(),
		MarkdownEntry("plants/ferns.md", "Ferns", nil, "# Ferns\n\n## Relatives\n\nFerns are related to many plants, quillwort among them, and to horsetails.\n"),
		MarkdownEntry("plants/quillwort.md", "Quillwort", nil, "# Quillwort\n\nA small aquatic plant.\n"),
		MarkdownEntry("garden/shrubs.md", "Shrubs", nil, "# Shrubs\n\nShrubs include gorse. Pruning is done with shears in the autumn months.\n"),
		MarkdownEntry("garden/notes.md", "Garden notes", nil, "# Garden notes\n\nSeasonal work.\n\n## Pruning the gorse\n\nCut it back in spring.\n"),
	)
	apply(t, ix, sectionindex.Update{Put: es})
	if got := top(ranked(t, ix, domain.RankedQuery{Text: "quillwort"})); got != "plants/quillwort.md#quillwort" {
		t.Errorf("quillwort: top is %s, want the doc titled Quillwort above a body mention", got)
	}
	rs := ranked(t, ix, domain.RankedQuery{Text: "pruning gorse"})
	if got := top(rs); got != "garden/notes.md#garden-notes/pruning-the-gorse" {
		t.Errorf("pruning gorse: top is %s, want the section headed so above a body mention", got)
	}
	if len(rs) < 2 || rs[1].Path != "garden/shrubs.md" {
		t.Errorf("pruning gorse: want the body mention second, got %+v", rs)
	}
}

// testRankedRareWordsWeighMost: a section holding the question's rare
// word goes before sections holding more of its common words, as BM25's
// inverse document frequency has it: "server" and "config" are in most
// docs of the library, "keepalive" in one.
func testRankedRareWordsWeighMost(t *testing.T, ix sectionindex.Index) {
	es := fillers()
	for i := range 12 {
		es = append(es, MarkdownEntry(fmt.Sprintf("server/part%02d.md", i), fmt.Sprintf("Server part %d", i), nil,
			fmt.Sprintf("# Server part %d\n\nThe server reads its config at start; part %d of the config guide.\n", i, i)))
	}
	es = append(es, MarkdownEntry("net/timeouts.md", "Timeouts", nil, "# Timeouts\n\nIdle connections are closed after the keepalive period.\n"))
	apply(t, ix, sectionindex.Update{Put: es})
	if got := top(ranked(t, ix, domain.RankedQuery{Text: "server config keepalive"})); got != "net/timeouts.md#timeouts" {
		t.Errorf("server config keepalive: top is %s, want the one section holding the rare word", got)
	}
}

func testRankedIdentifiers(t *testing.T, ix sectionindex.Index) {
	es := append(fillers(),
		MarkdownEntry("hono/runtime.md", "Runtime helpers", nil,
			"# Runtime helpers\n\nCall `getRuntimeKey()` to learn where the app runs.\n\n```ts\nimport { getRuntimeKey } from 'hono/adapter'\n```\n"),
		MarkdownEntry("css/fields.md", "Field styles", nil, "# Field styles\n\nSet `--radius-field` on the element.\n"),
		MarkdownEntry("http/cookies.md", "Cookies", nil, "# Cookies\n\nThe `max_age` attribute sets the lifetime, in seconds.\n"),
	)
	apply(t, ix, sectionindex.Update{Put: es})
	for q, want := range map[string]string{
		"getRuntimeKey":  "hono/runtime.md#runtime-helpers",
		"getruntimekey":  "hono/runtime.md#runtime-helpers",
		"runtime key":    "hono/runtime.md#runtime-helpers",
		"--radius-field": "css/fields.md#field-styles",
		"radius field":   "css/fields.md#field-styles",
		"radius-field":   "css/fields.md#field-styles",
		"max_age":        "http/cookies.md#cookies",
		"max age":        "http/cookies.md#cookies",
		"hono/adapter":   "hono/runtime.md#runtime-helpers",
		"hono adapter":   "hono/runtime.md#runtime-helpers",
		"adapter":        "hono/runtime.md#runtime-helpers",
	} {
		if got := top(ranked(t, ix, domain.RankedQuery{Text: q})); got != want {
			t.Errorf("Ranked(%q): top is %s, want %s", q, got, want)
		}
	}
}

func testRankedStemming(t *testing.T, ix sectionindex.Index) {
	es := append(fillers(),
		MarkdownEntry("perf/guide.md", "Performance", nil, "# Performance\n\nMeasure first.\n\n## Response caching\n\nCaching responses saves work.\n"),
		MarkdownEntry("perf/deploy.md", "Deploying", nil, "# Deploying\n\nThe deployment configurations live in one folder.\n"),
	)
	apply(t, ix, sectionindex.Update{Put: es})
	for q, want := range map[string]string{
		"cache":                            "perf/guide.md#performance/response-caching",
		"cached response":                  "perf/guide.md#performance/response-caching",
		"How do I cache things?":           "perf/guide.md#performance/response-caching",
		"deploy configuration":             "perf/deploy.md#deploying",
		"where are deployments configured": "perf/deploy.md#deploying",
	} {
		if got := top(ranked(t, ix, domain.RankedQuery{Text: q})); got != want {
			t.Errorf("Ranked(%q): top is %s, want %s (English stemming)", q, got, want)
		}
	}
}

func testRankedFields(t *testing.T, ix sectionindex.Index) {
	body := "# Guide\n\nIntro text.\n\n## Deploy\n\nfirst line\nsecond line mentions zanzibar\nthird line\n\n## Other\n\nnothing here\n"
	apply(t, ix, sectionindex.Update{Put: append(fillers(), MarkdownEntry("guide.md", "Guide", nil, body))})
	rs := ranked(t, ix, domain.RankedQuery{Text: "zanzibar"})
	if len(rs) != 1 {
		t.Fatalf("zanzibar: %+v, want exactly the one section whose own text holds it (not its parent)", rs)
	}
	s := rs[0]
	if s.Path != "guide.md" || s.SectionID != "guide/deploy" || s.Start != 5 || s.End != 10 {
		t.Errorf("zanzibar: %+v, want guide.md guide/deploy lines 5-10", s)
	}
	if len(s.Lines) == 0 || s.Lines[0] != 8 {
		t.Errorf("zanzibar: best lines %v, want line 8 first", s.Lines)
	}
	if s.Score <= 0 {
		t.Errorf("zanzibar: score %v, want a positive score (higher is better)", s.Score)
	}
	// Preamble text is a section too.
	apply(t, ix, sectionindex.Update{Put: []sectionindex.Entry{MarkdownEntry("pre.md", "Pre", nil, "Loose text about tamarind.\n\n# Heading\n\nmore\n")}})
	if got := top(ranked(t, ix, domain.RankedQuery{Text: "tamarind"})); got != "pre.md#_preamble" {
		t.Errorf("tamarind: top %s, want pre.md#_preamble", got)
	}
}

// withFrontmatter is MarkdownEntry for a doc whose first lines are a
// frontmatter block (fm, its lines without the --- fences) above body.
func withFrontmatter(path, title, fm, body string) sectionindex.Entry {
	e := MarkdownEntry(path, title, nil, body)
	head := "---\n" + fm + "---\n"
	shift := strings.Count(head, "\n")
	e.Content = []byte(head + body)
	e.Structure.Lines += shift
	e.Structure.FrontmatterEnd = shift
	for i := range e.Structure.Sections {
		e.Structure.Sections[i].Start += shift
		e.Structure.Sections[i].End += shift
	}
	for i := range e.Structure.CodeBlocks {
		e.Structure.CodeBlocks[i].Start += shift
		e.Structure.CodeBlocks[i].End += shift
	}
	return e
}

// testRankedFrontmatterFacts: a doc's first section is found by its
// frontmatter's facts (its summary, which answers quote as the section's
// line: passage.FrontmatterFacts), not by its title's or tags' keys, and
// its other sections are not.
func testRankedFrontmatterFacts(t *testing.T, ix sectionindex.Index) {
	fm := "title: quill.Clip\ndescription: Returns the given marigold cut to a width without splitting a word.\ntags: [ocelot]\n"
	clip := withFrontmatter("functions/clip.md", "quill.Clip", fm, "\nClipping keeps tags balanced.\n\n## Examples\n\nClip 8 holds the line.\n")
	apply(t, ix, sectionindex.Update{Put: append(fillers(), clip)})
	rs := ranked(t, ix, domain.RankedQuery{Text: "marigold"})
	if len(rs) != 1 || top(rs) != "functions/clip.md#_preamble" || rs[0].Start != 6 {
		t.Errorf("marigold: %+v, want functions/clip.md#_preamble (lines from 6) alone: its frontmatter's summary holds the word", rs)
	}
	if rs := ranked(t, ix, domain.RankedQuery{Text: "ocelot"}); len(rs) != 0 {
		t.Errorf("ocelot: %+v, want nothing: a tag is no fact of the section", rs)
	}
}

// testRankedPathWords: a section is found by the words of its doc's path
// (its folders' names and its file name, domain.Document.PathWords) as by
// its title: a question names the part of the library it is about ("the
// demo") in words the section's own lines do not hold.
func testRankedPathWords(t *testing.T, ix sectionindex.Index) {
	es := append(fillers(),
		MarkdownEntry("demo/kubernetes-deployment.md", "Kubernetes deployment", nil,
			"# Kubernetes deployment\n\nDeploy the chart to an existing cluster.\n\n## Prerequisites\n\n- Helm 3.14+\n"),
		MarkdownEntry("platforms/charts.md", "Charts", nil, "# Charts\n\nInstall a chart with helm; helm upgrades it, helm rollback undoes it.\n"),
	)
	apply(t, ix, sectionindex.Update{Put: es})
	if got := top(ranked(t, ix, domain.RankedQuery{Text: "which helm for the demo"})); got != "demo/kubernetes-deployment.md#kubernetes-deployment/prerequisites" {
		t.Errorf("which helm for the demo: top is %s, want the demo doc's prerequisites (its folder is demo)", got)
	}
}

// testRankedTags: a section is found by its doc's tags as by its title
// (the doc's keywords, which its lines may not hold).
func testRankedTags(t *testing.T, ix sectionindex.Index) {
	es := append(fillers(),
		MarkdownEntry("ui/footer.md", "Footer", []string{"responsive", "layout"}, "# Footer\n\nUse footer-horizontal from small screens up.\n"),
		MarkdownEntry("ui/diff.md", "Diff", nil, "# Diff\n\nShows two items side by side; a layout of its own.\n"),
	)
	apply(t, ix, sectionindex.Update{Put: es})
	if got := top(ranked(t, ix, domain.RankedQuery{Text: "a responsive layout"})); got != "ui/footer.md#footer" {
		t.Errorf("a responsive layout: top is %s, want the footer, tagged responsive", got)
	}
}

func testRankedPaths(t *testing.T, ix sectionindex.Index) {
	var es []sectionindex.Entry
	for i := 0; i < 6; i++ {
		es = append(es, MarkdownEntry(fmt.Sprintf("w/%d.md", i), "Widgets", nil, fmt.Sprintf("# Widget %d\n\nwidget text\n", i)))
	}
	apply(t, ix, sectionindex.Update{Put: es})
	rs := ranked(t, ix, domain.RankedQuery{Text: "widget", Paths: []string{"w/2.md", "w/4.md"}})
	if len(rs) != 2 || rs[0].Path == rs[1].Path {
		t.Fatalf("Paths w/2.md, w/4.md: %+v, want one section of each", rs)
	}
	for _, s := range rs {
		if s.Path != "w/2.md" && s.Path != "w/4.md" {
			t.Errorf("Paths filter leaks %s", s.Path)
		}
	}
	if rs := ranked(t, ix, domain.RankedQuery{Text: "widget", Paths: []string{}}); len(rs) != 0 {
		t.Errorf("empty non-nil Paths: %+v, want nothing", rs)
	}
}

func testRankedLimit(t *testing.T, ix sectionindex.Index) {
	var es []sectionindex.Entry
	for i := 0; i < 8; i++ {
		es = append(es, MarkdownEntry(fmt.Sprintf("g/%d.md", i), "Gizmos", nil, fmt.Sprintf("# Gizmo %d\n\n%s\n", i, strings.Repeat("gizmo ", i+1))))
	}
	apply(t, ix, sectionindex.Update{Put: es})
	for limit, want := range map[int]int{0: 5, 1: 1, 2: 2, 8: 8, 100: 8} {
		if got := len(ranked(t, ix, domain.RankedQuery{Text: "gizmo", Limit: limit})); got != want {
			t.Errorf("Limit %d: %d sections, want %d", limit, got, want)
		}
	}
}

func testRankedOdd(t *testing.T, ix sectionindex.Index) {
	apply(t, ix, sectionindex.Update{Put: corpus()})
	for _, q := range []string{"", "   ", `"`, `""`, "*", "AND", "OR NOT", "NEAR(a b)", "a OR", "-", "(", ")", "title:secret",
		"'", "^", "{a b}", "the of and", "🎉", "\x00", "\xff", strings.Repeat("long ", 200), "a:b:c", "x AND", "+1"} {
		ranked(t, ix, domain.RankedQuery{Text: q})
	}
	if rs := ranked(t, ix, domain.RankedQuery{Text: ""}); len(rs) != 0 {
		t.Errorf("empty query: %+v, want nothing", rs)
	}
	if got := top(ranked(t, ix, domain.RankedQuery{Text: "koln"})); got != "a/b.md#_preamble" {
		t.Errorf("koln: top %s, want a/b.md#_preamble (Köln, diacritics folded)", got)
	}
	if got := top(ranked(t, ix, domain.RankedQuery{Text: "GRÜSSE Straße"})); got != "a/b.md#_preamble" {
		t.Errorf("Straße: top %s, want a/b.md#_preamble", got)
	}
}

func testNames(t *testing.T, ix sectionindex.Index) {
	a := MarkdownEntry("a.md", "A", nil, "# A\n\n## Cache\n")
	a.Names = []domain.Name{{Kind: domain.NameHeading, Name: "Cache", Line: 3}, {Kind: domain.NameFunction, Name: "invalidateCache", Line: 9, Signature: "(key string) error"}}
	b := MarkdownEntry("b.md", "B", nil, "# B\n")
	b.Names = []domain.Name{{Kind: domain.NameFunction, Name: "cacheKey", Line: 10, Signature: "(id)"}, {Kind: domain.NameRoute, Name: "/api/users", Line: 2, Signature: "listUsers"}}
	c := MarkdownEntry("c.md", "C", nil, "# C\n")
	c.Names = []domain.Name{{Kind: domain.NameConstant, Name: "CACHE", Line: 2}, {Kind: domain.NameConfigKey, Name: "compatibility_flags", Line: 4}}
	apply(t, ix, sectionindex.Update{Put: []sectionindex.Entry{c, b, a}})
	ctx := context.Background()
	got, err := ix.Names(ctx, "cache", 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.NameHit{
		{Name: a.Names[0], Path: "a.md", Exact: true},
		{Name: c.Names[0], Path: "c.md", Exact: true},
		{Name: a.Names[1], Path: "a.md"},
		{Name: b.Names[0], Path: "b.md"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Names(cache):\n got %+v\nwant %+v (exact first, then by path and line)", got, want)
	}
	if got, _ := ix.Names(ctx, "CACHE", 3); !slices.Equal(got, want[:3]) {
		t.Errorf("Names(CACHE, 3) = %+v, want the first three", got)
	}
	if got, _ := ix.Names(ctx, "/api/users", 10); len(got) != 1 || got[0].Signature != "listUsers" || got[0].Kind != domain.NameRoute {
		t.Errorf("Names(/api/users) = %+v", got)
	}
	if got, _ := ix.Names(ctx, "FLAGS", 10); len(got) != 1 || got[0].Name.Name != "compatibility_flags" || got[0].Exact {
		t.Errorf("Names(FLAGS) = %+v", got)
	}
	for _, q := range []string{"nothing-like-it", "%", "y_z", `"`} {
		if got, err := ix.Names(ctx, q, 10); err != nil || len(got) != 0 {
			t.Errorf("Names(%q) = %+v, %v; want nothing (wildcards are literal)", q, got, err)
		}
	}
}

func testLinksTo(t *testing.T, ix sectionindex.Index) {
	mk := func(p string, links ...string) sectionindex.Entry {
		e := MarkdownEntry(p, p, nil, "# "+p+"\n")
		e.Links = links
		return e
	}
	apply(t, ix, sectionindex.Update{Put: []sectionindex.Entry{mk("z.md", "t.md"), mk("b.md", "t.md", "u.md"), mk("t.md"), mk("a/c.md", "u.md")}})
	ctx := context.Background()
	for target, want := range map[string][]string{"t.md": {"b.md", "z.md"}, "u.md": {"a/c.md", "b.md"}, "none.md": nil, "b.md": nil} {
		got, err := ix.LinksTo(ctx, target)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("LinksTo(%s) = %q, want %q", target, got, want)
		}
	}
	if got := entry(t, ix, "b.md").Links; !slices.Equal(got, []string{"t.md", "u.md"}) {
		t.Errorf("Entry(b.md).Links = %q", got)
	}
}

// Among the sections the words' bm25 finds first, one holding two of the
// question's words together is answered before sections holding them
// apart more often (domain/proximity), and every answer is still in its
// own score's order.
func testRankedNearPairs(t *testing.T, ix sectionindex.Index) {
	var es []sectionindex.Entry
	for i := range 8 {
		es = append(es, MarkdownEntry(fmt.Sprintf("apart/p%d.md", i), fmt.Sprintf("Page %d", i), nil,
			fmt.Sprintf("# Page %d\n\nThe browser starts first and loads each page it is given, and the browser stays open. Workers and the runner may later connect to the server and connect again.\n", i)))
	}
	es = append(es, MarkdownEntry("together.md", "Timeouts", nil,
		"# Timeouts\n\nThe run fails when the launched browser does not connect back within a minute, as the default says.\n"))
	for i := range 20 {
		es = append(es, MarkdownEntry(fmt.Sprintf("other/o%d.md", i), fmt.Sprintf("Other %d", i), nil,
			fmt.Sprintf("# Other %d\n\nNothing of the kind here, page %d.\n", i, i)))
	}
	apply(t, ix, sectionindex.Update{Put: es})
	q := domain.RankedQuery{Text: "how long until the browser connect quokka", Limit: 3}
	rs, err := ix.Ranked(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(rs, func(s domain.RankedSection) bool { return s.Path == "together.md" }) {
		t.Errorf("Ranked(%q) = %+v, want together.md among the first %d", q.Text, rs, q.Limit)
	}
	for i := 1; i < len(rs); i++ {
		if rs[i].Score > rs[i-1].Score {
			t.Errorf("Ranked(%q): %d scores %v above %d's %v", q.Text, i, rs[i].Score, i-1, rs[i-1].Score)
		}
	}
}
