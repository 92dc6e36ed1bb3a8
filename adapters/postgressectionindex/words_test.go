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
