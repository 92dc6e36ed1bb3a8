package passage

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestWordsSplitsCodeNames(t *testing.T) {
	got := strings.Join(Words("generateDigest refresh_token HTTPServer v2"), " ")
	want := "generatedigest generate digest refresh_token refresh token httpserver http server v2"
	if got != want {
		t.Errorf("Words = %q, want %q", got, want)
	}
	for a, b := range map[string]string{"rotated": "rotation", "overriding": "override", "classes": "class", "tokens": "token",
		"colour": "color", "behaviours": "behavior", "initialised": "initialized", "customising": "customizing",
		"took": "taken", "taken": "take", "written": "writes", "overrode": "overriding", "kept": "keeps"} {
		if Stem(a) != Stem(b) {
			t.Errorf("Stem(%q) = %q, Stem(%q) = %q: want one stem", a, Stem(a), b, Stem(b))
		}
	}
}

// TestLinesChooseTheAnswer: the line that holds the question's rarer
// words, and a value when one is asked for, beats the section's first
// lines that only name its topic.
func TestLinesChooseTheAnswer(t *testing.T) {
	section := []string{
		"## Cookie helper", // 1
		"",                 // 2
		"The cookie helper sets and reads cookies.", // 3
		"Cookies are signed with a secret.",         // 4
		"The helper throws an Error when:",          // 5
		"- the cookie name starts with __Secure-,",  // 6
		"- the `maxAge` option is over 400 days.",   // 7
		"Cookie values are URL-encoded.",            // 8
	}
	for _, tc := range []struct {
		question string
		want     int
	}{
		{"what is the largest maxAge the cookie helper accepts?", 7},
		{"how are cookie values encoded?", 8},
		{"which secret signs cookies?", 4},
	} {
		got := NewQuestion(tc.question).Best(section, 1, len(section), 1)
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%q: best line %v, want L%d", tc.question, got, tc.want)
		}
	}
}

// TestLinesFindTheDocsWordForAValue: a question asking for a value
// reaches the line that states it in the docs' word for the question's
// (TTL for expiry), after the line holding the question's own word.
func TestLinesFindTheDocsWordForAValue(t *testing.T) {
	section := []string{
		"## TTL rules",
		"Every key gets a TTL: 5 minutes by default.",
		"Session data follows the session's own expiry.",
	}
	// "expiry" is on L3; docs say TTL for it (L2, with the value).
	got := NewQuestion("what expiry does an entry get?").Best(section, 1, 3, 2)
	if !slices.Equal(got, []int{3, 2}) {
		t.Errorf("value question: lines %v, want [3 2]", got)
	}
}

func TestRelatedWords(t *testing.T) {
	q := NewQuestion("how big a payload is allowed out of the box?")
	for _, w := range []string{"default", "size", "max", "body"} {
		if !slices.Contains(q.Related(), Stem(w)) {
			t.Errorf("related %v lacks %q", q.Related(), w)
		}
	}
	if got := NewQuestion("how can I leave out some files?").Related(); !slices.Contains(got, Stem("exclude")) {
		t.Errorf("related %v lacks exclude, the docs' word for leaving out", got)
	}
	if got := NewQuestion("how many requests run at the same time?").Related(); !slices.Contains(got, Stem("concurrency")) {
		t.Errorf("related %v lacks concurrency", got)
	}
	if got := NewQuestion("what does the rule allow without options?").Related(); !slices.Contains(got, Stem("default")) {
		t.Errorf("related %v lacks default, what a rule does without options", got)
	}
	// A question asking what it must do is answered by the doc's rule
	// ("You must specify `min` and `max` attributes"), in words it shares
	// with no line but "must".
	rules := []string{"#### Rules", "- {MODIFIER} is optional and can have one of each color class names", "- You must specify `min` and `max` attributes"}
	if got := NewQuestion("What must I set on the input element of the range slider?").Lines(rules, 1, 3, 1); len(got) == 0 || got[0].Line != 3 {
		t.Errorf("lines %v, want line 3, the rule stating what must be set", got)
	}
	if got := NewQuestion("What does the app return when rolls is zero?").Related(); !slices.Contains(got, "0") {
		t.Errorf("related %v lacks 0, the docs' digit for zero", got)
	}
	if got := NewQuestion("Why do two rules undo each other?").Related(); slices.Contains(got, "2") {
		t.Errorf("related %v holds 2: two is a count of the question's own things", got)
	}
	// Whether a thing may be left out is whether the docs call it
	// required: the rule line answers though it shares no word asked.
	placement := []string{"#### Rules", "- {COLOR} can be one of the color names",
		"- {PLACEMENT} is required and must be either `chat-start` or `chat-end`", "- The bubble's text may hold HTML"}
	if got := NewQuestion("Can I leave out the class that puts a message on the left or right side?").Lines(placement, 1, 4, 1); len(got) == 0 || got[0].Line != 3 {
		t.Errorf("lines %v, want line 3, the rule saying the placement class is required", got)
	}
	if !statesLimit("- {PLACEMENT} is required and must be either") || statesLimit("- requiredness is a word") {
		t.Error("statesLimit: a line calling a thing required states a limit; a word holding required does not")
	}
	if got := NewQuestion("Do I have to pass a name?").Related(); !slices.Contains(got, Stem("required")) {
		t.Errorf("related %v lacks required, the docs' word for what one has to do", got)
	}
	for q, w := range map[string]string{
		"how do I turn off the cache?":            "disable",
		"can I switch on source maps?":            "enable",
		"which folder holds the output?":          "directory",
		"how can I skip some files in one run?":   "ignore",
		"how do I make the agent quiet at start?": "silent",
		"can I set both lists of APIs?":           "together",
		"can both run at the same time?":          "together",
		"does the letter casing matter?":          "sensitive",
		"does capitalization matter here?":        "case",
		"what does it give back?":                 "return",
		"in what order do two listeners run?":     "multiple",
		"can I list several setup files?":         "multiple",
		"does the dev server read it?":            "development",
		"what does the cache keep?":               "store",
		"which address does it bind?":             "host",
	} {
		if got := NewQuestion(q).Related(); !slices.Contains(got, Stem(w)) {
			t.Errorf("%q: related %v lacks %s, the docs' word for it", q, got, w)
		}
	}
	if !NewQuestion("what is the way to do it?").Empty() {
		t.Error("a question of stopwords is not empty")
	}
}

// TestPooledComparesSections: pooled over the sections found, a word
// every section holds weighs less than one a single line holds, and the
// line holding the rarer words is the best of all the sections.
func TestPooledComparesSections(t *testing.T) {
	a := []string{"## Import", "import { cache } from 'lib/cache'"}
	b := []string{"## Options", "The cache keeps entries.", "The cache TTL default is `5m`.", "The cache is shared."}
	q := NewQuestion("what TTL does the cache give an entry by default?")
	p := q.Pooled([]Span{{Doc: "a", Lines: a, From: 1, To: 2}, {Doc: "b", Lines: b, From: 1, To: 4}})
	if p.idf["cache"] >= p.idf["ttl"] {
		t.Errorf("pooled weights: cache %.2f, ttl %.2f: want the rarer word weighing more", p.idf["cache"], p.idf["ttl"])
	}
	best := func(lines []string) Scored { return p.Lines(lines, 1, len(lines), 1)[0] }
	if best(a).Score >= best(b).Score || best(b).Line != 3 {
		t.Errorf("pooled: import %v, options %v: want line 3 of the options first", best(a), best(b))
	}
}

// TestShownQuotesALineOnce: a section's best lines in line order, less
// those a section above quoted, and the index's lines when none holds a
// word of the question.
func TestShownQuotesALineOnce(t *testing.T) {
	q := NewQuestion("how long is a refresh token valid?")
	lines := []string{
		"## Refresh tokens", // 1
		"A refresh token is valid for 30 days after it is issued.", // 2
		"Each refresh token is stored hashed in the token table.",  // 3
		"Unrelated line.",                          // 4
		"A used refresh token is revoked at once.", // 5
	}
	shown := map[int]bool{}
	first := q.Shown(lines, 1, 5, 2, nil, shown)
	if len(first) != 2 || !slices.IsSorted(first) || !slices.Contains(first, 2) {
		t.Fatalf("first section shows %v, want 2 lines in order, line 2 among them", first)
	}
	again := q.Shown(lines, 2, 5, 3, nil, shown)
	for _, l := range again {
		if slices.Contains(first, l) {
			t.Errorf("the subsection quotes line %d again (%v after %v)", l, again, first)
		}
	}
	if got := q.Shown(lines, 4, 4, 3, []int{4}, map[int]bool{}); !slices.Equal(got, []int{4}) {
		t.Errorf("a section holding no word shows %v, want the index's line 4", got)
	}
}

