package browse

import (
	"context"
	"fmt"
	"strings"

	"github.com/librarian/librarian/app/library"
)

// CheckReport is what `librarian check` finds in a library that passed
// index validation: docs refused or missing, and image stubs naming no image.
type CheckReport struct {
	Docs     int      // docs checked
	Problems []string // each a line for a person
	// ProblemDocs counts the docs (or index entries refused before they
	// became docs) that have at least one problem.
	ProblemDocs int
	// Warnings are worth a look but fail nothing (domain.Catalog.Warnings).
	Warnings []string
}

// Text renders the report for a person: every problem, then the warnings.
func (r CheckReport) Text() string { return r.TextMax(0, "") }

// Check validates the whole library, for a docs repository's CI. An index
// that fails validation is returned as the error (every problem listed);
// everything else it finds is in the report.
func (l *Browser) Check(ctx context.Context) (CheckReport, error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return CheckReport{}, err
	}
	rep := CheckReport{Docs: len(cat.Docs), Problems: append([]string(nil), cat.Notes...), Warnings: cat.Warnings}
	withProblems := map[string]bool{} // by doc path, or the entry a catalog note names
	for _, n := range cat.Notes {
		withProblems[noteSubject(n)] = true
	}
	parsed, errs := l.lib.OpenAll(ctx, cat.Docs)
	known := map[string]bool{}
	if l.lib.Images() != nil {
		imgs, err := l.lib.Images().Images(ctx)
		if err != nil {
			return CheckReport{}, err
		}
		for id := range imgs {
			known[id] = true
		}
	}
	for i, d := range cat.Docs {
		if errs[i] != nil {
			rep.Problems = append(rep.Problems, library.OpenNote(d, errs[i]))
			withProblems[d.Path] = true
			continue
		}
		for _, stub := range parsed[i].Structure.Images {
			if !known[stub.ID] {
				rep.Problems = append(rep.Problems, fmt.Sprintf("unknown image: %s (%s) L%d: ![[image:%s]] is not in the image index", d.ID, d.Path, stub.Line, stub.ID))
				withProblems[d.Path] = true
			}
		}
	}
	rep.ProblemDocs = len(withProblems)
	return rep, nil
}

// noteSubject is the entry a catalog note is about: index sources word
// their notes with the doc's path, or its index entry, first between
// single quotes ("frontmatter: 'a/b.md': ...", "refused: 'evil.md' ...",
// "missing: documents[7] (id 'gone'): ..."). A note naming nothing so is
// its own subject.
func noteSubject(note string) string {
	if _, rest, ok := strings.Cut(note, "'"); ok {
		if subject, _, ok := strings.Cut(rest, "'"); ok && subject != "" {
			return subject
		}
	}
	return note
}
