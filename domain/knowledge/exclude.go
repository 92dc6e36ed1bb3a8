package knowledge

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/librarian/librarian/domain"
)

// Excludes are a lead session's exclude patterns (seed 004's
// librarian_guide `exclude`), compiled. A pattern names docs or folders of
// the library by their paths, '/'-separated:
//   - `legacy/` (a trailing '/') is a folder: every doc under a folder of
//     that name, at any depth when the pattern has no other '/', else
//     from the root (`backend/legacy/`);
//   - `draft`, `*.old.md` (no '/') match any segment of a doc's path: a
//     folder name, the file name, or the file name without ".md";
//   - `backend/auth.md`, `backend/auth`, `guides/*` (with a '/') match from
//     the root: the whole path, the path without ".md", or a leading folder;
//   - `*` matches within one segment, `**` across segments, `?` one
//     character; everything else is literal. A leading "/" or "./" is the
//     root and is dropped.
type Excludes struct {
	rules []excludeRule
}

type excludeRule struct {
	pattern    string
	re         *regexp.Regexp
	folderOnly bool
	anywhere   bool // no '/' in the pattern: matched against each segment
}

// ParseExcludes compiles patterns; an empty or malformed one is an error
// naming it by its index.
func ParseExcludes(patterns []string) (Excludes, error) {
	var x Excludes
	for i, p := range patterns {
		raw := strings.TrimSpace(p)
		raw = strings.TrimPrefix(raw, "./")
		raw = strings.TrimPrefix(raw, "/")
		switch {
		case raw == "" && strings.TrimSpace(p) != "":
			raw = "**" // "/" or "./": the whole library
		case raw == "":
			return Excludes{}, fmt.Errorf("%w: exclude[%d] is empty: give a folder (legacy/), a doc path or a pattern (*.old.md)", domain.ErrInvalidArgument, i)
		case strings.ContainsAny(raw, "\\\x00"):
			return Excludes{}, fmt.Errorf("%w: exclude[%d] %q may not contain '\\' or NUL (paths use '/')", domain.ErrInvalidArgument, i, p)
		case len(raw) > 1024:
			return Excludes{}, fmt.Errorf("%w: exclude[%d] is %d bytes, over 1024", domain.ErrInvalidArgument, i, len(raw))
		}
		r := excludeRule{pattern: p}
		if strings.HasSuffix(raw, "/") {
			r.folderOnly = true
			raw = strings.TrimRight(raw, "/")
			if raw == "" {
				raw = "**"
			}
		}
		r.anywhere = !strings.Contains(raw, "/")
		r.re = regexp.MustCompile("^" + globToRegexp(raw) + "$")
		x.rules = append(x.rules, r)
	}
	return x, nil
}

func globToRegexp(glob string) string {
	var b strings.Builder
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; {
		case c == '*' && i+1 < len(glob) && glob[i+1] == '*':
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// Empty reports whether there are no patterns.
func (x Excludes) Empty() bool { return len(x.rules) == 0 }

// Patterns returns the patterns as given.
func (x Excludes) Patterns() []string {
	var out []string
	for _, r := range x.rules {
		out = append(out, r.pattern)
	}
	return out
}

// Match returns the first pattern that excludes the doc at path, or "".
func (x Excludes) Match(path string) string {
	if len(x.rules) == 0 {
		return ""
	}
	segs := strings.Split(path, "/")
	for _, r := range x.rules {
		if r.matches(path, segs) {
			return r.pattern
		}
	}
	return ""
}

func (r excludeRule) matches(path string, segs []string) bool {
	folders := segs[:len(segs)-1]
	if r.anywhere {
		for _, s := range folders {
			if r.re.MatchString(s) {
				return true
			}
		}
		if r.folderOnly {
			return false
		}
		file := segs[len(segs)-1]
		return r.re.MatchString(file) || r.re.MatchString(strings.TrimSuffix(file, ".md")) || r.re.MatchString(path)
	}
	for i := range folders {
		if r.re.MatchString(strings.Join(segs[:i+1], "/")) {
			return true
		}
	}
	if r.folderOnly {
		return false
	}
	return r.re.MatchString(path) || r.re.MatchString(strings.TrimSuffix(path, ".md"))
}