// TestShownFollowedQuotesTheNextLine: the best section quotes a chosen
// line with the one after it (the next list item, the next paragraph),
// where the fact often is in words the question does not share; not a
// heading, not a line too long, not past the section, not a line shown.
func TestShownFollowedQuotesTheNextLine(t *testing.T) {
	q := NewQuestion("which refresh token rotation options exist?")
	lines := []string{
		"## Rotation", // 1
		"Refresh token rotation takes two options.",  // 2
		"- `reuseWindow`: 10 seconds by default",     // 3
		"- `family`: revoke them all",                // 4
		"",                                           // 5
		"The rotation of a refresh token is logged.", // 6
		"",           // 7
		"## Storage", // 8
	}
	if got := q.Shown(lines, 1, 8, 2, nil, map[int]bool{}); !slices.Equal(got, []int{2, 6}) {
		t.Errorf("Shown = %v, want lines 2 and 6 alone: a section that is not the best quotes no following line", got)
	}
	shown := map[int]bool{}
	got := q.ShownFollowed(lines, 1, 8, 2, nil, shown)
	if !slices.Equal(got, []int{2, 3, 6}) {
		t.Errorf("ShownFollowed = %v, want lines 2 and 6, the item after 2 (3), and none after 6 (a heading)", got)
	}
	if !shown[3] {
		t.Error("the following line is not marked shown")
	}
	if got := q.ShownFollowed(lines, 1, 6, 1, nil, map[int]bool{3: true}); slices.Contains(got, 3) {
		t.Errorf("ShownFollowed = %v quotes line 3 again", got)
	}
	// Line 6 is followed, past the blank line 7, by the heading 8: none.
	if got := followingLine(lines, 6, 8); got != 0 {
		t.Errorf("followingLine(6) = %d, want 0: a heading", got)
	}
	next := slices.Clone(lines)
	next[7] = "Rotated tokens are kept for a day." // line 8, past the blank line 7
	if got := followingLine(next, 6, 8); got != 8 {
		t.Errorf("followingLine(6) = %d, want 8, past the blank line", got)
	}
	if got := followingLine(next, 6, 7); got != 0 {
		t.Errorf("followingLine(6) = %d, want 0: line 8 is past the section", got)
	}
	next[7] = "});"
	if got := followingLine(next, 6, 8); got != 0 {
		t.Errorf("followingLine(6) = %d, want 0: a bracket says nothing", got)
	}
	next[7] = strings.Repeat("x", followedLineRunes+1)
	if got := followingLine(next, 6, 8); got != 0 {
		t.Errorf("followingLine(6) = %d, want 0 for a line over %d runes", got, followedLineRunes)
	}
	// A container's marker (`::: warning`) is not the line: what it holds is.
	boxed := []string{"Call `runSuite()` in the hook.", "", "::: warning", "If it is not called, the tests are skipped.", ":::"}
	if got := followingLine(boxed, 1, 5); got != 4 {
		t.Errorf("followingLine(1) = %d, want 4, the warning's text past its marker", got)
	}
	// A screenshot's dark-mode twin is not the line: the text after it is.
	twins := []string{
		`<img alt="The module graph view" img-light src="/ui/light-module-graph.png">`,
		`<img alt="The module graph view" img-dark src="/ui/dark-module-graph.png">`,
		"",
		"If there are more than 50 modules, the graph shows only two levels.",
	}
	if got := followingLine(twins, 1, 4); got != 4 {
		t.Errorf("followingLine(1) = %d, want 4, past the twin line 2", got)
	}
}

// TestRareLineKeepsASoleLine: the place the rare word's line takes is not
// that of a chosen line which is itself the one line holding another word
// of the question.
func TestRareLineKeepsASoleLine(t *testing.T) {
	q := NewQuestion("if I pass a style prop inside an svg, which wrapper does it use?")
	lines := []string{
		"You can pass a style to a wrapper.",       // 1: the only line with "pass"
		"The wrapper holds the style prop.",        // 2
		"The wrapper style prop is set inside it.", // 3: the only line with "inside"
		"For an svg, it uses a g element instead.", // 4: the only line with "svg"
	}
	got := q.withRareLine(lines, 1, 4, []int{2, 4}, map[int]bool{}, map[int]int{})
	if !slices.Equal(got, []int{1, 4}) {
		t.Errorf("withRareLine = %v, want [1 4]: line 4 alone says svg, so line 2 gives its place to line 1", got)
	}
	if got := q.withRareLine(lines, 1, 4, []int{2, 3}, map[int]bool{}, map[int]int{}); !slices.Equal(got, []int{1, 3}) {
		t.Errorf("withRareLine = %v, want [1 3]: line 3 alone says inside, so line 2 gives its place", got)
	}
	if got := q.withRareLine(lines, 1, 4, []int{1, 4}, map[int]bool{}, map[int]int{}); !slices.Equal(got, []int{1, 4}) {
		t.Errorf("withRareLine = %v, want [1 4]: each chosen line is a rare word's own, so neither gives its place to line 3", got)
	}
}

// TestRareLineIsAWholeWord: a longer word that only begins with a word
// asked ("prettier" in `.prettierignore`) does not make its line the rare
// word's: the line holding the word asked as it is does.
func TestRareLineIsAWholeWord(t *testing.T) {
	q := NewQuestion("with git-format-staged as a prettier pre-commit hook, are my edits staged?")
	lines := []string{
		"Git-format-staged runs a formatter on staged files in a hook.",       // 1
		"1. Changes in commits are always formatted.",                         // 2: the only line with "commit"
		"2. Unstaged changes are never staged.",                               // 3
		"Formatting respects any `.prettierignore` files of the hook's repo.", // 4: "prettier" only begins a word
	}
	if got := q.withRareLine(lines, 1, 4, []int{1, 3}, map[int]bool{}, map[int]int{}); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("withRareLine = %v, want [1 2]: line 2 alone says commit; line 4's prettierignore is not prettier", got)
	}
}

// TestShownTakesOneLineOfACodeBlock: an example that repeats the
// question's names on every line gives one chosen line; the others go to
// the prose that states the fact.
func TestShownTakesOneLineOfACodeBlock(t *testing.T) {
	q := NewQuestion("how many classes does max-classes-per-file allow?")
	lines := []string{
		"## Options", // 1
		"* `max`: the most classes a file may hold (defaulted to 1).", // 2
		"```js",                                // 3
		"/* max-classes-per-file: 2 */",        // 4
		"class Foo {} // max-classes-per-file", // 5
		"class Bar {} // max-classes-per-file", // 6
		"```",                                  // 7
	}
	got := q.Shown(lines, 1, 7, 2, nil, map[int]bool{})
	if len(got) != 2 || !slices.Contains(got, 2) {
		t.Errorf("Shown = %v, want 2 lines, the prose line 2 among them", got)
	}
	code := 0
	for _, l := range got {
		if l >= 4 && l <= 6 {
			code++
		}
	}
	if code != 1 {
		t.Errorf("Shown = %v: %d lines of the code block, want 1", got, code)
	}
	// ShownProse quotes the prose alone: the code line takes its place
	// but is not quoted; a section of code alone quotes its best line.
	if got := q.ShownProse(lines, 1, 7, 2, nil, map[int]bool{}); !slices.Equal(got, []int{2}) {
		t.Errorf("ShownProse = %v, want [2]: the prose line, not the code line that took the other place", got)
	}
	if got := q.ShownProse(lines[2:], 1, 5, 2, nil, map[int]bool{}); len(got) != 1 || got[0] < 2 || got[0] > 4 {
		t.Errorf("ShownProse of a code block alone = %v, want one of its lines", got)
	}
}

// TestCodeNameCountsOnce: a code name the question holds (daisyUI) is one
// of its words, not three (daisyui, daisy, ui): a line that only names it
// does not beat the line with the question's other words.
func TestCodeNameCountsOnce(t *testing.T) {
	q := NewQuestion("what default size does a daisyUI radial progress get?")
	lines := []string{
		"## Radial progress",                           // 1
		"Every daisyUI component has daisyUI classes.", // 2
		"The default size is 5rem.",                    // 3
	}
	if got := q.Best(lines, 1, 3, 1); !slices.Equal(got, []int{3}) {
		t.Errorf("best line %v, want [3] (the default size), not the line naming daisyUI", got)
	}
}

// Of two sections the index scores a little apart, whose best lines answer alike,
// the one holding more of the question's words goes first: BM25 lets a
// section repeating two of them beat one holding all five once.
func TestRankPrefersTheSectionHoldingMoreOfTheQuestion(t *testing.T) {
	q := NewQuestion("how does the rotor keep the spindle calibrated under vibration?")
	repeats := []string{"The rotor turns the spindle.", "", "A rotor and a spindle, again.", "", "Rotor, spindle, rotor."}
	holdsAll := []string{"The rotor turns the spindle.", "", "Keep it calibrated.", "", "Vibration is damped."}
	spans := []Span{
		{Doc: "a.md", Lines: repeats, From: 1, To: len(repeats)},
		{Doc: "b.md", Lines: holdsAll, From: 1, To: len(holdsAll)},
	}
	got := q.Rank(spans, []float64{1, 0.88})
	if got[1] <= got[0] {
		t.Errorf("Rank = %v: the section holding every word (b.md) should go first", got)
	}
}

// A line ending in a colon is quoted with the short line it announces,
// past a fence: the value the question asks for is there, in words the
// question does not share.
func TestShownQuotesTheAnnouncedLine(t *testing.T) {
	q := NewQuestion("which environment variable turns the Vercel helpers off?")
	lines := []string{
		"## Pages Router", // 1
		"Disable the Vercel helpers with an environment variable in your `.env` file:", // 2
		"",                 // 3
		"```text",          // 4
		"NODEJS_HELPERS=0", // 5
		"```",              // 6
		"Then deploy.",     // 7
	}
	got := q.Shown(lines, 1, 7, 1, nil, map[int]bool{})
	if !slices.Equal(got, []int{2, 5}) {
		t.Errorf("Shown = %v, want the announcing line 2 and the line it announces, 5", got)
	}
	long := slices.Clone(lines)
	long[4] = "NODEJS_HELPERS=0 # " + strings.Repeat("a comment too long to quote for the line above ", 2)
	if got := q.Shown(long, 1, 7, 1, nil, map[int]bool{}); !slices.Equal(got, []int{2}) {
		t.Errorf("Shown = %v, want line 2 alone: the announced line is long", got)
	}
}

// What a line announces is the first line past it that holds a word, up
// to three lines down: a bracket opening a code block ("{") says nothing.
func TestShownSkipsABracketForTheAnnouncedLine(t *testing.T) {
	q := NewQuestion("which type do I add to tsconfig for the global APIs?")
	lines := []string{
		"To get the global APIs typed, add a type to your `tsconfig.json`:", // 1
		"```json",                       // 2
		"{",                             // 3
		`  "types": ["vitest/globals"]`, // 4
		"}",                             // 5
		"```",                           // 6
	}
	got := q.Shown(lines, 1, 6, 1, nil, map[int]bool{})
	if !slices.Equal(got, []int{1, 4}) {
		t.Errorf("Shown = %v, want the announcing line 1 and line 4, not the bracket of line 3", got)
	}
	lines = slices.Insert(lines, 1, "")
	if got := q.Shown(lines, 1, 7, 1, nil, map[int]bool{}); !slices.Equal(got, []int{1}) {
		t.Errorf("Shown = %v, want line 1 alone: past the bracket, the next line is too far", got)
	}
}

