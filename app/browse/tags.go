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
	tl, err := l.TagsData(ctx, req)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if len(tl.Tags) == 0 {
		where := "in the library"
		if tl.Root != "" {
			where = "under " + tl.Root + "/"
		}
		if req.Depth >= 0 {
			// Counting every doc would hide that depth left the others out.
			where = fmt.Sprintf("within depth %d of %s", req.Depth, strings.TrimPrefix(strings.TrimPrefix(where, "in "), "under "))
		}
		fmt.Fprintf(&b, "No tags: none of the %d %s %s carries one.\n", tl.Docs, wording.Plural(tl.Docs, "doc", "docs"), where)
	}
	for _, t := range tl.Tags {
		fmt.Fprintf(&b, "- %s (%d)\n", t.Tag, len(t.Paths))
		if req.IncludePaths {
			for _, p := range t.Paths {
				fmt.Fprintf(&b, "  - %s\n", p)
			}
		}
	}
	wording.WriteNotes(&b, tl.Notes)
	return strings.TrimRight(b.String(), "\n"), nil
}

// TagList is list_tags' answer as data (the command line's tags --json).
type TagList struct {
	Root  string // the folder counted ("" the whole library), cleaned
	Docs  int    // docs in scope
	Tags  []TagCount
	Notes []string
}

// TagCount is one tag and the paths of the docs in scope carrying it, in
// path order.
type TagCount struct {
	Tag   string
	Paths []string
}

// TagsData counts the tags of the docs in scope as ListTags does, most
// used first, ties by name in byte order; every tag's paths are given
// (IncludePaths only shapes the text).
func (l *Browser) TagsData(ctx context.Context, req TagsRequest) (TagList, error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return TagList{}, err
	}
	docs, root, err := domain.ScopeDocs(cat, domain.Scope{Root: req.Root, Depth: req.Depth})
	if err != nil {
		return TagList{}, err
	}
	paths := map[string][]string{}
	for _, d := range docs {
		for _, t := range d.Tags {
			paths[t] = append(paths[t], d.Path)
		}
	}
	tl := TagList{Root: root, Docs: len(docs), Notes: domain.ScopedNotes(cat.Notes, req.Root, l.lib.Config().Commands.OrTools())}
	for t, ps := range paths {
		tl.Tags = append(tl.Tags, TagCount{Tag: t, Paths: ps})
	}
	sort.Slice(tl.Tags, func(i, j int) bool {
		a, b := tl.Tags[i], tl.Tags[j]
		if len(a.Paths) != len(b.Paths) {
			return len(a.Paths) > len(b.Paths)
		}
		return a.Tag < b.Tag
	})
	return tl, nil
}
