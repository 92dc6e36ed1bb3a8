package browse

import (
	"context"
	"fmt"
	"strings"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/textmatch"
	"github.com/librarian/librarian/domain/wording"
)

// A doc's section outline in seed 000's form, and list_documents with a
// root naming one doc.

// outlineStyle is how an outline is written.
type outlineStyle struct {
	lineBounds bool
	// maxDepth caps heading levels (nil or negative: no cap).
	maxDepth *int
	// sizes, when set, adds each section's tokens: they are the offsets of
	// the doc's line starts, and content is its bytes; the line bounds go
	// with it.
	sizes   []int
	content []byte
	// room is how many bytes the outline may take; 0 is no limit. Past it
	// the outline stops at a whole section line; with mark, a line then says
	// what it left out.
	room int
	mark bool
}

// writeOutline writes a doc's section outline in seed 000's form and
// returns the sections the room left out.
func writeOutline(b *strings.Builder, s domain.Structure, st outlineStyle) []domain.Section {
	var shown []domain.Section
	for _, sec := range s.Sections {
		// section_depth caps heading levels, as seed 000 says: 2 keeps
		// `#` and `##` headings (and _preamble); negative is no cap.
		if st.maxDepth != nil && *st.maxDepth >= 0 && sec.Level > *st.maxDepth {
			continue
		}
		shown = append(shown, sec)
	}
	if len(shown) == 0 {
		fmt.Fprintf(b, "no sections, %d lines\n", s.Lines)
		return nil
	}
	start := b.Len()
	fmt.Fprintf(b, "sections, %d lines:\n", s.Lines)
	var line strings.Builder
	for i, sec := range shown {
		line.Reset()
		line.WriteString("§ ")
		line.WriteString(sec.ID)
		if sec.Heading != "" || sec.Level > 0 {
			fmt.Fprintf(&line, " %q", sec.Heading)
		}
		if st.lineBounds || st.sizes != nil {
			fmt.Fprintf(&line, " %s", wording.LineSpan(sec.Start, sec.End))
		}
		if st.sizes != nil {
			fmt.Fprintf(&line, " ~%d tokens", domain.SectionTokens(sec, st.sizes, len(st.content)))
		}
		line.WriteString("\n")
		// Keep room for what follows the cut (~80 bytes).
		if st.room > 0 && b.Len()-start+line.Len()+80 > st.room && i > 0 {
			left := shown[i:]
			if st.mark {
				fmt.Fprintf(b, "[outline cut at max_tokens: %d more %s in %s]\n",
					len(left), wording.Plural(len(left), "section", "sections"), wording.LineSpan(left[0].Start, s.Lines))
			}
			return left
		}
		b.WriteString(line.String())
	}
	return nil
}

// listOutlineCutBytes is about the size of a cut outline's Left out block.
const listOutlineCutBytes = 240

// docNamed finds the doc a list_documents root names, by id or by path.
func docNamed(cat *domain.Catalog, name string) (domain.Document, bool) {
	name = strings.TrimSpace(name)
	for _, d := range cat.Docs {
		if d.ID == name {
			return d, true
		}
	}
	p := domain.CleanDocPath(name)
	for _, d := range cat.Docs {
		if d.Path == p {
			return d, true
		}
	}
	return domain.Document{}, false
}

// listDocument answers list_documents for a root naming one doc: its line
// (with its path, there being no folder line above it), then its outline
// with each section's line range and tokens, so the agent can pick
// sections or lines by size. The outline is cut at the budget like a
// listing: at a whole section line, saying what it left out.
func (l *Browser) listDocument(ctx context.Context, d domain.Document, req ListRequest, budget int, catNotes []string) (string, error) {
	notes := append([]string(nil), catNotes...)
	var b strings.Builder
	p, err := l.lib.Open(ctx, d)
	size := 0
	if err == nil {
		size = len(p.Content)
	}
	writeDocLine(&b, d, d.Path, domain.DocTokens(d, size))
	switch {
	case err != nil:
		b.WriteString("(not readable: see Notes)\n")
		notes = append(notes, library.OpenNote(d, err))
	case req.SectionDepth != nil && *req.SectionDepth == 0:
		fmt.Fprintf(&b, "%d lines\n", p.Structure.Lines)
	default:
		st := outlineStyle{lineBounds: true, maxDepth: req.SectionDepth, sizes: textmatch.LineStarts(p.Content), content: p.Content}
		if budget > 0 {
			st.room = max(budget*4-b.Len()-listOutlineCutBytes, 1)
		}
		if p.Structure.Simplified != "" {
			notes = append(notes, simplifiedNote(d, p.Structure.Simplified))
		}
		if left := writeOutline(&b, p.Structure, st); len(left) > 0 {
			from := left[0].Start
			fmt.Fprintf(&b, "\nLeft out (over max_tokens=%d): %d of the outline's sections, %s. Pass section_depth (e.g. 2) for fewer heading levels, fetch the lines with get_documents {\"doc\": %q, \"lines\": [%d, %d]}, or max_tokens=0 for no limit.\n",
				budget, len(left), wording.LineSpan(from, p.Structure.Lines), d.ID, from, p.Structure.Lines)
		}
	}
	wording.WriteNotes(&b, notes)
	return strings.TrimRight(b.String(), "\n"), nil
}