// A long line's window is where the question's words meet; when they
// spread wider than the excerpt, the part of the line holding most of them.
func TestWindowWithin(t *testing.T) {
	q := NewQuestion("what setting in the future config warns about plugin hooks that read options.ssr?")
	line := "The deprecation of `options.ssr` is planned for a future major. At that point we'll start recommending " +
		"migrating your plugins to use the new API. To identify your usage, set `future.removePluginHookSsrArgument` to \"warn\" in your vite config."
	from, to, ok := q.WindowWithin(line, 400)
	if !ok || from != strings.Index(line, "options") || to != len(line)-len(".") {
		t.Errorf("wide excerpt: window %d..%d (%q), want from options.ssr to config", from, to, line[from:to])
	}
	from, to, ok = q.WindowWithin(line, 90)
	if got := line[from:to]; !ok || !strings.Contains(got, "future.removePluginHookSsrArgument") || !strings.HasSuffix(got, "config") {
		t.Errorf("90-rune excerpt: window %q, want the part naming the setting, up to config", got)
	}
	if _, _, ok := q.WindowWithin("nothing asked here", 90); ok {
		t.Error("a line holding no word of the question has no window")
	}
}

// A container marker (":::incorrect", "::: tip") is markup, as a fence is:
// what a line ending in a colon announces is the line past it.
func TestShownSkipsAContainerMarker(t *testing.T) {
	q := NewQuestion("does camelcase check names pulled in with import?")
	lines := []string{
		"Examples of **incorrect** code for camelcase with the default option:", // 1
		":::incorrect",                       // 2
		"```js",                              // 3
		"import { snake_cased } from 'mod';", // 4
		"```",                                // 5
		":::",                                // 6
	}
	got := q.Shown(lines, 1, 6, 1, nil, map[int]bool{})
	if !slices.Equal(got, []int{1, 4}) {
		t.Errorf("Shown = %v, want the announcing line 1 and the code line 4, not the marker of line 2", got)
	}
}

// A line announcing a group of tabbed examples (VitePress's "::: code-group",
// a blank line, then a fence) is quoted with the first tab's line, five
// lines down: without the container, three lines down is as far as it looks.
func TestShownLooksPastACodeGroup(t *testing.T) {
	q := NewQuestion("what npm package do I install to run a Hono app on Azure Functions?")
	lines := []string{
		"Now you are ready to install Hono and the Azure Functions Adapter with:", // 1
		"",               // 2
		"::: code-group", // 3
		"",               // 4
		"```sh [npm]",    // 5
		"npm i @marplex/hono-azurefunc-adapter hono", // 6
		"```", // 7
		":::", // 8
	}
	got := q.Shown(lines, 1, 8, 1, nil, map[int]bool{})
	if !slices.Equal(got, []int{1, 6}) {
		t.Errorf("Shown = %v, want the announcing line 1 and the first tab's line 6", got)
	}
	plain := slices.Clone(lines)
	plain[2] = "Pick the one your package manager uses, one of these four."
	if got := q.Shown(plain, 1, 8, 1, nil, map[int]bool{}); !slices.Equal(got, []int{1, 3}) {
		t.Errorf("Shown = %v, want line 1 and the prose line 3 it announces", got)
	}
	gone := slices.Clone(lines)
	gone[2] = ""
	if got := q.Shown(gone, 1, 8, 1, nil, map[int]bool{}); !slices.Equal(got, []int{1}) {
		t.Errorf("Shown = %v, want line 1 alone: with no container, line 6 is too far", got)
	}
}

// A code comment that opens an example ("// eslint.config.js") is not what
// a line ending in a colon announces, nor a line that only opens a
// construct (`export default [`): the line past them is.
func TestShownSkipsAnOpeningComment(t *testing.T) {
	q := NewQuestion("how do I apply a rule only to files under src?")
	lines := []string{
		"For example, to apply the rule only to files in your `src` directory:", // 1
		"```js",                      // 2
		"// eslint.config.js",        // 3
		"export default [",           // 4
		"  { files: [\"src/**\"] },", // 5
		"];",                         // 6
		"```",                        // 7
	}
	got := q.Shown(lines, 1, 7, 1, nil, map[int]bool{})
	if !slices.Equal(got, []int{1, 5}) {
		t.Errorf("Shown = %v, want the announcing line 1 and line 5, not the comment of line 3 nor the opening line 4", got)
	}
}

// TestAPartAskedAloneCountsAlone: a code name's part that the question
// also asks as a word of its own (lint, in "lint-staged" beside ESLint)
// is that word: a line holding lint-staged alone does not hold ESLint too.
func TestAPartAskedAloneCountsAlone(t *testing.T) {
	q := NewQuestion("When lint-staged runs both ESLint and Prettier on commit, which one should run first?")
	lines := []string{
		"## Git hooks", // 1
		"node --eval \"fs.writeFileSync('.husky/pre-commit','npx lint-staged\\n')\"",       // 2
		"node --eval \"fs.writeFileSync('.husky/pre-commit','yarn lint-staged\\n')\"",      // 3
		"node --eval \"fs.writeFileSync('.husky/pre-commit','pnpm exec lint-staged\\n')\"", // 4
		"If you use ESLint, make sure lint-staged runs it before Prettier, not after.",     // 5
		"Many people run Prettier as a pre-commit hook.",                                   // 6
	}
	if got := q.Best(lines, 1, len(lines), 1); !slices.Equal(got, []int{5}) {
		t.Errorf("best line %v, want [5] (ESLint and lint-staged), not a hook holding lint-staged alone", got)
	}
}

// TestASymbolsNameMeetsItsCodeSpan: a question that names a symbol in
// words ("dollar sign") meets the line that writes it as a code span, and
// not a line that only holds the symbol inside code.
func TestASymbolsNameMeetsItsCodeSpan(t *testing.T) {
	section := []string{
		"## Env files",                                // 1
		"Variables in env files are expanded.",        // 2
		"Reference another as `${OTHER}` in a value.", // 3
		"Use `$` inside a value by escaping it.",      // 4
	}
	q := NewQuestion("how do I put a literal dollar sign into a value?")
	if got := q.Best(section, 1, len(section), 1); !slices.Equal(got, []int{4}) {
		t.Errorf("Best = %v, want [4] (the line writing `$`)", got)
	}
	if got := namedSymbols("a `**` glob, `${x}`, `\\` and an open `"); got != "a  double star globstar  glob, `${x}`,  backslash  and an open `" {
		t.Errorf("namedSymbols = %q", got)
	}
}

// TestALineWritingTheQuotedCallWins: a question that pastes a call
// (fn('a', 'b')) is answered by the line that writes that call, quotes
// and spaces aside, before lines that only share its names.
func TestALineWritingTheQuotedCallWins(t *testing.T) {
	section := []string{
		"#### Matching", // 1
		"fn.whenCalledWith(expect.any(Number)) matches any number.",                        // 2
		"- **Arity**: `whenCalledWith('a')` matches `fn('a')`, but **not** `fn('a','b')`.", // 3
	}
	q := NewQuestion(`If I configure fn.whenCalledWith("a").mockReturnValue(1), will it fire for fn("a", "b")?`)
	if got := q.Best(section, 1, len(section), 1); !slices.Equal(got, []int{3}) {
		t.Errorf("Best = %v, want [3] (the line writing fn('a','b'))", got)
	}
	want := []string{"fn.whencalledwith(a).mockreturnvalue(1)", "fn(a,b)"}
	if got := quotedCalls(`If I configure fn.whenCalledWith("a").mockReturnValue(1), will it fire for fn("a", "b")? f(( g()`); !slices.Equal(got, want) {
		t.Errorf("quotedCalls = %q, want %q", got, want)
	}
}

// TestALineStatingTheDefaultIsChosen: asked what happens by default, the
// line that states a default ("* Default: **1440**") is among the lines
// chosen, before lines that share more of the question's words; Rank
// does not weigh it (a section is not found for it).
func TestALineStatingTheDefaultIsChosen(t *testing.T) {
	section := []string{
		"### minimumReleaseAge",           // 1
		"Added in: v10.16.0",              // 2
		"* Default: **1440** (since v11)", // 3
		"* Type: **number (minutes)**",    // 4
		"To reduce the risk of installing compromised packages, you can delay the installation of newly published versions.",        // 5
		"`minimumReleaseAge` is the minimum number of minutes that must pass after a version is published before pnpm installs it.", // 6
	}
	q := NewQuestion("how many minutes old does a newly published version have to be before pnpm will install it by default?")
	if got := q.Best(section, 1, len(section), 3); !slices.Contains(got, 3) {
		t.Errorf("Best = %v, want the default's line 3 among them", got)
	}
	if ranked, chosen := q.lines(section, 3, 3, 1, false), q.Lines(section, 3, 3, 1); ranked[0].Score >= chosen[0].Score {
		t.Errorf("ranking score %v, want it under the choosing score %v", ranked[0], chosen[0])
	}
	for line, want := range map[string]bool{"- **Default:** `data-testid`": true, "By default, it uses SHA-1.": true,
		"export default defineConfig({": false, "The default theme is pretty.": false} {
		if statesDefault(line) != want {
			t.Errorf("statesDefault(%q) = %v, want %v", line, !want, want)
		}
	}
}

