package search

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
)

// TestSearchRegexSaysWhatRE2Lacks: a lookbehind or a backreference is
// refused with Go's message and what RE2 lacks (Go calls a lookbehind an
// invalid named capture, which says nothing of the real reason).
func TestSearchRegexSaysWhatRE2Lacks(t *testing.T) {
	lib := openSearchLibrary(t, "json", searchLibRoot)
	for _, tc := range []struct{ query, want string }{
		{`(?<=token )\w+`, "invalid regex \"(?<=token )\\w+\": error parsing regexp: invalid named capture: `(?<=token )\\w+`; RE2 (Go's regex syntax) has neither lookbehind nor backreferences, so the lookbehind `(?<=` cannot be used"},
		{`(\w+) \1`, "has neither lookbehind nor backreferences, so the backreference `\\1` cannot be used"},
	} {
		_, err := New(lib).SearchDocuments(context.Background(), SearchRequest{Query: tc.query, Mode: SearchRegex, Scope: domain.Scope{Depth: -1}, MaxResults: 50})
		if !errors.Is(err, domain.ErrInvalidArgument) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("search %q: err = %v, want invalid argument containing %q", tc.query, err, tc.want)
		}
	}
}
