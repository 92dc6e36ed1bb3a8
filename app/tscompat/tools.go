// Package tscompat holds the drop-in `librarian-ts` profile: seed 001's five tools (listDocuments,
// searchDocuments, getDocument, getDocuments, listTags) answering, byte for
// byte, what the original TypeScript server answered, so that a team can swap
// servers without touching its prompts. The recorded answers of the original
// (testdata/librarian-examples/recorded) are the specification; the replay
// test in adapters/mcpserver checks every one of them.
//
// What is kept from the original, bugs of taste included: paths shown with a
// leading '/'; a folder argument compared as a plain string prefix (only its
// leading and trailing slashes are dropped, so "\hono", "/hono//api" or
// "/hono/../react" simply match nothing); a fractional or negative depth;
// "(no tags)"; "No documents found." for every empty answer, an unknown
// folder included; its document order (at each level subfolders first, then
// index.md, then files, names in byte order).
//
// What is not kept (spec/tools.md, recorded/README.md): files are read
// through the index source, confined to the library root, and re-read when
// they change; regexes are Go's RE2 (linear time) with the original's literal
// fallback for an invalid pattern; frontmatter is never executed; answers
// with many entries are cut at the library's answer budget
// (LibraryConfig.MaxAnswerTokens; 0 = none), with a closing note naming what
// was left out.
//
// It imports the domain, domain/textmatch (the whole-body regex planner),
// app/library and the standard library, no other use case.
package tscompat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/wording"
)

// ListRequest is listDocuments' arguments.
type ListRequest struct {
	// Directory is the folder to list ("/" or "" is the whole library).
	Directory string
	// Tags keeps docs carrying ANY of these tags (exact, case-sensitive).
	Tags []string
	// IncludeContents answers each doc's body instead of its path and tags.
	IncludeContents bool
	// Depth is the most path segments below Directory a doc may have, its
	// file name included (1 = docs directly in Directory); Directory's own
	// index.md is always kept. Negative is unlimited: the tool's default is -1,
	// not the zero value.
	Depth float64
}

// SearchRequest is searchDocuments' arguments.
type SearchRequest struct {
	// Query is matched against each doc's body (the text after its frontmatter).
	Query string
	// Mode is "string" (a literal; the default when empty) or "regex" (Go
	// RE2; a pattern RE2 rejects is searched for as a literal, as the
	// original did with patterns JavaScript rejected).
	Mode          string
	CaseSensitive bool
	// Directory, Tags, IncludeContents and Depth are as in ListRequest.
	Directory       string
	Tags            []string
	IncludeContents bool
	Depth           float64
}

// TagsRequest is listTags' arguments.
type TagsRequest struct {
	// Directory and Depth are as in ListRequest.
	Directory string
	Depth     float64
	// IncludeFilepaths lists, under each tag, the docs that carry it.
	IncludeFilepaths bool
}

// tsNoDocuments and tsNoTags are the original's answers when nothing matched.
const (
	tsNoDocuments = "No documents found."
	tsNoTags      = "No tags found."
)

// tsDocNotFoundError is getDocument's "Document not found: <path as given>":
// as the original worded it for any path it could be sent, but a path
// longer than wording.MaxQuoted characters, or holding control characters
// (a NUL, a line break), is escaped and cut (wording.QuoteInput), where the
// original echoed 70,000 characters back, NUL bytes included.
type tsDocNotFoundError struct{ path string }

func (e *tsDocNotFoundError) Error() string {
	return "Document not found: " + wording.QuoteInput(e.path, 0)
}
func (e *tsDocNotFoundError) Is(target error) bool { return target == domain.ErrNotFound }

// tsDoc is a document as the original showed it: its path with a leading
// '/', its tags (inherited first) and, once opened, its body.
type tsDoc struct {
	*tsEntry
	body string
	text *library.Doc // what body is a view of (Evict)
}

// bodyOf sets d's body from its text when tsOpenTexts left it, and returns it.
func (d *tsDoc) bodyOf() string {
	if d.body == "" && d.text != nil {
		d.body = tsBody(d.text)
	}
	return d.body
}

// tsEntry is what a tsDoc shares with the catalog's view (tsView): a search
// of the whole library handles 11,111 of them, by pointer.
type tsEntry struct {
	doc  domain.Document
	path string
	line string // its listDocuments entry
}

