package browse

import (
	"context"
	"fmt"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/answer"
)

// What a client that shows the library to a person needs: the docs to list
// as resources, a doc's or a section's text to read, and the names to
// complete (docs, sections, folders, tags).

// Docs returns the library's docs, in the catalog's order.
func (l *Browser) Docs(ctx context.Context) ([]domain.Document, error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	return cat.Docs, nil
}

// Doc returns the doc a name (id or library path) names; ok is false when
// none does.
func (l *Browser) Doc(ctx context.Context, name string) (domain.Document, bool, error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return domain.Document{}, false, err
	}
	d, ok := docNamed(cat, name)
	return d, ok, nil
}

// Sections returns the sections of the doc a name names, in document order.
func (l *Browser) Sections(ctx context.Context, name string) ([]domain.Section, error) {
	d, ok, err := l.Doc(ctx, name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: no doc %s", domain.ErrNotFound, name)
	}
	p, err := l.lib.Open(ctx, d)
	if err != nil {
		return nil, err
	}
	return p.Structure.Sections, nil
}

// Folders returns the library's folders that hold docs, and the tags its
// docs carry, each once, in catalog order.
func (l *Browser) Folders(ctx context.Context) (folders, tags []string, err error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return nil, nil, err
	}
	seenF, seenT := map[string]bool{}, map[string]bool{}
	for _, d := range cat.Docs {
		for dir := domain.FolderOf(d.Path); dir != "" && !seenF[dir]; dir = domain.FolderOf(dir) {
			seenF[dir] = true
			folders = append(folders, dir)
		}
		for _, t := range d.Tags {
			if !seenT[t] {
				seenT[t] = true
				tags = append(tags, t)
			}
		}
	}
	return folders, tags, nil
}

// ReadDoc returns a doc's text (or one section's, when section is not
// ""), whole, as get_documents returns it with no budget: verbatim lines
// under their header, images as their placeholder lines. ok is false when
// the library has no such doc or section.
func (l *Browser) ReadDoc(ctx context.Context, name, section string) (text string, ok bool, err error) {
	sel := domain.Selector{Doc: name}
	if section != "" {
		sel.Sections = []string{section}
	}
	noBudget := 0
	ans, err := l.GetDocuments(ctx, GetRequest{Select: []domain.Selector{sel}, IncludeCode: true, MaxTokens: &noBudget})
	if err != nil {
		return "", false, err
	}
	if len(ans.Unmatched) > 0 {
		return "", false, nil
	}
	return answer.Answer{Parts: ans.Parts}.String(), true, nil
}