// TestALineWritingTheQuotedCommandWins: a question that writes a command
// out (pnpm install -g) is answered by the line that writes it, before
// table rows that share its words.
func TestALineWritingTheQuotedCommandWins(t *testing.T) {
	section := []string{
		"| `pnpm add -g <pkg>` | Install a package globally |",      // 1
		"| `pnpm list -g` | List all globally installed packages |", // 2
		"`pnpm install -g` (without arguments) is not supported.",   // 3
	}
	q := NewQuestion("Can I run pnpm install -g with no package names to reinstall my global tools?")
	if got := q.Best(section, 1, len(section), 1); !slices.Equal(got, []int{3}) {
		t.Errorf("Best = %v, want [3] (the line writing pnpm install -g)", got)
	}
	want := []string{"install-g", "pnpminstall-g", "callback&&callback()"}
	if got := quotedCommands("Does pnpm install -g, or `callback && callback()`, or a - b or `x`?"); !slices.Equal(got, want) {
		t.Errorf("quotedCommands = %q, want %q", got, want)
	}
}

// TestALineWritingTheQuotedLiteralWins: a literal the question writes
// between double quotes ("use strict") is pasted code: the line writing it
// answers before lines sharing more of the question's other words.
func TestALineWritingTheQuotedLiteralWins(t *testing.T) {
	section := []string{
		"This rule disallows strict mode directives, no matter which option is specified, in functions with non-simple parameter lists.", // 1
		"This rule does not apply to class static blocks, no matter which option is specified, because they have no directives.",         // 2
		"The `--fix` option does not insert new `\"use strict\"` statements, but only removes unneeded statements.",                      // 3
	}
	q := NewQuestion(`With the strict rule enabled, will eslint --fix add missing "use strict" directives to my files?`)
	if got := q.Best(section, 1, len(section), 1); !slices.Equal(got, []int{3}) {
		t.Errorf("Best = %v, want [3] (the line writing \"use strict\")", got)
	}
	want := []string{"usestrict", "a b c d e"}
	if got := doubleQuoted("say \"use strict\" or \u201ca b c d e\u201d, not \"" + strings.Repeat("x", maxQuotedPhrase+1) + "\" or \"\"; \"open"); len(got) != 2 || !slices.Equal([]string{foldCode(got[0]), got[1]}, want) {
		t.Errorf("doubleQuoted = %q, want %q (folded first)", got, want)
	}
}

// TestALineHoldingTheCommandIsChosen: asked for a command, the line that
// holds one in a code span is among the lines chosen, before lines that
// share more of the question's words but hold none.
func TestALineHoldingTheCommandIsChosen(t *testing.T) {
	section := []string{
		"### Cloudflare Workers", // 1
		"The Cloudflare Vite plugin runs your Workers code in the Cloudflare Workers runtime during development.",      // 2
		"After running `npm run build`, your application can now be deployed with `npx wrangler deploy`.",              // 3
		"You can add backend APIs that run in the Workers runtime and deploy alongside your app with the Vite plugin.", // 4
	}
	q := NewQuestion("After building with the Cloudflare Vite plugin, what command actually deploys the app to Workers?")
	if got := q.Best(section, 1, len(section), 2); !slices.Contains(got, 3) {
		t.Errorf("Best = %v, want the command's line 3 among them", got)
	}
	for line, want := range map[string]bool{"deployed with `npx wrangler deploy`.": true, "set `--no-file-parallelism`": true,
		"the `Number` type": false, "a `TODO List` item": false, "no span here": false} {
		if holdsCommand(line) != want {
			t.Errorf("holdsCommand(%q) = %v, want %v", line, !want, want)
		}
	}
}

// TestALineStatingTheCatchIsChosen: asked for the catch, the line that
// states a drawback is among the lines chosen, before a line that shares
// more of the question's words but states none.
func TestALineStatingTheCatchIsChosen(t *testing.T) {
	section := []string{
		"## Notes", // 1
		"eslint-plugin-prettier runs Prettier as a lint rule and reports differences.",  // 2
		"Running Prettier inside a lint rule is slower than running Prettier directly.", // 3
		"Prettier and the lint rule share the same config.",                             // 4
	}
	q := NewQuestion("what's the catch with running Prettier as a lint rule via eslint-plugin-prettier?")
	if got := q.Best(section, 1, len(section), 1); !slices.Equal(got, []int{3}) {
		t.Errorf("Best = %v, want [3] (the drawback)", got)
	}
	if !asksForCaveat("Why does it fail?") || asksForCaveat("How do I install it?") {
		t.Error("asksForCaveat: want a why question to ask for one and a how-to not")
	}
}

