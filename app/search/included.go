package search

import (
	"context"
	"slices"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/passage"
)

// includedHit is a line of a file a shown section includes
// (domain.Includes), shown in place of the section's including line: a
// section whose body is `{{% include "span-status-preamble.md" %}}` holds
// none of the preamble's lines, which state its facts.
type includedHit struct {
	path  string // the included file's library path
	line  int
	text  string // the line as shown (cut around the question's words)
	start int    // the cut's window in the line, as hit's
	end   int
}

// includes reads, for one ranked answer, the files its sections include,
// through the library (l.lib.Open of a catalog doc: the library holds no
// file outside its root, a symlink resolved inside it), each at most once.
type includes struct {
	docs  []domain.Document           // the catalog's, in path order
	incs  map[string][]domain.Include // by doc path, its including lines
	files map[string][]string         // by path: its lines; nil: not a doc
	done  map[string]bool             // files whose lines a section above shows
}

func newIncludes(cat *domain.Catalog) *includes {
	return &includes{docs: cat.Docs, incs: map[string][]domain.Include{}, files: map[string][]string{}, done: map[string]bool{}}
}

// includedFile returns the first of inc's paths that is a doc of the
// library and its lines (its frontmatter's blank: not its body).
func (l *Searcher) includedFile(ctx context.Context, in *includes, inc domain.Include) (string, []string, bool) {
	for _, p := range inc.Paths {
		lines, seen := in.files[p]
		if !seen {
			if i, ok := slices.BinarySearchFunc(in.docs, p, func(d domain.Document, p string) int { return strings.Compare(d.Path, p) }); ok {
				if doc, err := l.lib.Open(ctx, in.docs[i]); err == nil {
					lines = strings.Split(string(doc.Content), "\n")
					if fm := doc.Structure.FrontmatterEnd; fm > 0 && fm <= len(lines) {
						lines = slices.Clone(lines)
						for k := range fm {
							lines[k] = "" // not its body
						}
					}
				}
			}
			in.files[p] = lines
		}
		if lines != nil {
			return p, lines, true
		}
	}
	return "", nil, false
}

// withIncluded shows, in place of a hit of sh that includes another file,
// that file's lines that best answer q (passage.IncludedLines of the n sh
// may show), each with the file's path, as librarian_ask quotes them. A
// file a section above shows already leaves the including line as it is
// (it says which file: the same lines again would repeat them), as does an
// include that names no doc of the library. lines are sh's doc's (path).
func (l *Searcher) withIncluded(ctx context.Context, in *includes, sh sectionHits, path string, lines []string, q passage.Question, n, lineRunes int, first bool) sectionHits {
	if !slices.ContainsFunc(sh.hits, func(h hit) bool {
		return h.Line >= 1 && h.Line <= len(lines) && domain.MayInclude(lines[h.Line-1])
	}) {
		return sh // no shown line may include: the doc is not read for its includes
	}
	incs, ok := in.incs[path]
	if !ok {
		incs = domain.Includes(path, lines)
		in.incs[path] = incs
	}
	if len(incs) == 0 {
		return sh
	}
	var kept []hit
	here := map[string]bool{} // files shown in sh's place already
	for _, h := range sh.hits {
		i := slices.IndexFunc(incs, func(inc domain.Include) bool { return inc.Line == h.Line })
		if i < 0 {
			kept = append(kept, h)
			continue
		}
		file, flines, ok := l.includedFile(ctx, in, incs[i])
		if ok && here[file] {
			continue // an MDX import and its use: the file once
		}
		if !ok || in.done[file] {
			kept = append(kept, h)
			continue
		}
		from, to := max(1, incs[i].From), len(flines)
		if incs[i].To > 0 {
			to = min(to, incs[i].To)
		}
		choose := q.ShownProse
		if first {
			choose = q.ShownFollowed
		}
		others := 0 // the section's other lines shown, its heading line aside
		for _, o := range sh.hits {
			if o.Line != h.Line && (o.Line != sh.sec.Start || o.Line > len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[o.Line-1]), "#")) {
				others++
			}
		}
		chosen := choose(flines, from, to, passage.IncludedLines(n, others), nil, map[int]bool{})
		if len(chosen) == 0 {
			kept = append(kept, h)
			continue
		}
		in.done[file], here[file] = true, true
		for _, k := range chosen {
			if k < 1 || k > len(flines) {
				continue
			}
			ih := includedHit{path: file, line: k, text: strings.TrimRight(flines[k-1], "\r")}
			if a, b, ok := q.WindowWithin(ih.text, lineRunes-lineRunes/rankedHitBefore); ok {
				ih.start, ih.end = a, b
			}
			sh.included = append(sh.included, ih)
		}
	}
	sh.hits = kept
	return sh
}
