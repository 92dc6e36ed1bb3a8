package postgressectionindex

import (
	"slices"
	"testing"
)

func TestQuestionWords(t *testing.T) {
	for q, want := range map[string][]string{
		"how much will debug()/prettyDOM print?":       {"how", "much", "will", "debug", "prettyDOM", "print"},
		"does jest.mock('./UserService') hoist?":       {"does", "jest.mock", "UserService", "hoist"},
		"is OTEL_SDK_DISABLED=true honoured":           {"is", "OTEL_SDK_DISABLED", "true", "honoured"},
		"Hono's --css-variable and $state.snapshot ok": {"Hono", "s", "css-variable", "and", "state.snapshot", "ok"},
	} {
		if got := questionWords(q); !slices.Equal(got, want) {
			t.Errorf("questionWords(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestSplitByParser(t *testing.T) {
	for _, c := range []struct {
		word, whole string
		want        bool
	}{
		{"OTEL_SDK_DISABLED", "otel", true},
		{"max_age", "max", true},
		{"getRuntimeKey", "getruntimekey", false},
		{"jest.mock", "jest.mock", false},
		{"no-param-reassign", "no-param-reassign", false},
		{"timeout", "timeout", false},
	} {
		if got := splitByParser(c.word, c.whole); got != c.want {
			t.Errorf("splitByParser(%q, %q) = %v, want %v", c.word, c.whole, got, c.want)
		}
	}
}

func TestWithoutStopWords(t *testing.T) {
	for q, want := range map[string][]string{
		"what does test.only do":          {"test.only"},
		"is it Hono's default":            {"Hono", "default"},
		"don't run all tests before push": {"run", "all", "tests", "before", "push"},
		"could both be just other names":  {"could", "names"},
		"what is it":                      {"what", "is", "it"}, // nothing else: kept
	} {
		if got := withoutStopWords(questionWords(q)); !slices.Equal(got, want) {
			t.Errorf("withoutStopWords(%q) = %q, want %q", q, got, want)
		}
	}
}

// A version number is searched in its other spelling too (PostgreSQL's
// parser reads v1.0 and v2 as one token each); a number in backticks is
// a value and keeps its one spelling.
func TestVersionSpelling(t *testing.T) {
	for _, c := range []struct{ word, want string }{
		{"1.0", "v1.0"}, {"v1.0", "1.0"}, {"2", "v2"}, {"V11", "11"}, {"10.2.3", "v10.2.3"},
		{"v", ""}, {"1.", ""}, {"vue", ""}, {"1e5", ""},
	} {
		got, ok := versionSpelling(c.word)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("versionSpelling(%q) = %q, %v; want %q", c.word, got, ok, c.want)
		}
	}
	code := codeWords("does `a = b = 0` work in ESLint 9?")
	if !code["0"] || code["9"] {
		t.Errorf("codeWords = %v, want 0 (in backticks) and not 9", code)
	}
}

// A snake_case name is searched by its joined form too, written before it
// (PostgreSQL's parser keeps no whole of it); other names are left as
// they were.
func TestCodeAwareJoinsSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"set `OTEL_SDK_DISABLED=true` now": "set otelsdkdisabled `OTEL_SDK_DISABLED=true` OTEL SDK DISABLED true now",
		"max_age":                          "maxage max_age max age",
		"__mocks__ dir":                    "__mocks__ dir",
		"getRuntimeKey":                    "getRuntimeKey get Runtime Key",
		"no-param-reassign":                "no-param-reassign no param reassign",
	} {
		if got := codeAware(in); got != want {
			t.Errorf("codeAware(%q) = %q, want %q", in, got, want)
		}
	}
}

// The pool stays at the step before only when it is the next step up:
// past skipped steps it held nearly every word, too few sections to rank.
func TestKeepStepBefore(t *testing.T) {
	for _, c := range []struct {
		prevCount, prevK, k, limit int
		want                       bool
	}{
		{40, 3, 2, 25, true},  // the next step up, enough sections
		{10, 3, 2, 25, false}, // too few: capped instead
		{40, 7, 1, 25, false}, // steps 2 to 6 skipped
		{0, 0, 8, 25, false},  // no step before
	} {
		if got := keepStepBefore(c.prevCount, c.prevK, c.k, c.limit); got != c.want {
			t.Errorf("keepStepBefore(%d, %d, %d, %d) = %v, want %v", c.prevCount, c.prevK, c.k, c.limit, got, c.want)
		}
	}
}

// A section's length leaves out the joined forms codeAware adds.
func TestJoinedCount(t *testing.T) {
	for in, want := range map[string]int{
		"indent_style = space\ntrim_trailing_whitespace = true": 2,
		"`OTEL_SDK_DISABLED=true` and max_age":                  2,
		"__mocks__ and getRuntimeKey":                           0,
		"plain words":                                           0,
	} {
		if _, got := codeAwareJoined(in); got != want {
			t.Errorf("codeAwareJoined(%q) wrote %d joined forms, want %d", in, got, want)
		}
	}
}
