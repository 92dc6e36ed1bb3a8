package localretrieval

import (
	"context"
	"slices"
	"strings"

	"github.com/librarian/librarian/domain/include"
	"github.com/librarian/librarian/domain/passage"
	"github.com/librarian/librarian/ports/sectionindex"
)

// includer reads, for one answer, the files its sections' lines include
// (include.Directives), through the index: it holds the library's docs only,
// each inside its root (a symlink resolved inside it when the walk found
// it), so an include can name nothing else.
type includer struct {
	ix    sectionindex.Index
	docs  map[string][]include.Directive // by doc path, its including lines
	files map[string]includedFile        // by path; a zero one: not a doc of the library
}

// includedFile is an included doc's lines and where its body starts.
type includedFile struct {
	lines []string
	body  int // its first line past the frontmatter
}

// file returns the first of inc's paths that is a doc of the library.
func (in *includer) file(ctx context.Context, inc include.Directive) (string, includedFile, bool) {
	for _, p := range inc.Paths {
		f, seen := in.files[p]
		if !seen {
			if ent, err := in.ix.Entry(ctx, p); err == nil {
				f = includedFile{lines: strings.Split(string(ent.Content), "\n"), body: ent.Structure.FrontmatterEnd + 1}
			}
			in.files[p] = f
		}
		if f.lines != nil {
			return p, f, true
		}
	}
	return "", includedFile{}, false
}

// withIncluded puts, in place of a line p quotes that includes another
// file, that file's lines that best answer q (as many as
// include.Lines leaves of the n p may quote), each with the file's
// path: a section whose body is `{{% include "span-status-preamble.md" %}}`
// quotes the preamble's "By default, all spans are `Unset`". lines are p's
// doc's. An include that names no doc of the library stays as it is.
func (in *includer) withIncluded(ctx context.Context, p *quotedSection, lines []string, q passage.Question, n, lineLen int, first bool) {
	if !slices.ContainsFunc(p.Quote, func(l quotedLine) bool {
		return l.From == "" && l.N >= 1 && l.N <= len(lines) && include.MayInclude(lines[l.N-1])
	}) {
		return // no quoted line may include: the doc is not read for its includes
	}
	incs, ok := in.docs[p.Path]
	if !ok {
		incs = include.Directives(p.Path, lines)
		in.docs[p.Path] = incs
	}
	if len(incs) == 0 {
		return
	}
	var out []quotedLine
	here := map[string]bool{} // files quoted in p's place already
	for _, l := range p.Quote {
		i := includeAt(incs, l.N)
		if i < 0 || l.From != "" {
			out = append(out, l)
			continue
		}
		path, f, ok := in.file(ctx, incs[i])
		if !ok {
			out = append(out, l)
			continue
		}
		if here[path] {
			continue // an MDX import and its use: the file once
		}
		chosen := include.Quoted(q, incs[i], f.lines, f.body, n, len(p.Quote)-1, first)
		if len(chosen) == 0 {
			out = append(out, l)
			continue
		}
		here[path] = true
		for _, k := range chosen {
			out = append(out, quotedLine{N: k, Text: quotedText(q, f.lines[k-1], lineLen), From: path})
		}
	}
	p.Quote = out
}

// includeAt returns the index of the include at line l, -1 for none.
func includeAt(incs []include.Directive, l int) int {
	for i, inc := range incs {
		if inc.Line == l {
			return i
		}
	}
	return -1
}
