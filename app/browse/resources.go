package browse

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

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

// Stat returns the stamp of a doc's file as it is now.
func (l *Browser) Stat(ctx context.Context, d domain.Document) (domain.Stamp, error) {
	return l.lib.Stat(ctx, d.Path)
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

// ImageList returns the library's image index by id, sorted by id; none
// when the library has no image store.
func (l *Browser) ImageList(ctx context.Context) ([]domain.Image, error) {
	store := l.lib.Images()
	if store == nil {
		return nil, nil
	}
	index, err := store.Images(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]domain.Image, 0, len(index))
	for id, img := range index {
		img.ID = id
		out = append(out, img)
	}
	slices.SortFunc(out, func(a, b domain.Image) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// ReadImage returns an image's bytes and type, within the library's
// per-image limit; ok is false when the library has no such image.
func (l *Browser) ReadImage(ctx context.Context, id string) (data []byte, mime string, ok bool, err error) {
	store := l.lib.Images()
	if store == nil {
		return nil, "", false, nil
	}
	data, err = store.Read(ctx, id, l.lib.Config().MaxImageBytes)
	if errors.Is(err, domain.ErrNotFound) || errors.Is(err, domain.ErrRefused) {
		return nil, "", false, nil
	}
	if err != nil {
		return nil, "", false, err
	}
	return data, imageMIME(data), true, nil
}
