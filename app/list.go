package app

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/librarian/librarian/domain"
)

// ListRequest is list_documents' arguments.
type ListRequest struct {
	Scope
	// LineBounds adds each section's L… range.
	LineBounds bool
	// SectionDepth caps the outline's nesting depth (1 = top-level sections
	// only, 0 = no outline); nil is unlimited.
	SectionDepth *int
}

// ListDocuments renders seed 000's tree: a line per folder with its doc
// count and token sum (its whole subtree), each doc with id, file name,
// tokens, summary and tags, then its section outline with full ids.
func (l *Library) ListDocuments(ctx context.Context, req ListRequest) (string, error) {
	cat, err := l.Catalog(ctx)
	if err != nil {
		return "", err
	}
	docs, root, err := scopeDocs(cat, req.Scope)
	if err != nil {
		return "", err
	}
	outline := req.SectionDepth == nil || *req.SectionDepth > 0
	var parsed []*parsedDoc
	var errs []error
	if outline {
		parsed, errs = l.openAll(ctx, docs)
	} else {
		// Token estimates still need sizes; a stat is enough.
		parsed, errs = l.statAll(ctx, docs)
	}
	notes := append([]string(nil), cat.Notes...)
	type folderStat struct{ docs, tokens int }
	stats := map[string]*folderStat{}
	byFolder := map[string][]int{}
	for i, d := range docs {
		dir := docFolder(d.Path)
		byFolder[dir] = append(byFolder[dir], i)
		t := tokens(d, parsed[i])
		// Every folder from the doc's own up to the root counts it: a
		// folder line sums its whole subtree.
		for f := dir; ; f = parentFolder(f) {
			s := stats[f]
			if s == nil {
				s = &folderStat{}
				stats[f] = s
			}
			s.docs++
			s.tokens += t
			if f == root {
				break
			}
		}
		if errs[i] != nil {
			notes = append(notes, openNote(d, errs[i]))
		}
	}
	if stats[root] == nil {
		stats[root] = &folderStat{}
	}
	folders := make([]string, 0, len(stats))
	for f := range stats {
		folders = append(folders, f)
	}
	sort.Slice(folders, func(i, j int) bool { return folderLess(folders[i], folders[j]) })

	var b strings.Builder
	for _, f := range folders {
		s := stats[f]
		name := f + "/"
		if f == "" {
			name = "./"
		}
		fmt.Fprintf(&b, "%s (%d %s, ~%d tokens)", name, s.docs, plural(s.docs, "doc", "docs"), s.tokens)
		if desc, ok := cat.Folders[f]; ok {
			if text := firstNonEmpty(desc.Summary, desc.Title); text != "" {
				fmt.Fprintf(&b, " — %s", text)
			}
		}
		b.WriteString("\n")
		for _, i := range byFolder[f] {
			d := docs[i]
			fmt.Fprintf(&b, "- %s [%s] ~%d tokens", d.ID, path.Base(d.Path), tokens(d, parsed[i]))
			if d.Summary != "" {
				fmt.Fprintf(&b, " — %s", d.Summary)
			}
			if len(d.Tags) > 0 {
				fmt.Fprintf(&b, " · tags: %s", strings.Join(d.Tags, ", "))
			}
			b.WriteString("\n")
			if errs[i] != nil {
				b.WriteString("(not readable: see Notes)\n")
				continue
			}
			if outline {
				writeOutline(&b, parsed[i].structure, req.LineBounds, req.SectionDepth)
			}
		}
	}
	if len(docs) == 0 {
		b.WriteString("(no documents match)\n")
	}
	writeNotes(&b, notes)
	return strings.TrimRight(b.String(), "\n"), nil
}

// writeOutline writes a doc's section outline in seed 000's form.
func writeOutline(b *strings.Builder, s domain.Structure, lineBounds bool, maxDepth *int) {
	var shown []domain.Section
	for _, sec := range s.Sections {
		if maxDepth != nil && sec.Depth > *maxDepth {
			continue
		}
		shown = append(shown, sec)
	}
	if len(shown) == 0 {
		fmt.Fprintf(b, "no sections, %d %s\n", s.Lines, plural(s.Lines, "line", "lines"))
		return
	}
	fmt.Fprintf(b, "sections, %d %s:\n", s.Lines, plural(s.Lines, "line", "lines"))
	for _, sec := range shown {
		b.WriteString("§ ")
		b.WriteString(sec.ID)
		if sec.Heading != "" || sec.Level > 0 {
			fmt.Fprintf(b, " %q", sec.Heading)
		}
		if lineBounds {
			fmt.Fprintf(b, " %s", lineSpan(sec.Start, sec.End))
		}
		b.WriteString("\n")
	}
}

// lineSpan renders an inclusive line range as seed 000 does: L18–38, or L7
// for a single line.
func lineSpan(from, to int) string {
	if from == to {
		return fmt.Sprintf("L%d", from)
	}
	return fmt.Sprintf("L%d–%d", from, to)
}

// writeNotes appends a Notes: block when there are notes.
func writeNotes(b *strings.Builder, notes []string) {
	if len(notes) == 0 {
		return
	}
	b.WriteString("\nNotes:\n")
	for _, n := range notes {
		b.WriteString("- ")
		b.WriteString(n)
		b.WriteString("\n")
	}
}

// statAll gets each doc's stamp without reading it (for token estimates).
func (l *Library) statAll(ctx context.Context, docs []domain.Document) ([]*parsedDoc, []error) {
	out := make([]*parsedDoc, len(docs))
	errs := make([]error, len(docs))
	for i, d := range docs {
		if d.HasTokens {
			out[i] = &parsedDoc{}
			continue
		}
		st, err := l.source.Stat(ctx, d.Path)
		out[i], errs[i] = &parsedDoc{stamp: st}, err
	}
	return out, errs
}

func docFolder(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

func parentFolder(f string) string {
	if f == "" {
		return ""
	}
	return docFolder(f)
}

// folderLess orders folders so that each is followed by its subfolders:
// compare path segments, not bytes ("a/b" before "a-c").
func folderLess(a, b string) bool {
	if a == "" {
		return b != ""
	}
	if b == "" {
		return false
	}
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if as[i] != bs[i] {
			return as[i] < bs[i]
		}
	}
	return len(as) < len(bs)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
