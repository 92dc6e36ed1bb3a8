package answer

import (
	"fmt"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/wording"
)

// PlanChunks turns one target into its chunks: the whole doc, each listed
// section in the order given, or the line range clamped to the file. s is
// the target's selector; images and code are the request's settings, which
// the selector's own override. Sections that cannot be found and ranges
// outside the file become notes.
func PlanChunks(t domain.Target, s domain.Selector, dt *DocText, images, code bool) ([]*Chunk, []domain.SelNote) {
	var chunks []*Chunk
	var notes []domain.SelNote
	note := func(format string, args ...any) {
		notes = append(notes, domain.SelNote{Sel: t.Sel, Text: fmt.Sprintf(format, args...)})
	}
	base := Chunk{Sel: t.Sel, Root: t.Root, Doc: dt, Images: images, Code: code}
	if s.IncludeImages != nil {
		base.Images = *s.IncludeImages
	}
	if s.IncludeCode != nil {
		base.Code = *s.IncludeCode
	}
	switch {
	case s.Lines != nil:
		r := *s.Lines
		if r.From > dt.N {
			note("select[%d]: lines [%d, %d] are outside %s, which has %d %s: nothing returned", t.Sel, r.From, r.To, dt.Name(), dt.N, wording.Plural(dt.N, "line", "lines"))
			return nil, notes
		}
		if r.To > dt.N {
			note("select[%d]: lines [%d, %d] of %s clamped to %s: the file has %d %s", t.Sel, r.From, r.To, dt.Name(), wording.LineSpan(r.From, dt.N), dt.N, wording.Plural(dt.N, "line", "lines"))
			r.To = dt.N
		}
		c := base
		c.Kind, c.From, c.To = LinesChunk, r.From, r.To
		chunks = append(chunks, &c)
	case len(s.Sections) > 0:
		for _, name := range s.Sections {
			sec, candidates := FindSection(dt.Structure, name)
			switch {
			case sec != nil:
				c := base
				c.Kind, c.Section = SectionChunk, sec.ID
				c.From, c.To = max(sec.Start, 1), min(sec.End, dt.N)
				if c.From > c.To {
					note("select[%d]: section '%s' of %s has no lines in the file", t.Sel, sec.ID, dt.Name())
					continue
				}
				chunks = append(chunks, &c)
			case len(candidates) > 0:
				note("select[%d]: section %s of %s is ambiguous: it may be %s; use the full id", t.Sel, wording.QuoteInput(name, '\''), dt.Name(), strings.Join(candidates, ", "))
			default:
				note("select[%d]: %s has no section %s%s; its sections: %s", t.Sel, dt.Name(), wording.QuoteInput(name, '\''), sectionHint(dt.Structure, name), SectionList(dt.Structure))
			}
		}
	default:
		c := base
		c.Kind, c.From, c.To = WholeDoc, dt.BodyFrom, dt.N
		chunks = append(chunks, &c)
	}
	return chunks, notes
}

// FindSection finds a section by its full id, else by a unique '/'-bounded
// suffix of its id (a leaf such as "rotation", or "tokens/rotation"). When
// the suffix is ambiguous it returns the candidates' full ids instead.
func FindSection(s domain.Structure, name string) (*domain.Section, []string) {
	for i := range s.Sections {
		if s.Sections[i].ID == name {
			return &s.Sections[i], nil
		}
	}
	var matches []int
	for i := range s.Sections {
		if strings.HasSuffix(s.Sections[i].ID, "/"+name) {
			matches = append(matches, i)
		}
	}
	if len(matches) == 1 {
		return &s.Sections[matches[0]], nil
	}
	var ids []string
	for _, i := range matches {
		ids = append(ids, s.Sections[i].ID)
	}
	return nil, ids
}

// SectionList names a doc's sections for an unknown-section note: the
// first 40, then how many more.
func SectionList(s domain.Structure) string {
	if len(s.Sections) == 0 {
		return "(none)"
	}
	var ids []string
	for i, sec := range s.Sections {
		if i == 40 {
			ids = append(ids, fmt.Sprintf("... (%d more: the doc's outline lists them all)", len(s.Sections)-40))
			break
		}
		ids = append(ids, sec.ID)
	}
	return strings.Join(ids, ", ")
}

// sectionHint suggests the sections an unknown section name meant (a typo:
// Suggest over the full ids and their leaves), as " (did you mean: ...?)".
func sectionHint(s domain.Structure, name string) string {
	ids := make([]string, len(s.Sections))
	for i, sec := range s.Sections {
		ids[i] = sec.ID
	}
	near := wording.Suggest(name, ids, 3)
	if len(near) == 0 {
		return ""
	}
	return " (did you mean: " + strings.Join(near, ", ") + "?)"
}
