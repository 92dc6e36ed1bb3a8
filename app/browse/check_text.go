package browse

import (
	"fmt"
	"strings"

	"github.com/librarian/librarian/domain/wording"
)

// TextMax renders the report as Text does, listing at most max problems
// and max warnings (0: all): the header still counts every one, and where
// the list stops a line says how many more there are, followed by more
// (how to see them all, in the caller's terms) when it is not "". A folder
// of unrelated files can hold hundreds of thousands of problems; a person
// (or a CI log) needs the count and the first ones, a script the JSON.
func (r CheckReport) TextMax(max int, more string) string {
	var b strings.Builder
	if len(r.Problems) == 0 {
		fmt.Fprintf(&b, "ok: %d %s, no problems", r.Docs, wording.Plural(r.Docs, "doc", "docs"))
	} else {
		fmt.Fprintf(&b, "%d %s in %d %s (%d checked):", len(r.Problems), wording.Plural(len(r.Problems), "problem", "problems"),
			r.ProblemDocs, wording.Plural(r.ProblemDocs, "doc", "docs"), r.Docs)
		writeCapped(&b, r.Problems, max, "problem", "problems", more)
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintf(&b, "\n%d %s (these fail nothing):", len(r.Warnings), wording.Plural(len(r.Warnings), "warning", "warnings"))
		writeCapped(&b, r.Warnings, max, "warning", "warnings", more)
	}
	return b.String()
}

// writeCapped writes the first max lines of list (all when max is 0) as
// "- " items, then "… and N more problems" when it stopped short.
func writeCapped(b *strings.Builder, list []string, max int, one, many, more string) {
	shown := list
	if max > 0 && len(list) > max {
		shown = list[:max]
	}
	for _, p := range shown {
		b.WriteString("\n- ")
		b.WriteString(p)
	}
	if left := len(list) - len(shown); left > 0 {
		fmt.Fprintf(b, "\n… and %d more %s", left, wording.Plural(left, one, many))
		if more != "" {
			fmt.Fprintf(b, " (%s)", more)
		}
	}
}
