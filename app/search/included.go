package search

import (
	"context"
	"slices"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/include"
	"github.com/librarian/librarian/domain/passage"
)

// includedHit is a line of a file a shown section includes
// (include.Directives), shown in place of the section's including line: a
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
	docs  []domain.Document              // the catalog's, in path order
	incs  map[string][]include.Directive // by doc path, its including lines
	files map[string]includedLines       // by path; a zero one: not a doc
	done  map[string]bool                // files whose lines a section above shows
}

func newIncludes(cat *domain.Catalog) *includes {
	return &includes{docs: cat.Docs, incs: map[string][]include.Directive{}, files: map[string]includedLines{}, done: map[string]bool{}}
}

// includedLines is an included doc's lines and where its body starts.
type includedLines struct {
	lines []string
	body  int // its first line past the frontmatter
}

// includedFile returns the first of inc's paths that is a doc of the
// library, and its lines.
func (l *Searcher) includedFile(ctx context.Context, in *includes, inc include.Directive) (string, includedLines, bool) {
	for _, p := range inc.Paths {
		f, seen := in.files[p]
		if !seen {
			if i, ok := slices.BinarySearchFunc(in.docs, p, func(d domain.Document, p string) int { return strings.Compare(d.Path, p) }); ok {
				if doc, err := l.lib.Open(ctx, in.docs[i]); err == nil {
					f = includedLines{lines: strings.Split(string(doc.Content), "\n"), body: doc.Structure.FrontmatterEnd + 1}
				}
			}
			in.files[p] = f
		}
		if f.lines != nil {
			return p, f, true
		}
	}
	return "", includedLines{}, false
}

// withIncluded shows, in place of a hit of sh that includes another file,
// that file's lines that best answer q (include.Lines of the n sh
// may show), each with the file's path, as librarian_ask quotes them. A
// file a section above shows already leaves the including line as it is
// (it says which file: the same lines again would repeat them), as does an
// include that names no doc of the library. lines are sh's doc's (path).
func (l *Searcher) withIncluded(ctx context.Context, in *includes, sh sectionHits, path string, lines []string, q passage.Question, n, lineRunes int, first bool) sectionHits {
	if !slices.ContainsFunc(sh.hits, func(h hit) bool {
		return h.Line >= 1 && h.Line <= len(lines) && include.MayInclude(lines[h.Line-1])
	}) {
		return sh // no shown line may include: the doc is not read for its includes
	}
	incs, ok := in.incs[path]
	if !ok {
		incs = include.Directives(path, lines)
		in.incs[path] = incs
	}
	if len(incs) == 0 {
		return sh
	}
	var kept []hit
	here := map[string]bool{} // files shown in sh's place already
	for _, h := range sh.hits {
		i := slices.IndexFunc(incs, func(inc include.Directive) bool { return inc.Line == h.Line })
		if i < 0 {
			kept = append(kept, h)
			continue
		}
		file, f, ok := l.includedFile(ctx, in, incs[i])
		if ok && here[file] {
			continue // an MDX import and its use: the file once
		}
		if !ok || in.done[file] {
			kept = append(kept, h)
			continue
		}
		others := 0 // the section's other lines shown, its heading line aside
		for _, o := range sh.hits {
			if o.Line != h.Line && (o.Line != sh.sec.Start || o.Line > len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[o.Line-1]), "#")) {
				others++
			}
		}
		chosen := include.Quoted(q, incs[i], f.lines, f.body, n, others, first)
		if len(chosen) == 0 {
			kept = append(kept, h)
			continue
		}
		in.done[file], here[file] = true, true
		for _, k := range chosen {
			ih := includedHit{path: file, line: k, text: strings.TrimRight(f.lines[k-1], "\r")}
			if a, b, ok := q.WindowWithin(ih.text, lineRunes-lineRunes/rankedHitBefore); ok {
				ih.start, ih.end = a, b
			}
			sh.included = append(sh.included, ih)
		}
	}
	sh.hits = kept
	return sh
}