// ListDocuments answers listDocuments: the docs of a folder, filtered by
// tags and depth, each as its path and tags, or with includeContents as the
// whole body.
func (l *Tools) ListDocuments(ctx context.Context, req ListRequest) (string, error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return "", err
	}
	view := l.tsViewOf(cat)
	docs := l.tsScopeOf(cat, req.Directory, req.Tags, req.Depth)
	if !req.IncludeContents {
		const hint = "Narrow directory, tags or depth."
		if len(docs) == len(view.docs) {
			// The whole library: the same answer until the catalog changes.
			return view.whole(func() string { return l.tsRenderList(docs, hint) }), nil
		}
		return l.tsRenderList(docs, hint), nil
	}
	opened, err := l.tsOpen(ctx, docs)
	if err != nil {
		return "", err
	}
	return l.tsRenderContents(opened, "Narrow directory, tags or depth, or fetch them with getDocuments:"), nil
}

// GetDocument answers getDocument: one doc, by its path relative to the
// library root (a leading '/' optional). An unknown path is an error
// wrapping domain.ErrNotFound, worded as the original: "Document not found:
// <path as given>".
func (l *Tools) GetDocument(ctx context.Context, filepath string) (string, error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return "", err
	}
	entry, ok := l.tsViewOf(cat).byPath[tsNormalizePath(filepath)]
	if !ok {
		return "", &tsDocNotFoundError{path: filepath}
	}
	p, err := l.lib.OpenText(ctx, entry.doc)
	if errors.Is(err, domain.ErrNotFound) {
		// Listed a moment ago, gone now.
		return "", &tsDocNotFoundError{path: filepath}
	}
	if err != nil {
		return "", err
	}
	return tsRenderDocument(tsDoc{tsEntry: entry, body: tsBody(p)}), nil
}

// GetDocuments answers getDocuments: the docs at the given paths, in the
// order given, duplicates repeated; unknown or unreadable paths are left out
// without a word, as the original did.
func (l *Tools) GetDocuments(ctx context.Context, filepaths []string) (string, error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return "", err
	}
	byPath := l.tsViewOf(cat).byPath
	var found []tsDoc
	for _, fp := range filepaths {
		entry, ok := byPath[tsNormalizePath(fp)]
		if !ok {
			continue
		}
		p, err := l.lib.OpenText(ctx, entry.doc)
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return "", ctxErr
			}
			continue
		}
		found = append(found, tsDoc{tsEntry: entry, body: tsBody(p)})
	}
	return l.tsRenderContents(found, "Fetch them with getDocuments in another call:"), nil
}

// ListTags answers listTags: every tag of the folder's docs with the number
// of docs carrying it, most used first, ties in the order the tags first
// appear (docs in order, each doc's tags in order).
func (l *Tools) ListTags(ctx context.Context, req TagsRequest) (string, error) {
	docs, err := l.tsScope(ctx, req.Directory, nil, req.Depth)
	if err != nil {
		return "", err
	}
	type tagCount struct {
		tag   string
		paths []string
	}
	var counts []*tagCount
	byTag := map[string]*tagCount{}
	for _, d := range docs {
		for _, tag := range d.doc.Tags {
			c := byTag[tag]
			if c == nil {
				c = &tagCount{tag: tag}
				byTag[tag] = c
				counts = append(counts, c)
			}
			c.paths = append(c.paths, d.path)
		}
	}
	if len(counts) == 0 {
		return tsNoTags, nil
	}
	slices.SortStableFunc(counts, func(a, b *tagCount) int { return len(b.paths) - len(a.paths) })
	entries := make([]string, len(counts))
	for i, c := range counts {
		var b strings.Builder
		fmt.Fprintf(&b, "- %s (%d)", c.tag, len(c.paths))
		if req.IncludeFilepaths {
			for _, p := range c.paths {
				b.WriteString("\n  - ")
				b.WriteString(p)
			}
		}
		entries[i] = b.String()
	}
	kept, left := l.tsFit(entries, "\n")
	out := strings.Join(entries[:kept], "\n")
	if left > 0 {
		out += "\n\n" + l.tsLeftOut(left, "tags", "Narrow directory or depth, or leave out includeFilepaths.", nil)
	}
	return out, nil
}

