package knowledge

import (
	"errors"
	"testing"

	"github.com/librarian/librarian/domain"
)

func TestExcludes(t *testing.T) {
	paths := []string{"backend/auth.md", "backend/legacy/old.md", "legacy/x.md", "guides/getting-started.md", "notes/draft.old.md", "legacy.md"}
	cases := []struct {
		pattern string
		want    []string
	}{
		{"legacy/", []string{"backend/legacy/old.md", "legacy/x.md"}},
		{"legacy", []string{"backend/legacy/old.md", "legacy/x.md", "legacy.md"}},
		{"backend/legacy/", []string{"backend/legacy/old.md"}},
		{"*.old.md", []string{"notes/draft.old.md"}},
		{"backend/auth", []string{"backend/auth.md"}},
		{"/backend/auth.md", []string{"backend/auth.md"}},
		{"guides/*", []string{"guides/getting-started.md"}},
		{"backend", []string{"backend/auth.md", "backend/legacy/old.md"}},
		{"**/old.md", []string{"backend/legacy/old.md"}},
		{"*", paths},
		{"/", paths},
		{"auth.md.bak", nil},
		{"a+b(c)", nil},
	}
	for _, tc := range cases {
		x, err := ParseExcludes([]string{tc.pattern})
		if err != nil {
			t.Fatalf("%q: %v", tc.pattern, err)
		}
		var got []string
		for _, p := range paths {
			if x.Match(p) != "" {
				got = append(got, p)
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%q excludes %v, want %v", tc.pattern, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q excludes %v, want %v", tc.pattern, got, tc.want)
				break
			}
		}
	}
	if _, err := ParseExcludes([]string{"ok/", "  "}); !errors.Is(err, domain.ErrInvalidArgument) || err.Error() != "invalid argument: exclude[1] is empty: give a folder (legacy/), a doc path or a pattern (*.old.md)" {
		t.Errorf("empty pattern: %v", err)
	}
	if x, _ := ParseExcludes(nil); !x.Empty() || x.Match("a.md") != "" {
		t.Errorf("no patterns exclude something")
	}
}
