package browse

import (
	"context"
	"errors"
	"path"
	"sort"
	"strings"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/textmatch"
)

// Listing is list_documents' answer as data, for a script (the command
// line's ls --json): every doc in scope with its outline, the folders
// holding them, and the notes the text answer would end with. It has no
// budget: a script that asks for a listing wants all of it, and a person's
// context window is not what it fills.
type Listing struct {
	// Root is the folder listed ("" the whole library), cleaned; when the
	// request's root named a doc, Doc is set and Docs holds that doc alone.
	Root string
	Doc  bool
	// Folders are the folders under Root (Root itself first) that hold a
	// doc in scope, in path order, with their whole subtree's counts.
	Folders []ListedFolder
	// Docs are the docs in scope, in path order.
	Docs  []ListedDoc
	Notes []string
}

// ListedFolder is one folder of a Listing.
type ListedFolder struct {
	Path           string // "" for the library root
	Title, Summary string // its description (index.md, in the frontmatter convention)
	Docs, Tokens   int    // docs in scope below it, and their ~tokens
}

// ListedDoc is one doc of a Listing.
type ListedDoc struct {
	domain.Document
	Tokens int // ~tokens, given by the index or estimated from the size
	// Lines is the doc's line count, 0 when it was not parsed (no
	// outline asked for, or not readable).
	Lines int
	// Sections is its outline (capped by SectionDepth), nil when no
	// outline was asked for or the doc is not readable (Unreadable says
	// why, and so does a note).
	Sections   []ListedSection
	Unreadable string
}

// ListedSection is one section of a doc's outline.
type ListedSection struct {
	domain.Section
	Tokens int // ~tokens of the section, its subsections included
}

// ListData answers req as ListDocuments does, as data: the same scope (a
// root naming a doc lists that doc), SectionDepth capping each outline's
// heading levels (0: none), every doc in scope whatever MaxTokens says.
func (l *Browser) ListData(ctx context.Context, req ListRequest) (Listing, error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return Listing{}, err
	}
	cmds := l.lib.Config().Commands.OrTools()
	docs, root, err := domain.ScopeDocs(cat, req.Scope)
	var out Listing
	if errors.Is(err, domain.ErrNotFound) {
		d, ok := docNamed(cat, req.Root)
		if !ok {
			return Listing{}, err
		}
		docs, root, err = []domain.Document{d}, d.Path, nil
		out.Doc = true
		out.Notes = domain.ScopedNotes(cat.Notes, d.Path, cmds)
	}
	if err != nil {
		return Listing{}, err
	}
	if !out.Doc {
		out.Notes = domain.ScopedNotes(cat.Notes, req.Root, cmds)
	}
	out.Root = root
	outline := req.SectionDepth == nil || *req.SectionDepth != 0
	sizes, sizeErrs := l.sizes(ctx, docs)
	var parsed []*library.Doc
	var errs []error
	if outline {
		parsed, errs = l.lib.OpenAll(ctx, docs)
	}
	folders := map[string]*ListedFolder{}
	for i, d := range docs {
		ld := ListedDoc{Document: d, Tokens: d.Tokens}
		if !d.HasTokens {
			ld.Tokens = domain.EstimateTokens(sizes[i])
		}
		openErr := sizeErrs[i]
		if outline && openErr == nil {
			openErr = errs[i]
		}
		switch {
		case openErr != nil:
			note := library.OpenNote(d, openErr)
			ld.Unreadable = note
			out.Notes = append(out.Notes, note)
		case outline:
			p := parsed[i]
			if !d.HasTokens {
				ld.Tokens = domain.DocTokens(d, len(p.Content))
			}
			ld.Lines = p.Structure.Lines
			starts := textmatch.LineStarts(p.Content)
			ld.Sections = []ListedSection{}
			for _, sec := range p.Structure.Sections {
				if req.SectionDepth != nil && *req.SectionDepth >= 0 && sec.Level > *req.SectionDepth {
					continue
				}
				ld.Sections = append(ld.Sections, ListedSection{Section: sec, Tokens: domain.SectionTokens(sec, starts, len(p.Content))})
			}
			if p.Structure.Simplified != "" {
				out.Notes = append(out.Notes, simplifiedNote(d, p.Structure.Simplified))
			}
		}
		out.Docs = append(out.Docs, ld)
		if out.Doc {
			continue
		}
		// The doc counts in every folder from the root down to its own.
		dir := path.Dir(d.Path)
		if dir == "." {
			dir = ""
		}
		for f := dir; ; f = parentFolder(f) {
			if root != "" && f != root && !strings.HasPrefix(f, root+"/") {
				break
			}
			lf := folders[f]
			if lf == nil {
				desc := cat.Folders[f]
				lf = &ListedFolder{Path: f, Title: desc.Title, Summary: desc.Summary}
				folders[f] = lf
			}
			lf.Docs++
			lf.Tokens += ld.Tokens
			if f == root || f == "" {
				break
			}
		}
	}
	for _, f := range folders {
		out.Folders = append(out.Folders, *f)
	}
	sort.Slice(out.Folders, func(i, j int) bool { return out.Folders[i].Path < out.Folders[j].Path })
	return out, nil
}

// parentFolder is the folder holding f ("" for a top-level folder).
func parentFolder(f string) string {
	if i := strings.LastIndexByte(f, '/'); i >= 0 {
		return f[:i]
	}
	return ""
}