// TestALineStatingTheLimitIsChosen: asked yes or no ("Can it skip
// those?"), the line stating the limit is chosen before one that shares as
// many of the question's words but states none.
func TestALineStatingTheLimitIsChosen(t *testing.T) {
	section := []string{
		"## Options", // 1
		"The camelcase rule checks names in imports and properties.", // 2
		"The camelcase rule does not check names in imports.",        // 3
	}
	q := NewQuestion("Can the camelcase rule skip names in imports?")
	if got := q.Best(section, 1, len(section), 1); !slices.Equal(got, []int{3}) {
		t.Errorf("Best = %v, want [3] (the limit)", got)
	}
	for text, want := range map[string]bool{
		"Can it skip those?": true, "I kept a reference. Will it still work?": true,
		"How do I skip those?": false, "which hash does it use": false, "can": false,
	} {
		if got := asksYesOrNo(text); got != want {
			t.Errorf("asksYesOrNo(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestHowDoIAsksForAValue: "how do I" asks for what to write (a flag, a
// name, a setting), so a line holding a code span answers before prose
// sharing as many of the question's words.
func TestHowDoIAsksForAValue(t *testing.T) {
	section := []string{
		"## Deploy", // 1
		"You deploy the workspace package from the project root.",     // 2
		"To deploy the workspace package, pass `--legacy` to deploy.", // 3
	}
	q := NewQuestion("How do I deploy the workspace package?")
	if got := q.Best(section, 1, len(section), 1); !slices.Equal(got, []int{3}) {
		t.Errorf("Best = %v, want [3] (the flag)", got)
	}
	if !asksForValue("How can I skip them?") || asksForValue("How does it work?") {
		t.Error("asksForValue: want how can I to ask for a value and how does it work not")
	}
}

// TestShownFollowedGivesARareWordItsLine: in the best section, the last
// of the chosen lines goes to the one line holding a word of the
// question that no other line holds (code not counted), when none chosen
// holds it; other sections keep their best-scored lines.
func TestShownFollowedGivesARareWordItsLine(t *testing.T) {
	q := NewQuestion("is the allowed hosts check of the dev server still enforced over HTTPS?")
	lines := []string{
		"## server.allowedHosts",
		"The dev server checks the Host header against the allowed hosts.",
		"Allowed hosts may start with a dot to allow the subdomains of the hosts.",
		"",
		"Allowed hosts set to true let any host reach the dev server.",
		"",
		"",
		"Over HTTPS this is skipped.", // 8
		"```js",
		"server: { allowedHosts: ['.dev'], https: true }",
		"```",
	}
	plain := q.Shown(lines, 1, 11, 3, nil, map[int]bool{})
	if slices.Contains(plain, 8) {
		t.Fatalf("Shown = %v: the test needs line 8 left out by the scores alone", plain)
	}
	got := q.ShownFollowed(lines, 1, 11, 3, nil, map[int]bool{})
	if !slices.Contains(got, 8) {
		t.Errorf("ShownFollowed = %v, want line 8, the one prose line holding \"HTTPS\"", got)
	}
	if n := len(slices.DeleteFunc(slices.Clone(got), func(l int) bool { return !slices.Contains(plain, l) })); n != 2 {
		t.Errorf("ShownFollowed = %v keeps %d of Shown's %v, want all but the last", got, n, plain)
	}
}

func TestWithoutURLs(t *testing.T) {
	for in, want := range map[string]string{
		"See [the advisory](https://github.com/vitejs/vite/security) first.": "See [the advisory]( ) first.",
		"Served at http://localhost:5173/ and https://x.dev?a=1#b.":          "Served at   and  ",
		"No address here: a:b, c://":                                         "No address here: a:b,  ",
	} {
		if got := withoutURLs(in); got != want {
			t.Errorf("withoutURLs(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestShownQuotesTheNextCase: a section that is not the best quotes, after
// a chosen list item, the next item of its list when it starts with the
// same words (the next case of one rule); not an item that starts
// otherwise.
func TestShownQuotesTheNextCase(t *testing.T) {
	q := NewQuestion("must a cookie named __Host- be secure?")
	lines := []string{
		"## Best practices",
		"The helper throws when:",
		"- The cookie name starts with `__Host-`, but `secure` is not set.",
		"- The cookie name starts with `__Host-`, but `path` is not `/`.",
		"- A partitioned cookie is not secure.",
	}
	got := q.Shown(lines, 1, 5, 1, nil, map[int]bool{})
	if !slices.Contains(got, 3) || !slices.Contains(got, 4) {
		t.Errorf("Shown = %v, want line 3 and the next case, line 4", got)
	}
	if slices.Contains(got, 5) {
		t.Errorf("Shown = %v: line 5 starts otherwise, it is no case of line 3's rule", got)
	}
	if parallelItems(lines[3], lines[4]) || parallelItems("- a b", "- a b") || !parallelItems("* a b c d", "* a b c e") {
		t.Error("parallelItems: want items of one list sharing their first three words, and only those")
	}
}

// A code line that only opens a construct (a tag's name, a line ending in
// an opening bracket) is not what a line announces: it says nothing, as a
// bracket alone does.
func TestShownSkipsAnOpeningLineForTheAnnouncedLine(t *testing.T) {
	q := NewQuestion("how do I pass custom properties to a slider component?")
	lines := []string{
		"You can pass custom properties to components:", // 1
		"```svelte",                 // 2
		"<Slider",                   // 3
		"\t--track-color=\"black\"", // 4
		"/>",                        // 5
		"```",                       // 6
	}
	if got := q.Shown(lines, 1, 6, 1, nil, map[int]bool{}); !slices.Equal(got, []int{1, 4}) {
		t.Errorf("Shown = %v, want line 1 and line 4, not the opening tag of line 3", got)
	}
	for _, c := range []struct {
		line  string
		opens bool
	}{{"<Slider", true}, {"export default {", true}, {"defineConfig({", true}, {"items: [", true},
		{"<Slider value={1} />", false}, {"npm i hono", false}, {"<div>", false}, {"foo: 1,", false}} {
		if got := opensConstruct(c.line); got != c.opens {
			t.Errorf("opensConstruct(%q) = %v, want %v", c.line, got, c.opens)
		}
	}
}

// Container markup alone on a line says nothing: what a line announces is
// the content past it, in any of the doc tools' syntaxes, while a line with
// words of its own is not markup.
func TestIsMarkup(t *testing.T) {
	for _, line := range []string{
		"::: code-group", ":::", ":::incorrect", `<Tabs groupId="package-manager">`, `<TabItem value="npm">`,
		"</TabItem>", "</Tabs>", "{{< code-toggle file=hugo >}}", "{{< /code-toggle >}}", "{{% note %}}",
		`!!! warning "Deprecated"`, `=== "npm"`, "> [!NOTE]",
	} {
		if !isMarkup(line) {
			t.Errorf("isMarkup(%q) = false, want true", line)
		}
	}
	for _, line := range []string{
		"> [!NOTE] `$derived` is given an expression, _not_ a function.", "<script setup>", `<div class="container">`,
		"{{< param a >}} and {{< param b >}}", "Set `strict` to `true`:", "<Tabs> wrap the install commands.",
	} {
		if isMarkup(line) {
			t.Errorf("isMarkup(%q) = true, want false", line)
		}
	}
}

// MDX tabs (Docusaurus's <Tabs> and <TabItem>) are passed as a container
// is: the install command is what "install it with:" announces.
func TestShownLooksPastMDXTabs(t *testing.T) {
	q := NewQuestion("how do I install lefthook?")
	lines := []string{
		"Install lefthook with:",           // 1
		`<Tabs groupId="package-manager">`, // 2
		`<TabItem value="npm">`,            // 3
		"",                                 // 4
		"```bash",                          // 5
		"npm install --save-dev lefthook",  // 6
		"```",                              // 7
		"</TabItem>",                       // 8
	}
	got := q.Shown(lines, 1, 8, 1, nil, map[int]bool{})
	if !slices.Equal(got, []int{1, 6}) {
		t.Errorf("Shown = %v, want the announcing line 1 and the npm command, 6", got)
	}
	got = q.ShownFollowed(lines, 1, 8, 1, nil, map[int]bool{})
	if slices.Contains(got, 2) || slices.Contains(got, 3) {
		t.Errorf("ShownFollowed = %v: a tab's tag is no line to quote after line 1", got)
	}
}

// In the best section, a chosen code line is quoted with the prose line
// that introduces its block, when that line ends with a colon and holds a
// word of the question: the example's point, said in words.
func TestShownFollowedQuotesTheLineIntroducingCode(t *testing.T) {
	q := NewQuestion(`An element has both style:color="red" and style="color: blue !important". Which color wins?`)
	lines := []string{
		"When `style:` directives are combined with `style` attributes, the directives will take precedence,", // 1
		"even over `!important` properties:", // 2
		"",                                   // 3
		"```svelte",                          // 4
		`<div style:color="red" style="color: blue">This will be red</div>`,                  // 5
		`<div style:color="red" style="color: blue !important">This will still be red</div>`, // 6
		"```", // 7
	}
	got := q.ShownFollowed(lines, 1, 7, 1, nil, map[int]bool{})
	if !slices.Contains(got, 2) {
		t.Errorf("ShownFollowed = %v, want line 2, which introduces the code line chosen", got)
	}
	if got := q.Shown(lines, 1, 7, 1, nil, map[int]bool{}); slices.Contains(got, 2) {
		t.Errorf("Shown = %v: a section other than the best quotes no introducing line", got)
	}
	plain := slices.Clone(lines)
	plain[1] = "even over the properties that are marked important."
	if got := introducingLine(plain, 6, 1, codeBlocks(plain, 1, 7)); got != 0 {
		t.Errorf("introducingLine = %d, want 0: line 2 does not end with a colon", got)
	}
	if got := introducingLine(lines, 2, 1, codeBlocks(lines, 1, 7)); got != 0 {
		t.Errorf("introducingLine(2) = %d, want 0: line 2 is not code", got)
	}
}

// A line whose last sentence points on to an example ("The following is
// an example that uses the option.") introduces its code as a colon does,
// and introduces the block right after that one too (an example's second
// file); a wrapped sentence's middle, or "for example" inside a sentence,
// does not.
func TestIntroducingLinePointsOnToAnExample(t *testing.T) {
	lines := []string{
		"`createFactory()` can receive the `initApp` option to initialize an `app`. The following is an example that uses the option.", // 1
		"",                                      // 2
		"```ts",                                 // 3
		"export default createFactory({",        // 4
		"```",                                   // 5
		"",                                      // 6
		"```ts",                                 // 7
		"const app = factoryWithDB.createApp()", // 8
		"```",                                   // 9
	}
	block := codeBlocks(lines, 1, 9)
	if got := introducingLine(lines, 4, 1, block); got != 1 {
		t.Errorf("introducingLine(4) = %d, want 1", got)
	}
	if got := introducingLine(lines, 8, 1, block); got != 1 {
		t.Errorf("introducingLine(8) = %d, want 1: the block right above is introduced by the same line", got)
	}
	for _, intro := range []string{
		"The values are strings, for example `\"true\"` or `\"false\"`, so that PHP does not convert them.",
		"so that the example below", // a wrapped sentence, cut
		"Prettier formats the file.",
	} {
		other := slices.Clone(lines)
		other[0] = intro
		if got := introducingLine(other, 4, 1, codeBlocks(other, 1, 9)); got != 0 {
			t.Errorf("introducingLine(4) after %q = %d, want 0", intro, got)
		}
	}
}

// A code line's block is closed by the prose line right after it, past
// the closing tags of its tab and the same example in the other tabs: what
// the example shows, said in words. A heading, a table row, another
// example's introduction (a colon) or a line too far down closes nothing.
func TestCodeClosingLine(t *testing.T) {
	lines := []string{
		"<div class=\"composition-api\">", // 1
		"",                                // 2
		"```js",                           // 3
		"emit('response', 'hello')",       // 4
		"```",                             // 5
		"",                                // 6
		"</div>",                          // 7
		"<div class=\"options-api\">",     // 8
		"",                                // 9
		"```js",                           // 10
		"this.$emit('response', 'hello')", // 11
		"```",                             // 12
		"",                                // 13
		"</div>",                          // 14
		"",                                // 15
		"Any additional arguments are passed on to the event listener.", // 16
	}
	block := codeBlocks(lines, 1, 16)
	for _, l := range []int{4, 11} {
		if got := codeClosingLine(lines, l, 16, block); got != 16 {
			t.Errorf("codeClosingLine(%d) = %d, want 16", l, got)
		}
	}
	if got := codeClosingLine(lines, 16, 16, block); got != 0 {
		t.Errorf("codeClosingLine(16) = %d, want 0 for a prose line", got)
	}
	for _, after := range []string{"## Options", "| a | b |", "Or add the following to your `package.json`:"} {
		other := slices.Clone(lines)
		other[15] = after
		if got := codeClosingLine(other, 11, 16, codeBlocks(other, 1, 16)); got != 0 {
			t.Errorf("codeClosingLine(11) before %q = %d, want 0", after, got)
		}
	}
	far := append(slices.Clone(lines[:12]), "", "", "", "", "Too far.")
	if got := codeClosingLine(far, 11, 17, codeBlocks(far, 1, 17)); got != 0 {
		t.Errorf("codeClosingLine(11) = %d, want 0 past three lines", got)
	}
}

// In the best section, a chosen code line is quoted with the prose line
// right after its block when that line holds a word asked.
func TestShownFollowedQuotesTheLineClosingACodeBlock(t *testing.T) {
	q := NewQuestion("How does defineCacheKeyGenerator skip a module?")
	lines := []string{
		"# Plugin", // 1
		"",         // 2
		"```ts",    // 3
		"defineCacheKeyGenerator((module) => skip(module))", // 4
		"})",  // 5
		"```", // 6
		"",    // 7
		"If `false` is returned, the module will not be cached.", // 8
	}
	got := q.ShownFollowed(lines, 1, 8, 1, nil, map[int]bool{})
	if !slices.Contains(got, 8) {
		t.Errorf("ShownFollowed = %v, want line 8 (the prose closing the chosen code's block) among them", got)
	}
}

// In the best section, a chosen list item is quoted with the prose line
// that closes its list, what holds for every item ("All are readonly.").
func TestShownFollowedQuotesTheLineClosingAList(t *testing.T) {
	q := NewQuestion("Can I assign to activeElement or fullscreenElement through a bind: on <svelte:document>?")
	lines := []string{
		"You can also bind to the following properties:", // 1
		"",                       // 2
		"- `activeElement`",      // 3
		"- `fullscreenElement`",  // 4
		"- `pointerLockElement`", // 5
		"- `visibilityState`",    // 6
		"",                       // 7
		"All are readonly.",      // 8
		"",                       // 9
		"## Next",                // 10
	}
	got := q.ShownFollowed(lines, 1, 10, 2, nil, map[int]bool{})
	if !slices.Contains(got, 8) {
		t.Errorf("ShownFollowed = %v, want line 8, which closes the list of the chosen items", got)
	}
	if got := q.Shown(lines, 1, 10, 2, nil, map[int]bool{}); slices.Contains(got, 8) {
		t.Errorf("Shown = %v: a section other than the best quotes no closing line", got)
	}
	for _, c := range []struct {
		line string
		want int
	}{
		{"All are readonly.", 8},
		{"## Readonly", 0},
		{"The following are readonly:", 0},
		{"- `documentElement`", 0},
	} {
		ls := slices.Clone(lines)
		ls[7] = c.line
		if got := listClosingLine(ls, 4, 10, codeBlocks(ls, 1, 10)); got != c.want {
			t.Errorf("listClosingLine with line 8 %q = %d, want %d", c.line, got, c.want)
		}
	}
	if got := listClosingLine(lines, 1, 10, codeBlocks(lines, 1, 10)); got != 0 {
		t.Errorf("listClosingLine(1) = %d, want 0: line 1 is no item", got)
	}
}

// TestOpeningLine: a doc's opening line is quoted with its best section
// when it answers at least half as well as the section's best line, and
// not when it only names the doc's topic or is shown already.
func TestOpeningLine(t *testing.T) {
	doc := []string{
		"`tool install` installs the dependencies of a project.",      // 1
		"In CI, the install fails when the lockfile needs an update.", // 2
		"",                     // 3
		"## --frozen-lockfile", // 4
		"",                     // 5
		"When set, the lockfile is never written, and the install fails when it is out of date.", // 6
	}
	q := NewQuestion("why does the install fail in CI when the lockfile is out of date?")
	if got := q.OpeningLine(doc, 1, 3, 4, 6, map[int]bool{}); got != 2 {
		t.Errorf("opening line %d, want L2 (the CI line)", got)
	}
	if got := q.OpeningLine(doc, 1, 3, 4, 6, map[int]bool{2: true}); got != 0 {
		t.Errorf("opening line %d with L2 shown, want none (L1 only names the topic)", got)
	}
	weak := NewQuestion("is the lockfile written when frozen-lockfile is set and it is out of date?")
	if got := weak.OpeningLine(doc, 1, 3, 4, 6, map[int]bool{}); got != 0 {
		t.Errorf("opening line %d for a question its best section answers, want none", got)
	}
}

// TestElsewhereLine: the doc's line that answers better than the first
// passage's best, outside the sections quoted, is quoted with it; a line
// inside a quoted section, or one answering no better, is not.
func TestElsewhereLine(t *testing.T) {
	doc := []string{
		"# Mainframes",     // 1
		"",                 // 2
		"## Architectures", // 3
		"Mainframe workloads join a hybrid system.", // 4
		"",            // 5
		"## Audience", // 6
		"Readers who bring mainframe workloads into observability.", // 7
		"",                // 8
		"## How it helps", // 9
		"With mainframe workloads, the Collector usually runs off-platform.", // 10
	}
	q := NewQuestion("where does the Collector usually run for mainframe workloads?")
	quoted := func(from, to int) func(int) bool {
		return func(l int) bool { return from <= l && l <= to }
	}
	if got := q.ElsewhereLine(doc, 1, len(doc), 3, 5, quoted(3, 8), ElsewhereShare(2, 5)); got != 10 {
		t.Errorf("elsewhere line %d, want L10 (the Collector's line)", got)
	}
	if got := q.ElsewhereLine(doc, 1, len(doc), 3, 5, quoted(3, 10), ElsewhereShare(2, 5)); got != 0 {
		t.Errorf("elsewhere line %d with every section quoted, want none", got)
	}
	topic := NewQuestion("what are mainframe workloads?")
	if got := topic.ElsewhereLine(doc, 1, len(doc), 3, 5, quoted(3, 5), ElsewhereShare(1, 1)); got != 0 {
		t.Errorf("elsewhere line %d for a question the first section answers as well, want none", got)
	}
	if ElsewhereShare(2, 5) != ElsewhereShare(1, 1) || ElsewhereShare(1, 5) <= ElsewhereShare(2, 5) {
		t.Errorf("ElsewhereShare: two passages of five %.2f, the lone one %.2f, one of five %.2f: want the same for the first two, more for one of several",
			ElsewhereShare(2, 5), ElsewhereShare(1, 1), ElsewhereShare(1, 5))
	}
}

// TestShownFollowedQuotesTheLabelledDefault: an option's section states
// its default on a "Default:" line that shares no word with a question
// asking for a value; every section quotes it.
func TestShownFollowedQuotesTheLabelledDefault(t *testing.T) {
	doc := []string{
		"## coverageReporters [array<string>]", // 1
		"",                                     // 2
		"Default: `[\"clover\", \"json\", \"lcov\", \"text\"]`", // 3
		"", // 4
		"A list of reporter names that Jest uses when writing coverage reports.", // 5
		"", // 6
		"Setting this option overwrites the default values of the coverage reporters.", // 7
		"", // 8
		"Any istanbul reporter can be used for coverage.", // 9
	}
	q := NewQuestion("Which coverage report formats does Jest write when I don't configure any reporters?")
	if got := q.ShownFollowed(doc, 1, 9, 1, nil, map[int]bool{}); !slices.Contains(got, 3) {
		t.Errorf("ShownFollowed = %v, want the Default: line 3 among them", got)
	}
	if got := q.Shown(doc, 1, 9, 1, nil, map[int]bool{}); !slices.Contains(got, 3) {
		t.Errorf("Shown = %v, want the Default: line 3: a later section quotes it too", got)
	}
	how := NewQuestion("why does Jest write coverage reports?")
	if got := how.Shown(doc, 1, 9, 1, nil, map[int]bool{}); slices.Contains(got, 3) {
		t.Errorf("Shown = %v: a question asking no value is not given the Default: line", got)
	}
	for line, want := range map[string]bool{"- **Default:** `true`": true, "Default value: 3": true, "| Default | `x` |": false, "defaults apply": false} {
		if got := labelledDefaultLine([]string{line}, 1, 1, nil) == 1; got != want {
			t.Errorf("labelledDefaultLine(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestShownFollowsAWrappedSentence: in hard-wrapped prose, a followed line
// that stops mid-sentence is quoted to the end of its sentence, and a
// sentence whose wrapped end announces a list ("note" / "that:") is
// quoted with the list's first item.
func TestShownFollowsAWrappedSentence(t *testing.T) {
	doc := []string{
		"## Internal logging", // 1
		"",                    // 2
		"By default, log messages are handled by the root handler. If you have",   // 3
		"not installed a custom root handler for your application, logs of level", // 4
		"`INFO` or higher are sent to the console by default.",                    // 5
		"", // 6
		"When you use the exporter in a browser-based application, you need to note", // 7
		"that:", // 8
		"",      // 9
		"1. Using gRPC for exporting is not supported",          // 10
		"2. Content Security Policies might block your exports", // 11
	}
	q := NewQuestion("Where do the internal log messages of the handler go by default?")
	if got := q.ShownFollowed(doc, 1, 11, 1, nil, map[int]bool{}); !slices.Contains(got, 5) {
		t.Errorf("ShownFollowed = %v, want line 5, the end of line 4's sentence", got)
	}
	b := NewQuestion("Can a browser application use the gRPC exporter?")
	if got := b.Shown(doc, 7, 11, 1, nil, map[int]bool{}); !slices.Contains(got, 10) {
		t.Errorf("Shown = %v, want line 10, announced by line 7's sentence ending in line 8", got)
	}
	if got := sentenceEnd(doc, 5, 11, nil); got != 0 {
		t.Errorf("sentenceEnd(5) = %d, want 0: line 5 ends its sentence", got)
	}
	if got := sentenceEnd(doc, 10, 11, nil); got != 0 {
		t.Errorf("sentenceEnd(10) = %d, want 0: line 11 is a list item of its own", got)
	} // A followed line's sentence is quoted to its end, over several lines.
	long := []string{
		"This is a list of reported Common Vulnerabilities and Exposures (CVEs) across", // 1
		"all repositories in the", // 2
		"[OpenTelemetry organization on GitHub](https://github.com/open-telemetry/). The", // 3
		"raw data is stored in the", // 4
		"[sig-security](https://github.com/open-telemetry/sig-security) repository, and", // 5
		"it is refreshed daily.",   // 6
		"",                         // 7
		"Other text follows here.", // 8
	}
	c := NewQuestion("Which CVEs across repositories are listed?")
	if got := c.ShownFollowed(long, 1, 8, 2, nil, map[int]bool{}); !slices.Contains(got, 6) || slices.Contains(got, 8) {
		t.Errorf("ShownFollowed = %v, want line 6, the end of the sentence line 2 carries on, and not line 8, the next sentence, which holds no word of the question", got)
	}
	// The next list item after a wrapped item, to its end.
	items := []string{
		"- Unavailability: If the endpoint becomes unavailable, the exporter", // 1
		"  adds the data to the in-memory queue.",                             // 2
		"- Retry Mechanism: The Collector employs a retry mechanism with",     // 3
		"  exponential backoff. It attempts to send the data again after",     // 4
		"  waiting intervals. By default, it retries for up to 5 minutes.",    // 5
		"- Data Loss Scenario:", // 6
	}
	r := NewQuestion("When the endpoint is unavailable, what does the exporter do with the data?")
	if got := r.ShownFollowed(items, 1, 6, 1, nil, map[int]bool{}); !slices.Equal(got, []int{1, 2, 3, 4, 5}) {
		t.Errorf("ShownFollowed = %v, want [1 2 3 4 5]: the wrapped item and the next one to its end", got)
	}
	// A paragraph wrapped with no full stop is not quoted whole: at most
	// maxFollowedShare lines a place.
	para := strings.Split("alpha bravo\ndelta echo\nfoxtrot golf\nhotel india\njuliet kilo\nlima mike\nnovember oscar", "\n")
	if got := NewQuestion("alpha").ShownFollowed(para, 1, 7, 1, nil, map[int]bool{}); len(got) > maxFollowedShare {
		t.Errorf("ShownFollowed = %v: more than %d lines for one place", got, maxFollowedShare)
	}
}

// TestShownQuotesTheValuesNestedUnderALabel: a "Default:" label with no
// value of its own is quoted with the list nested under it, where its
// value is.
func TestShownQuotesTheValuesNestedUnderALabel(t *testing.T) {
	doc := []string{
		"# maxWorkers",                  // 1
		"",                              // 2
		"- **Type:** `number | string`", // 3
		"- **Default:**",                // 4
		"  - if `watch` is disabled, uses all available parallelism",        // 5
		"  - if `watch` is enabled, uses half of all available parallelism", // 6
		"", // 7
		"Defines the maximum concurrency for test workers.", // 8
	}
	q := NewQuestion("How many workers does it use by default in watch mode?")
	got := q.Shown(doc, 1, 8, 1, nil, map[int]bool{})
	for _, want := range []int{4, 5, 6} {
		if !slices.Contains(got, want) {
			t.Errorf("Shown = %v, want line %d among them", got, want)
		}
	}
	if got := nestedValues(doc, 3, 8); got != nil {
		t.Errorf("nestedValues(3) = %v, want none: the Type: label has its value", got)
	}
}

// TestShownFollowedQuotesTheSentenceStart: in hard-wrapped prose, a chosen
// line of the best section that continues a sentence is quoted with the
// line that starts it; another section's is not.
func TestShownFollowedQuotesTheSentenceStart(t *testing.T) {
	doc := []string{
		"### Could not install package", // 1
		"",                              // 2
		"The NuGet packages don't support old-style `csproj` projects. Either deploy the", // 3
		"automatic instrumentation to the machine instead of using NuGet packages, or",    // 4
		"migrate your project to the SDK style `csproj`.",                                 // 5
	}
	q := NewQuestion("How do I deploy the automatic instrumentation to the machine?")
	if got := q.ShownFollowed(doc, 1, 5, 1, nil, map[int]bool{}); !slices.Contains(got, 3) {
		t.Errorf("ShownFollowed = %v, want line 3, where line 4's sentence starts", got)
	}
	if got := q.Shown(doc, 1, 5, 1, nil, map[int]bool{}); slices.Contains(got, 3) {
		t.Errorf("Shown = %v: a section after the best does not add the sentence's start", got)
	}
	if got := sentenceStart(doc, 3, 1, nil); got != 0 {
		t.Errorf("sentenceStart(3) = %d, want 0: line 3 starts in upper case", got)
	}
	// A continuation may open with a bracket or a code span before its
	// first lower-case word.
	paren := []string{
		"Note how the Operator removes any existing service discovery configurations", // 1
		"(e.g., `static_configs`, `file_sd_configs`, etc.) from the `scrape_configs`", // 2
		"`INFO` or higher are sent to the console.",                                   // 3
	}
	if got := sentenceStart(paren, 2, 1, nil); got != 1 {
		t.Errorf("sentenceStart(2) = %d, want 1: line 2 opens with a bracket and carries line 1's sentence on", got)
	}
	if got := sentenceStart(paren, 3, 1, nil); got != 0 {
		t.Errorf("sentenceStart(3) = %d, want 0: after its code span, line 3 starts in upper case", got)
	}
}

// TestCaveatLinesAnswerADownside: a question asking for a downside is
// answered by the line that advises against the choice ("not recommended
// as it's performance heavy"), before one that only shares its words.
func TestCaveatLinesAnswerADownside(t *testing.T) {
	section := []string{
		"## trace", // 1
		"Capture a trace of your browser test runs with the trace viewer.",                    // 2
		"- `'on'` - capture trace for all tests. (not recommended as it's performance heavy)", // 3
	}
	q := NewQuestion("Should I record a browser trace for every test, or is there a downside?")
	if got := q.Lines(section, 1, 3, 1); len(got) == 0 || got[0].Line != 3 {
		t.Errorf("lines %v, want line 3, the one advising against it", got)
	}
	for line, want := range map[string]bool{"This is discouraged in CI.": true, "Avoid it in large repos.": true, "It captures a trace.": false} {
		if got := statesCaveat(line); got != want {
			t.Errorf("statesCaveat(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestKeyedRowsAnswerAValue: a table row keyed by the word whose value is
// asked ("| version: | ... | `1.0.0` |") is chosen before prose that
// shares more of the question's other words.
func TestKeyedRowsAnswerAValue(t *testing.T) {
	section := []string{
		"The `dist` section of the manifest holds the options of your build.",  // 1
		"| field | description | default |",                                    // 2
		"| --- | --- | --- |",                                                  // 3
		"| name: | The binary name for your distribution | `otelcol-custom` |", // 4
		"| version: | The version for your custom build | `1.0.0` |",           // 5
	}
	q := NewQuestion("What version does my custom Collector get when the dist section of the builder manifest does not set one?")
	if got := q.Lines(section, 1, 5, 1); len(got) == 0 || got[0].Line != 5 {
		t.Errorf("lines %v, want line 5 first, the row keyed by version", got)
	}
	for line, want := range map[string]bool{
		"| version: | The version | `1.0.0` |":       true,
		"- **Version**: 1.0.0":                       true,
		"- `version` — the build's version":          true,
		"123. version: 1.0.0":                        true,
		"| description | the version of the build |": false,
		"The version is 1.0.0.":                      false,
	} {
		if got := q.keyedByTerm(line); got != want {
			t.Errorf("keyedByTerm(%q) = %v, want %v", line, got, want)
		}
	}
}

// The same long command in each tab of a section (npm, bun, deno) is
// quoted once, and the place it would take again goes to the next best
// line; a short line repeated (`@plugin "daisyui" {` opening another
// block) is not passed over.
func TestShownPassesOverARepeatedLongLine(t *testing.T) {
	q := NewQuestion("with git-format-staged as the prettier pre-commit hook, what happens when staged changes conflict?")
	lines := []string{
		"## git-format-staged",
		"1. Changes in commits are always formatted.",
		"2. If staged changes conflict, your working tree files are left untouched.",
		"```bash",
		`node --eval "fs.writeFileSync('.husky/pre-commit', 'git-format-staged -f prettier --stdin')"`,
		"```",
		"```bash",
		`bun --eval "fs.writeFileSync('.husky/pre-commit', 'git-format-staged -f prettier --stdin')"`,
		"```",
	}
	got := q.Shown(lines, 1, len(lines), 2, nil, map[int]bool{})
	if slices.Contains(got, 5) && slices.Contains(got, 8) {
		t.Errorf("Shown = %v: lines 5 and 8 read the same, want one of them", got)
	}
	if !slices.Contains(got, 3) {
		t.Errorf("Shown = %v, want line 3, the one that answers", got)
	}
	short := []string{"```css", `@plugin "daisyui" {`, "```", "```css", `@plugin "daisyui" {`, "```"}
	if repeatsChosen(short, []int{2}, 5) {
		t.Error("repeatsChosen: a short line repeated is another block's opening, want it kept")
	}
	if !repeatsChosen(lines, []int{5}, 8) || repeatsChosen(lines, []int{5}, 3) {
		t.Error("repeatsChosen: want the bun line to repeat the node line, and line 3 not to")
	}
}

// TestShownProseFollowsInCodesPlace: in a section after the best, the
// place a code line takes unquoted goes to the line after a chosen prose
// line when that holds a word asked ("If the component is not found, ...
// the name string is returned" after "`resolveComponent()` must be called
// inside ..."); a line that is only a link is passed over.
func TestShownProseFollowsInCodesPlace(t *testing.T) {
	lines := []string{
		"## resolveComponent()",
		"",
		"```ts",
		"function resolveComponent(name: string): Component | string",
		"```",
		"",
		"`resolveComponent()` must be called inside setup() to resolve a registered component.",
		"",
		"If it is not found, a warning is emitted and the name string comes back.",
		"",
		"[registered components](https://example.com/registered-resolve-component)",
	}
	q := NewQuestion("What does resolveComponent() return when nothing is registered under the name?")
	got := q.ShownProse(lines, 1, len(lines), 2, nil, map[int]bool{})
	if !slices.Contains(got, 9) || slices.Contains(got, 4) || slices.Contains(got, 11) {
		t.Errorf("ShownProse = %v, want line 9 (after the chosen prose line, in the code line's place), not the code line 4 nor the link line 11", got)
	}
	if !linkOnly("[exporter package](https://pypi.org/x)") || !linkOnly("- [a](b), [c](d).") || linkOnly("See [the guide](x) for more.") || linkOnly("plain text") {
		t.Error("linkOnly: want true for a line of links alone, false for a line with words of its own")
	}
}

func TestAskedKindAtASentencesEnd(t *testing.T) {
	if !asksForCaveat("I pass a variable to new Worker(url) and Vite doesn't bundle it. Why?") {
		t.Error("a closing \"Why?\" should ask for a reason")
	}
	if asksForValue("If I run pnpm owner with just a package name, what does it do?") {
		t.Error("\"what does it do?\" asks for a behaviour, not a value")
	}
}

// A quoted line that is only part of a statement is quoted with the
// neighbour that completes it: an introducing line that continues a
// wrapped sentence with the line that starts it (in the best section),
// an announced list's first item with the next one when as short, and a
// heading chosen in a later section gives its place to the line under it.
func TestShownQuotesTheNeighbourThatCompletesALine(t *testing.T) {
	q := NewQuestion(`An element has both style:color="red" and style="color: blue !important". Which color wins?`)
	wrapped := []string{
		"When `style:` directives are combined with `style` attributes, the directives will take precedence,", // 1
		"even over `!important` properties:", // 2
		"",                                   // 3
		"```svelte",                          // 4
		`<div style:color="red" style="color: blue !important">This will still be red</div>`, // 5
		"```", // 6
	}
	if got := q.ShownFollowed(wrapped, 1, 6, 1, nil, map[int]bool{}); !slices.Contains(got, 1) || !slices.Contains(got, 2) {
		t.Errorf("ShownFollowed = %v, want the introducing line 2 and line 1, which starts its sentence", got)
	}
	announced := []string{
		"When `update` is `false` (the default), Vitest resolves snapshot update mode by environment:", // 1
		"", // 2
		"- Local runs (non-CI): works same as `new`",                   // 3
		"- CI runs (`process.env.CI` is truthy): works same as `none`", // 4
		"- Anything else: see below",                                   // 5
	}
	q = NewQuestion("how does vitest resolve the snapshot update mode by default?")
	if got := q.Shown(announced, 1, 5, 1, nil, map[int]bool{}); !slices.Equal(got, []int{1, 3, 4}) {
		t.Errorf("Shown = %v, want [1 3 4]: the announced list's first two items", got)
	}
	heading := []string{
		"#### Skeleton rules", // 1
		"",                    // 2
		"- Add `h-*` and `w-*` utility classes to set height and width", // 3
	}
	q = NewQuestion("what are the skeleton rules?")
	if got := q.Shown(heading, 1, 3, 1, nil, map[int]bool{}); !slices.Equal(got, []int{3}) {
		t.Errorf("Shown = %v, want [3]: the line under the chosen heading, in its place", got)
	}
	if got := q.ShownFollowed(heading, 1, 3, 1, nil, map[int]bool{}); !slices.Equal(got, []int{1, 3}) {
		t.Errorf("ShownFollowed = %v, want [1 3]: the best section quotes a heading with the line after it", got)
	}
}

// A Hugo shortcode's name and keys are markup: a line is read by what the
// shortcode quotes (the option it names), not by `config_option`, `name`,
// `tabpane` or `text=true`.
func TestWithoutShortcodes(t *testing.T) {
	for line, want := range map[string][]string{
		`{{% config_option name="otel.javaagent.enabled" %}} Set to`: {"otel", "javaagent", "enabl", "set", "to"},
		`{{< tabpane text=true >}}`:                                  nil,
		`{{% /config_option %}}`:                                     nil,
		`See {{% include "span-status.md" %}} here`:                  {"see", "span", "statu", "md", "here"},
		`{{ .Site.Title }} stays`:                                    {"site", "titl", "stay"},
	} {
		if got := lineTerms(line); !slices.Equal(got, want) {
			t.Errorf("lineTerms(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestWindowWithinNumber: for a question asking how much, a long line is
// cut where a number stands among the question's words, not where more of
// its words meet without one; "much" itself is no word to meet.
func TestWindowWithinNumber(t *testing.T) {
	line := "When building custom elements with Vue, the elements will rely on Vue's runtime. There is a ~16kb baseline size cost. " +
		"This means it is not ideal to use Vue for a single custom element. However, the base size is justifiable if you are shipping " +
		"a collection of custom elements, as Vue will allow each component to be authored with much less code."
	q := NewQuestion("Roughly how much bundle size does the Vue runtime add when I ship components as custom elements?")
	from, to, ok := q.WindowWithin(line, 120)
	if !ok || !strings.Contains(line[from:to], "16kb") {
		t.Errorf("window %q, want the one holding ~16kb", line[from:to])
	}
	// Asked for no quantity, the window is where most words meet.
	q = NewQuestion("does the Vue runtime size matter when I ship components as custom elements?")
	if from, to, ok := q.WindowWithin(line, 120); !ok || strings.Contains(line[from:to], "16kb") {
		t.Errorf("window %q, want the one without the number: more of the question's words", line[from:to])
	}
}

// TestParallelKeyedItems: two items of a keyed list (an option's name in
// a code span or bold, then a description opening alike) are parallel
// cases; two keys whose descriptions open differently, or two items not
// keyed, are not.
func TestParallelKeyedItems(t *testing.T) {
	a := "- **`maxDepth`** - Maximum depth to print nested elements (default: `Infinity`)"
	b := "- **`maxLength`** - Maximum length of the output string (default: `7000`)"
	if !parallelItems(a, b) {
		t.Error("parallelItems: want two keyed items whose descriptions open alike")
	}
	if parallelItems(a, "- **`filterNode`** - A CSS selector string or function") {
		t.Error("parallelItems: a description opening otherwise is another case")
	}
	if parallelItems("- maxDepth - Maximum depth", "- maxLength - Maximum length") {
		t.Error("parallelItems: items whose first words are not keys are not keyed")
	}
}

// TestHTMLCommentNotQuoted: an HTML comment alone on its line (a note to
// the docs' editors) is neither chosen nor quoted as the line that
// follows a chosen one; the line past it is.
func TestHTMLCommentNotQuoted(t *testing.T) {
	lines := []string{
		"### `--style-props` uses a different element",
		"",
		"Svelte 5 uses an extra `<svelte-css-wrapper>` element to wrap the component when using CSS custom properties.",
		"",
		"<!-- TODO in final docs, add link to the css custom properties section -->",
		"",
		"It will affect CSS selectors that use the `>` combinator.",
	}
	q := NewQuestion("does passing css custom properties to a component add a wrapper element?")
	got := q.ShownFollowed(lines, 1, 7, 2, nil, map[int]bool{})
	if slices.Contains(got, 5) || !slices.Contains(got, 7) {
		t.Errorf("ShownFollowed = %v, want line 7 and not the comment on line 5", got)
	}
	if got := q.ShownProse(lines, 1, 7, 3, nil, map[int]bool{}); slices.Contains(got, 5) {
		t.Errorf("ShownProse = %v, want no comment line", got)
	}
}

// TestALineInANoteIsChosen: asked yes or no, a line inside a callout (a
// blockquote, a `::: tip` container) is chosen before prose sharing as
// many of the question's words; so it is when the question names a case.
func TestALineInANoteIsChosen(t *testing.T) {
	section := []string{
		"## Custom properties", // 1
		"Custom properties passed to a component are set on a wrapper element.", // 2
		"", // 3
		"> [!NOTE] The wrapper element affects selectors of a component's CSS children.", // 4
	}
	q := NewQuestion("Can custom properties passed to a component affect its CSS selectors?")
	if got := q.Best(section, 1, len(section), 1); !slices.Equal(got, []int{4}) {
		t.Errorf("Best = %v, want [4] (the note)", got)
	}
	// A question naming a case (if, unless) is answered by a note too: the
	// note states the case apart.
	cases := []string{
		"## Await", // 1
		"An await block renders the branch for the value I give it.", // 2
		"", // 3
		"> A plain value renders only the then branch of the block.", // 4
	}
	q = NewQuestion("Which branch renders if I give an await block a plain value?")
	if got := q.Best(cases, 1, len(cases), 1); !slices.Equal(got, []int{4}) {
		t.Errorf("Best = %v, want [4] (the note, for a case asked)", got)
	}
	got := calloutLines([]string{"text", "::: tip", "inside", ":::", ":::incorrect", "code", ":::", "> quoted"}, 1, 8)
	if want := []bool{false, false, true, false, false, false, false, true}; !slices.Equal(got, want) {
		t.Errorf("calloutLines = %v, want %v", got, want)
	}
}

// For a question asking a default, the doc's line that states one outside
// the quoted sections is quoted with the first passage when it answers
// half as well as the passage's best line: an option's own section says
// what the command does unless the option is given.
// (A share of +Inf leaves ElsewhereLine its default line only.)
func TestDefaultElsewhere(t *testing.T) {
	doc := []string{
		"## Commands",                                  // 1
		"### set <key> <value>",                        // 2
		"Set the config key to the value provided.",    // 3
		"## Options",                                   // 4
		"### --location",                               // 5
		"By default, `--location` is set to `global`.", // 6
		"When set to `project`, the setting goes to the project.", // 7
	}
	quoted := func(l int) bool { return l <= 3 }
	q := NewQuestion("When I run config set with no extra flags, is the value saved for the project?")
	if got := q.ElsewhereLine(doc, 1, len(doc), 2, 3, quoted, math.Inf(1)); got != 6 {
		t.Errorf("default elsewhere %d, want L6 (By default, ...)", got)
	}
	other := NewQuestion("When I run config set, is the value saved for the project?")
	if got := other.ElsewhereLine(doc, 1, len(doc), 2, 3, quoted, math.Inf(1)); got != 0 {
		t.Errorf("default elsewhere %d for a question asking no default, want none", got)
	}
	if got := q.ElsewhereLine(doc, 1, len(doc), 2, 3, func(int) bool { return true }, math.Inf(1)); got != 0 {
		t.Errorf("default elsewhere %d with every line quoted, want none", got)
	}
}

// TestLinesMeetAnIfyVerbsForms: "identify" in the question meets
// "identified" in the doc (and "identified" meets "identify") where lines
// are chosen, though Stem leaves them apart (identify, identif).
func TestLinesMeetAnIfyVerbsForms(t *testing.T) {
	section := []string{
		"## How a scope is defined",                      // 1
		"The scope name shows in the backend.",           // 2
		"A scope is identified by its name and version.", // 3
	}
	for _, question := range []string{"Which fields identify a scope?", "Which fields is a scope identified by?"} {
		if got := NewQuestion(question).Best(section, 1, len(section), 1); !slices.Equal(got, []int{3}) {
			t.Errorf("%q: Best = %v, want [3]", question, got)
		}
	}
	if Stem("identify") == Stem("identified") {
		t.Errorf("Stem meets identify and identified: the rule is the line scorer's alone")
	}
}

// TestShownQuotesAShortSentencesNextLine: in a section other than the
// best, a chosen line that is a short sentence alone ("Hono's API is
// simple.") is quoted with the next line of its paragraph, its next
// sentence; a long line, or one whose paragraph ends, is not.
func TestShownQuotesAShortSentencesNextLine(t *testing.T) {
	q := NewQuestion("What is Hono's API built from?")
	lines := []string{
		"# API",                 // 1
		"",                      // 2
		"Hono's API is simple.", // 3
		"Just composed by extended objects from Web Standards.", // 4
		"So, you can understand it well quickly.",               // 5
	}
	if got := q.ShownProse(lines, 1, len(lines), 1, nil, map[int]bool{}); !slices.Equal(got, []int{3, 4}) {
		t.Errorf("ShownProse = %v, want [3 4]", got)
	}
	lines[3] = "" // the paragraph ends
	if got := q.ShownProse(lines, 1, len(lines), 1, nil, map[int]bool{}); !slices.Equal(got, []int{3}) {
		t.Errorf("ShownProse with the paragraph ending = %v, want [3]", got)
	}
	lines[2], lines[3] = "Hono's API is simple, and it is built on the platform it runs on.", "Just composed by extended objects."
	if got := q.ShownProse(lines, 1, len(lines), 1, nil, map[int]bool{}); !slices.Equal(got, []int{3}) {
		t.Errorf("ShownProse after a long line = %v, want [3]", got)
	}
}
