package passage

import (
	"slices"
	"testing"
)

// CloseToBest: at least CloseShare of a positive best; nothing is close
// to a best of 0.
func TestCloseToBest(t *testing.T) {
	for _, c := range []struct {
		score, best float64
		want        bool
	}{
		{1, 1, true}, {CloseShare, 1, true}, {CloseShare - 0.01, 1, false}, {3, 4, true}, {2, 4, false}, {0, 0, false},
	} {
		if got := CloseToBest(c.score, c.best); got != c.want {
			t.Errorf("CloseToBest(%v, %v) = %v, want %v", c.score, c.best, got, c.want)
		}
	}
}

func TestCloseTo(t *testing.T) {
	for _, c := range []struct {
		score, best, share float64
		want               bool
	}{
		{0.5, 1, 0.5, true}, {0.49, 1, 0.5, false}, {2, 4, 0.5, true}, {0, 0, 0.5, false}, {1, 0, 0, false},
	} {
		if got := CloseTo(c.score, c.best, c.share); got != c.want {
			t.Errorf("CloseTo(%v, %v, %v) = %v, want %v", c.score, c.best, c.share, got, c.want)
		}
	}
}

// A section whose heading names its doc's limits (Notes, Known
// limitations, Differences from...) ranks higher for a question asking
// yes or no, or what happens, and only for such a question: "can I keep
// objects with the hook?" is answered under "## Notes", which shares none
// of its words.
func TestRankLimitsHeading(t *testing.T) {
	lines := []string{
		"## Usage",
		"Call the hook with a key to keep a value in storage.",
		"## Notes",
		"- The value is serialized to JSON when stored.",
		"## Known Limitations",
		"The hook keeps a value in storage per key.",
	}
	spans := []Span{{Doc: "d", Lines: lines, From: 1, To: 2}, {Doc: "d", Lines: lines, From: 3, To: 4}, {Doc: "d", Lines: lines, From: 5, To: 6}}
	index := []float64{1, 1, 0.85}
	yes := NewQuestion("can I keep objects with the hook in storage?")
	got := yes.Rank(spans, index)
	if !(got[1] > got[0] && got[2] > got[0]) {
		t.Errorf("yes-or-no question: Notes %.3f and Known Limitations %.3f should rank above Usage %.3f", got[1], got[2], got[0])
	}
	how := NewQuestion("how do I keep objects with the hook in storage?")
	got = how.Rank(spans, index)
	if got[1] >= got[0] {
		t.Errorf("how-to question: Notes %.3f should not pass Usage %.3f", got[1], got[0])
	}
	for h, want := range map[string]bool{"## Notes": true, "### Note on the i flag": true, "## Differences from `<Transition>`": true,
		"## Validation & Error Handling": true, "## Mocking Modules Pitfalls": true, "## Notable changes": false, "## Usage": false, "Notes": false} {
		if got := namesLimits(Span{Lines: []string{h}, From: 1, To: 1}); got != want {
			t.Errorf("namesLimits(%q) = %v, want %v", h, got, want)
		}
	}
}

// A section whose heading names what its doc's subject needs or runs on
// (Prerequisites, Requirements, Compatibility, Supported ...) ranks higher
// for a question asking for a minimum version or what a thing supports,
// and only for such a question.
func TestRankRequirementsHeading(t *testing.T) {
	lines := []string{
		"## Install the chart",
		"Add the chart's repository, then install the demo with Helm.",
		"## Prerequisites",
		"- Kubernetes 1.24+",
		"- Helm 3.14+ to install the demo",
	}
	spans := []Span{{Doc: "d", Lines: lines, From: 1, To: 2}, {Doc: "d", Lines: lines, From: 3, To: 5}}
	index := []float64{1, 0.9}
	need := NewQuestion("which version of Helm do I need to install the demo chart?")
	if got := need.Rank(spans, index); got[1] <= got[0] {
		t.Errorf("requirement question: Prerequisites %.3f should rank above Install %.3f", got[1], got[0])
	}
	how := NewQuestion("how do I install the demo chart with Helm?")
	if got := how.Rank(spans, index); got[1] >= got[0] {
		t.Errorf("how-to question: Prerequisites %.3f should not pass Install %.3f", got[1], got[0])
	}
	for q, want := range map[string]bool{"What is the oldest Android API level the agent supports?": true,
		"What minimum CMake version does the guide require?": true, "Which Node.js versions do I need to run Vite?": true,
		"Since which version can I use $inspect.trace?": false, "How do I install the chart?": false} {
		if got := asksForRequirement(q); got != want {
			t.Errorf("asksForRequirement(%q) = %v, want %v", q, got, want)
		}
	}
	for h, want := range map[string]bool{"## Prerequisites": true, "### Supported platforms": true, "## Browser Compatibility": true,
		"## Minimum version requirements": true, "## Install the chart": false, "Prerequisites": false} {
		if got := namesRequirements(Span{Lines: []string{h}, From: 1, To: 1}); got != want {
			t.Errorf("namesRequirements(%q) = %v, want %v", h, got, want)
		}
	}
}