// tsScope returns the catalog's docs in the folder, within the depth and
// carrying any of the tags, in the original's order. It applies the
// original's rules, not Scope's: the folder is a plain prefix (Scope cleans
// it and refuses '..' or '\'), and an unknown folder is simply empty (Scope
// reports it as not found, with hints).
func (l *Tools) tsScope(ctx context.Context, directory string, tags []string, depth float64) ([]tsDoc, error) {
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	return l.tsScopeOf(cat, directory, tags, depth), nil
}

// tsScopeOf is tsScope over catalog cat.
func (l *Tools) tsScopeOf(cat *domain.Catalog, directory string, tags []string, depth float64) []tsDoc {
	prefix := tsNormalizePath(directory)
	if prefix != "/" {
		prefix += "/"
	}
	// The view is in the original's order: filtering keeps it. The whole
	// library is the view itself (callers read it, never change it).
	view := l.tsViewOf(cat).docs
	if prefix == "/" && depth < 0 && len(tags) == 0 {
		return view
	}
	var out []tsDoc
	for _, d := range view {
		p := d.path
		if !strings.HasPrefix(p, prefix) {
			continue
		}
		if depth >= 0 {
			rel := p[len(prefix):]
			if rel != "index.md" && float64(tsSegments(rel)) > depth {
				continue
			}
		}
		if len(tags) > 0 && !domain.HasAnyTag(d.doc.Tags, tags) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// tsOpen reads the bodies of docs, keeping their order. A doc that cannot be
// read (removed since the catalog was taken, or refused) is left out, as the
// original left out files it could not load.
func (l *Tools) tsOpen(ctx context.Context, docs []tsDoc) ([]tsDoc, error) {
	return l.tsOpenTexts(ctx, docs, true)
}

// tsOpenTexts is tsOpen; without bodies, each doc's body is left for its
// reader to take (tsDoc.bodyOf): finding where a body starts reads the
// doc's first page, and a search that did it for every doc before matching
// any held every doc's first page at once.
func (l *Tools) tsOpenTexts(ctx context.Context, docs []tsDoc, bodies bool) ([]tsDoc, error) {
	parsed, _ := l.lib.OpenAllTexts(ctx, len(docs), func(i int) *domain.Document { return &docs[i].doc })
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]tsDoc, 0, len(docs))
	for i, p := range parsed {
		if p == nil {
			continue
		}
		d := docs[i]
		d.text = p
		if bodies {
			d.body = tsBody(p)
		}
		out = append(out, d)
	}
	return out, nil
}

// tsRenderList is the original's list: "- /path\n  - tags: a, b" per doc.
func (l *Tools) tsRenderList(docs []tsDoc, hint string) string {
	if len(docs) == 0 {
		return tsNoDocuments
	}
	entries := make([]string, len(docs))
	for i, d := range docs {
		entries[i] = d.line
		if entries[i] == "" {
			entries[i] = "- " + d.path + "\n  - tags: " + tsTags(d.doc.Tags)
		}
	}
	kept, left := l.tsFit(entries, "\n")
	out := strings.Join(entries[:kept], "\n")
	if left > 0 {
		out += "\n\n" + l.tsLeftOut(left, "documents", hint, nil)
	}
	return out
}

// tsRenderContents is the original's documents with their bodies, one
// blank line apart.
func (l *Tools) tsRenderContents(docs []tsDoc, hint string) string {
	if len(docs) == 0 {
		return tsNoDocuments
	}
	entries := make([]string, len(docs))
	for i, d := range docs {
		entries[i] = tsRenderDocument(d)
	}
	kept, left := l.tsFit(entries, "\n\n")
	out := strings.Join(entries[:kept], "\n\n")
	if left > 0 {
		paths := make([]string, 0, left)
		for _, d := range docs[kept:] {
			paths = append(paths, d.path)
		}
		out += "\n\n" + l.tsLeftOut(left, "documents", hint, paths)
	}
	return out
}

// tsRenderDocument is the original's one document: its path in bold, its
// tags, and its body between "======" lines.
func tsRenderDocument(d tsDoc) string {
	return "**" + d.path + "**\n- tags: " + tsTags(d.doc.Tags) + "\n======\n" + d.bodyOf() + "\n======"
}

