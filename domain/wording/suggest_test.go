package wording

import (
	"slices"
	"testing"
)

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"auth", "auth", 0},
		{"buton", "button", 1},   // a missing letter
		{"cachng", "caching", 1}, // a missing letter
		{"auht", "auth", 1},      // two neighbours swapped
		{"kitten", "sitting", 3}, // substitutions and an insertion
		{"caching", "cachnig", 1},
		{"überblick", "uberblick", 1}, // runes, not bytes
		{"ab", "ba", 1},
		{"abc", "ca", 3}, // optimal string alignment: no edit of a swapped pair
	} {
		if got := EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := EditDistance(tc.b, tc.a); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	docs := []string{"auth", "caching", "migrations", "getting-started", "daisyui/components/button", "daisyui/components/badge", "auth-middleware"}
	for _, tc := range []struct {
		name       string
		candidates []string
		limit      int
		want       []string
	}{
		{"buton", docs, 5, []string{"daisyui/components/button"}},
		{"daisyui/components/buton", docs, 5, []string{"daisyui/components/button"}},
		{"auht", docs, 5, []string{"auth"}},
		{"cachng", docs, 5, []string{"caching"}},
		{"AUTH", docs, 5, []string{"auth"}}, // case ignored; an exact match hides mere containment
		{"auth-midleware", docs, 5, []string{"auth-middleware"}},
		{"auth", docs, 1, []string{"auth"}},                  // the limit
		{"middleware", docs, 5, []string{"auth-middleware"}}, // contained
		{"quillwort", docs, 5, nil},                          // nothing near
		{"", docs, 5, nil},
		{"ab", []string{"ab", "abc", "xy"}, 5, []string{"ab", "abc"}}, // short names: one edit
		{"login-flw", []string{"_intro", "login-flow", "refresh-tokens", "refresh-tokens/rotation"}, 5, []string{"login-flow"}},
		{"rotaton", []string{"refresh-tokens", "refresh-tokens/rotation"}, 5, []string{"refresh-tokens/rotation"}},
		{"backend/storag", []string{"backend/", "backend/storage/", "guides/"}, 5, []string{"backend/storage/"}},
		{"backend/nothing", []string{"backend", "backend/storage", "guides"}, 5, nil}, // its parent is no suggestion
		{"x", []string{"x", "x"}, 5, []string{"x"}},                                   // duplicates once
	} {
		if got := Suggest(tc.name, tc.candidates, tc.limit); !slices.Equal(got, tc.want) {
			t.Errorf("Suggest(%q, %v, %d) = %q, want %q", tc.name, tc.candidates, tc.limit, got, tc.want)
		}
	}
}