// A section that the best line of another found section of its doc links to
// by its anchor (an options table's row linking to the option's own
// section) ranks at least linkedShare of the linking section; a section
// of another doc with the same anchor does not.
func TestRankLinkedSection(t *testing.T) {
	lines := []string{
		"## Configuration summary",
		"",
		"| YAML | Type | Summary |",
		"| --- | --- | --- |",
		"| `prometheus.port` | int | [HTTP port for the Prometheus metrics exporter.](#prometheus-port) |",
		"",
		"## Prometheus port {#prometheus-port}",
		"",
		"Left unset, no endpoint is opened.",
	}
	q := NewQuestion("Which port does the Prometheus metrics exporter use?")
	spans := []Span{
		{Doc: "a.md", Lines: lines, From: 1, To: 6, Anchor: "configuration-summary"},
		{Doc: "a.md", Lines: lines, From: 7, To: 9, Anchor: "prometheus-port"},
		{Doc: "b.md", Lines: lines, From: 7, To: 9, Anchor: "prometheus-port"},
	}
	got := q.Rank(spans, []float64{1, 0.1, 0.1})
	if got[1] < linkedShare*got[0]-1e-9 {
		t.Errorf("linked section ranks %v, want at least %v of %v", got[1], linkedShare, got[0])
	}
	if got[2] >= linkedShare*got[0]-1e-9 {
		t.Errorf("another doc's section ranks %v, raised as if linked", got[2])
	}
}

// A section headed by the member a dotted path the question writes ends
// with ranks higher (`hot.decline()` for import.meta.hot.decline()), and
// only then: a heading that is the question's name whole, another member
// or prose is not raised.
func TestRankCodeHeading(t *testing.T) {
	lines := []string{
		"## `hot.decline()`",
		"This is currently a noop and is there for backward compatibility.",
		"## `hot.accept(cb)`",
		"A module that accepts itself uses `import.meta.hot.accept()` and declines nothing.",
	}
	spans := []Span{{Doc: "hmr", Lines: lines, From: 1, To: 2}, {Doc: "hmr", Lines: lines, From: 3, To: 4}}
	q := NewQuestion("Does calling import.meta.hot.decline() in Vite stop a module from being hot updated?")
	if !q.namesAskedCode(spans[0]) || q.namesAskedCode(spans[1]) {
		t.Errorf("namesAskedCode: %v, %v; want true, false", q.namesAskedCode(spans[0]), q.namesAskedCode(spans[1]))
	}
	plain := q.Rank(spans, []float64{1, 1})
	q.codeNames = nil
	if base := q.Rank(spans, []float64{1, 1}); plain[0] <= base[0] || plain[1] != base[1] {
		t.Errorf("Rank with the code heading %v, without %v: want the first raised only", plain, base)
	}
	for _, c := range []struct {
		question, heading string
	}{
		{"What does jest.fn() return?", "### `jest.fn(implementation)`"},
		{"What does hot.decline() do?", "## `hot.decline()`"},
		{"Does decline stop updates?", "## decline"},
		{"Does import.meta.hot.decline() stop updates?", "## How decline works"},
	} {
		sp := Span{Lines: []string{c.heading, "text"}, From: 1, To: 2}
		if NewQuestion(c.question).namesAskedCode(sp) {
			t.Errorf("%q raised %q", c.question, c.heading)
		}
	}
	if got := writtenCodeNames("Call import.meta.hot.decline() or `createServer` and defineConfig(x)"); !slices.Equal(got, []string{"import.meta.hot.decline", "defineconfig", "createserver"}) {
		t.Errorf("writtenCodeNames = %q", got)
	}
}
