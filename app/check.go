package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/librarian/librarian/domain"
)

// CheckReport is what `librarian check` finds in a library that passed
// index validation: docs refused or missing, and image stubs naming no image.
type CheckReport struct {
	Docs     int
	Problems []string
}

// Text renders the report for a person.
func (r CheckReport) Text() string {
	if len(r.Problems) == 0 {
		return fmt.Sprintf("ok: %d %s, no problems", r.Docs, domain.Plural(r.Docs, "doc", "docs"))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s in %d %s:", len(r.Problems), domain.Plural(len(r.Problems), "problem", "problems"), r.Docs, domain.Plural(r.Docs, "doc", "docs"))
	for _, p := range r.Problems {
		b.WriteString("\n- ")
		b.WriteString(p)
	}
	return b.String()
}

// Check validates the whole library, for a docs repository's CI. An index
// that fails validation is returned as the error (every problem listed);
// everything else it finds is in the report.
func (l *Library) Check(ctx context.Context) (CheckReport, error) {
	cat, err := l.Catalog(ctx)
	if err != nil {
		return CheckReport{}, err
	}
	rep := CheckReport{Docs: len(cat.Docs), Problems: append([]string(nil), cat.Notes...)}
	parsed, errs := l.openAll(ctx, cat.Docs)
	known := map[string]bool{}
	if l.images != nil {
		imgs, err := l.images.Images(ctx)
		if err != nil {
			return CheckReport{}, err
		}
		for id := range imgs {
			known[id] = true
		}
	}
	for i, d := range cat.Docs {
		if errs[i] != nil {
			rep.Problems = append(rep.Problems, openNote(d, errs[i]))
			continue
		}
		for _, stub := range parsed[i].structure.Images {
			if !known[stub.ID] {
				rep.Problems = append(rep.Problems, fmt.Sprintf("unknown image: %s (%s) L%d: ![[image:%s]] is not in the image index", d.ID, d.Path, stub.Line, stub.ID))
			}
		}
	}
	return rep, nil
}
