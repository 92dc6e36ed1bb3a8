package browse

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/wording"
)

// TagsRequest is list_tags' arguments.
type TagsRequest struct {
	// Root and Depth scope the docs whose tags are counted, as in domain.Scope.
	Root  string
	Depth int
	// IncludePaths lists, under each tag, the paths of the docs carrying it.
	IncludePaths bool
}

// ListTags renders seed 001's tag counts over the docs in scope: one
// `- tag (count)` line per tag, most used first, ties by name in byte
// order; with IncludePaths, each doc carrying the tag follows as an
// `  - path` line (relative to the library root, in path order). A doc's
// tags are its convention's: inherited ones included, so a folder's
// index.md tag counts once for every doc below it.
func (l *Browser) ListTags(ctx context.Context, req TagsRequest) (string, error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return "", err
	}
	docs, root, err := domain.ScopeDocs(cat, domain.Scope{Root: req.Root, Depth: req.Depth})
	if err != nil {
		return "", err
	}
	paths := map[string][]string{}
	for _, d := range docs {
		for _, t := range d.Tags {
			paths[t] = append(paths[t], d.Path)
		}
	}
	tags := make([]string, 0, len(paths))
	for t := range paths {
		tags = append(tags, t)
	}
	sort.Slice(tags, func(i, j int) bool {
		a, b := tags[i], tags[j]
		if len(paths[a]) != len(paths[b]) {
			return len(paths[a]) > len(paths[b])
		}
		return a < b
	})

	var b strings.Builder
	if len(tags) == 0 {
		where := "in the library"
		if root != "" {
			where = "under " + root + "/"
		}
		if req.Depth >= 0 {
			// Counting every doc would hide that depth left the others out.
			where = fmt.Sprintf("within depth %d of %s", req.Depth, strings.TrimPrefix(strings.TrimPrefix(where, "in "), "under "))
		}
		fmt.Fprintf(&b, "No tags: none of the %d %s %s carries one.\n", len(docs), wording.Plural(len(docs), "doc", "docs"), where)
	}
	for _, t := range tags {
		fmt.Fprintf(&b, "- %s (%d)\n", t, len(paths[t]))
		if req.IncludePaths {
			for _, p := range paths[t] {
				fmt.Fprintf(&b, "  - %s\n", p)
			}
		}
	}
	wording.WriteNotes(&b, domain.ScopedNotes(cat.Notes, req.Root, l.lib.Config().Commands.OrTools()))
	return strings.TrimRight(b.String(), "\n"), nil
}