func tsTags(tags []string) string {
	if len(tags) == 0 {
		return "(no tags)"
	}
	return strings.Join(tags, ", ")
}

// tsFit says how many entries, joined by sep, fit the answer budget (at
// least one: an entry is never cut), and how many are left out.
func (l *Tools) tsFit(entries []string, sep string) (kept, left int) {
	budget := l.lib.Config().MaxAnswerTokens * 4 // bytes: domain.EstimateTokens is bytes / 4
	if budget <= 0 {
		return len(entries), 0
	}
	used := 0
	for i, e := range entries {
		size := len(e)
		if i > 0 {
			size += len(sep)
		}
		if i > 0 && used+size > budget {
			return i, len(entries) - i
		}
		used += size
	}
	return len(entries), 0
}

// tsMaxLeftPaths caps the paths a left-out note names.
const tsMaxLeftPaths = 50

// tsLeftOut is the note closing an answer the budget cut. It is not the
// original's (which had no budget): agents read it as plain text.
func (l *Tools) tsLeftOut(n int, what, hint string, paths []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Left out (answer limit of ~%d tokens reached): %d more %s. %s", l.lib.Config().MaxAnswerTokens, n, what, hint)
	for i, p := range paths {
		if i == tsMaxLeftPaths {
			fmt.Fprintf(&b, " ... and %d more", len(paths)-i)
			break
		}
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(" ")
		b.WriteString(p)
	}
	return b.String()
}

// tsNormalizePath is the original's normalizePath: leading and trailing
// slashes dropped, one leading slash added. Nothing else is cleaned.
func tsNormalizePath(p string) string {
	return "/" + strings.TrimRight(strings.TrimLeft(p, "/"), "/")
}

// tsSegments counts the non-empty '/'-separated segments of p.
func tsSegments(p string) int {
	n := 0
	for seg, rest := tsNextSegment(p); seg != ""; seg, rest = tsNextSegment(rest) {
		n++
	}
	return n
}

// tsNextSegment splits p's first non-empty '/'-separated segment from the
// rest (which starts at the '/' after it); seg is "" when p has none. It
// walks a path as strings.FieldsFunc on '/' would, without allocating:
// sorting 10,000 paths compares them 150,000 times.
func tsNextSegment(p string) (seg, rest string) {
	p = strings.TrimLeft(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}

// tsComparePaths is the original's document order: component by component,
// a folder before a file, index.md before the other files of its folder,
// names in byte order (the original used the locale's collation, which
// agrees with byte order on lower-case ASCII names such as its corpus').
func tsComparePaths(a, b string) int {
	sa, ra := tsNextSegment(a)
	sb, rb := tsNextSegment(b)
	for sa != "" && sb != "" {
		nextA, restA := tsNextSegment(ra)
		nextB, restB := tsNextSegment(rb)
		lastA, lastB := nextA == "", nextB == ""
		if lastA && lastB {
			switch {
			case sa == sb:
				return 0
			case sa == "index.md":
				return -1
			case sb == "index.md":
				return 1
			}
			return strings.Compare(sa, sb)
		}
		if sa != sb {
			switch {
			case lastA:
				return 1
			case lastB:
				return -1
			}
			return strings.Compare(sa, sb)
		}
		sa, ra, sb, rb = nextA, restA, nextB, restB
	}
	// One ran out of segments: the shorter first, as the count difference.
	na, nb := tsSegments(ra), tsSegments(rb)
	if sa != "" {
		na++
	}
	if sb != "" {
		nb++
	}
	return na - nb
}

// tsBody is a doc's text as the original held it: everything after its
// frontmatter block (the line after the closing '---'), without a byte
// order mark.
func tsBody(p *library.Doc) string {
	src := p.Content
	for line := 0; line < p.Structure.FrontmatterEnd; line++ {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			src = nil
			break
		}
		src = src[i+1:]
	}
	// A view, not a copy: a common-word search reads every body, and the
	// cached bytes are never written to (a changed file gets new ones).
	return strings.TrimPrefix(unsafe.String(unsafe.SliceData(src), len(src)), "\ufeff")
}
