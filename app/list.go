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
	// SectionDepth caps the outline's heading levels (2 = `#` and `##`
	// headings, 0 = no outline); nil or negative is unlimited.
	SectionDepth *int
	// MaxTokens bounds the answer: nil takes LibraryConfig.MaxAnswerTokens,
	// 0 means no limit.
	MaxTokens *int
}

// ListDocuments renders seed 000's tree: a line per folder with its doc
// count and token sum (its whole subtree), each doc with id, file name,
// tokens, summary and tags, then its section outline with full ids.
//
// The answer is bounded like get_documents': past the budget (MaxTokens,
// else LibraryConfig.MaxAnswerTokens; 0 = none) the listing stops at a whole
// doc and ends with a note naming the folders left out, so a huge library
// is browsed folder by folder instead of in one answer no client accepts.
// Only the docs shown are read and parsed.
func (l *Library) ListDocuments(ctx context.Context, req ListRequest) (string, error) {
	budget := l.cfg.MaxAnswerTokens
	if req.MaxTokens != nil {
		if *req.MaxTokens < 0 {
			return "", fmt.Errorf("%w: 'max_tokens' must be 0 (no limit) or more, got %d", domain.ErrInvalidArgument, *req.MaxTokens)
		}
		budget = *req.MaxTokens
	}
	cat, err := l.Catalog(ctx)
	if err != nil {
		return "", err
	}
	docs, root, err := domain.ScopeDocs(cat, req.Scope)
	if err != nil {
		return "", err
	}
	outline := req.SectionDepth == nil || *req.SectionDepth != 0
	sizes, sizeErrs := l.sizes(ctx, docs)
	notes := append([]string(nil), cat.Notes...)

	type folderStat struct{ docs, tokens int }
	stats := map[string]*folderStat{root: {}}
	byFolder := map[string][]int{}
	docTokens := make([]int, len(docs))
	for i, d := range docs {
		dir := docFolder(d.Path)
		byFolder[dir] = append(byFolder[dir], i)
		docTokens[i] = d.Tokens
		if !d.HasTokens {
			docTokens[i] = domain.EstimateTokens(sizes[i])
		}
		// Every folder from the doc's own up to the root counts it: a
		// folder line sums its whole subtree.
		for f := dir; ; f = parentFolder(f) {
			st := stats[f]
			if st == nil {
				st = &folderStat{}
				stats[f] = st
			}
			st.docs++
			st.tokens += docTokens[i]
			if f == root {
				break
			}
		}
	}
	folders := make([]string, 0, len(stats))
	for f := range stats {
		folders = append(folders, f)
	}
	sort.Slice(folders, func(i, j int) bool { return folderLess(folders[i], folders[j]) })

	var b strings.Builder
	var block strings.Builder
	shownDocs := 0
	cutAt := -1 // index in folders of the first folder not wholly shown
	fits := func(more int) bool { return budget == 0 || (b.Len()+more+3)/4 <= budget }
	for fi, f := range folders {
		block.Reset()
		st := stats[f]
		name := f + "/"
		if f == "" {
			name = "./"
		}
		// One form for every count, as seed 000 prints them, so the line
		// parses the same way for 1 doc as for 2.
		fmt.Fprintf(&block, "%s (%d docs, ~%d tokens)", name, st.docs, st.tokens)
		if desc, ok := cat.Folders[f]; ok {
			if text := firstNonEmpty(desc.Summary, desc.Title); text != "" {
				fmt.Fprintf(&block, " — %s", text)
			}
		}
		block.WriteString("\n")
		if !fits(block.Len()) && shownDocs > 0 {
			cutAt = fi
			break
		}
		folderStart, shownBefore := b.Len(), shownDocs
		b.WriteString(block.String())
		members := byFolder[f]
		// Read and parse a folder's docs together (in parallel), a batch
		// at a time, so a cut stops the reading too.
		for lo := 0; lo < len(members) && cutAt < 0; lo += listBatch {
			batch := members[lo:min(lo+listBatch, len(members))]
			var parsed []*parsedDoc
			var errs []error
			if outline {
				batchDocs := make([]domain.Document, len(batch))
				for k, i := range batch {
					batchDocs[k] = docs[i]
				}
				parsed, errs = l.openAll(ctx, batchDocs)
			}
			for k, i := range batch {
				d := docs[i]
				block.Reset()
				fmt.Fprintf(&block, "- %s [%s] ~%d tokens", d.ID, path.Base(d.Path), docTokens[i])
				if d.Summary != "" {
					fmt.Fprintf(&block, " — %s", d.Summary)
				}
				if len(d.Tags) > 0 {
					fmt.Fprintf(&block, " · tags: %s", strings.Join(d.Tags, ", "))
				}
				block.WriteString("\n")
				docErr := sizeErrs[i]
				if outline && docErr == nil {
					docErr = errs[k]
				}
				switch {
				case docErr != nil:
					block.WriteString("(not readable: see Notes)\n")
				case outline:
					writeOutline(&block, parsed[k].structure, req.LineBounds, req.SectionDepth)
				}
				if !fits(block.Len()) && shownDocs > 0 {
					cutAt = fi
					break
				}
				if docErr != nil {
					notes = append(notes, openNote(d, docErr))
				} else if outline && parsed[k].structure.Simplified != "" {
					notes = append(notes, fmt.Sprintf("simplified: %s (%s): too costly to parse in full (%s); its sections "+
						"come from a plain heading scan (# headings outside top-level fences)", d.ID, d.Path, parsed[k].structure.Simplified))
				}
				b.WriteString(block.String())
				shownDocs++
			}
		}
		if cutAt >= 0 {
			if shownDocs == shownBefore && len(members) > 0 {
				// None of the folder's own docs fit: drop its line too, it
				// is listed among the folders left out.
				kept := b.String()[:folderStart]
				b.Reset()
				b.WriteString(kept)
			}
			break
		}
	}
	if len(docs) == 0 {
		b.WriteString("(no documents match)\n")
	}
	if cutAt >= 0 {
		writeListCut(&b, budget, len(docs)-shownDocs, folders[cutAt:], root)
	}
	domain.WriteNotes(&b, notes)
	return strings.TrimRight(b.String(), "\n"), nil
}

// listBatch is how many docs of a folder are read and parsed together.
const listBatch = 64

// writeListCut ends a listing cut by its budget: what was left out, and
// the folders to list next, as ready-to-send roots.
func writeListCut(b *strings.Builder, budget, docsLeft int, left []string, root string) {
	fmt.Fprintf(b, "\nLeft out (over max_tokens=%d): %d %s. List a narrower root, pass section_depth=0 for doc lines only, or max_tokens=0 for no limit. Folders not (wholly) shown:\n",
		budget, docsLeft, domain.Plural(docsLeft, "doc", "docs"))
	const most = 30
	for i, f := range left {
		if i == most {
			fmt.Fprintf(b, "- ... and %d more\n", len(left)-most)
			break
		}
		if f == "" {
			f = "."
		}
		fmt.Fprintf(b, "- root=%q\n", f)
	}
}

// sizes returns each doc's file size for token estimates, from the
// catalog's stamps where it has them, else from a Stat (only for docs the
// index gives no token count).
func (l *Library) sizes(ctx context.Context, docs []domain.Document) ([]int64, []error) {
	sizes := make([]int64, len(docs))
	errs := make([]error, len(docs))
	for i, d := range docs {
		switch {
		case d.Stamp != (domain.Stamp{}):
			sizes[i] = d.Stamp.Size
		case !d.HasTokens:
			st, err := l.source.Stat(ctx, d.Path)
			sizes[i], errs[i] = st.Size, err
		}
	}
	return sizes, errs
}

// writeOutline writes a doc's section outline in seed 000's form.
func writeOutline(b *strings.Builder, s domain.Structure, lineBounds bool, maxDepth *int) {
	var shown []domain.Section
	for _, sec := range s.Sections {
		// section_depth caps heading levels, as seed 000 says: 2 keeps
		// `#` and `##` headings (and _preamble); negative is no cap.
		if maxDepth != nil && *maxDepth >= 0 && sec.Level > *maxDepth {
			continue
		}
		shown = append(shown, sec)
	}
	if len(shown) == 0 {
		fmt.Fprintf(b, "no sections, %d lines\n", s.Lines)
		return
	}
	fmt.Fprintf(b, "sections, %d lines:\n", s.Lines)
	for _, sec := range shown {
		b.WriteString("§ ")
		b.WriteString(sec.ID)
		if sec.Heading != "" || sec.Level > 0 {
			fmt.Fprintf(b, " %q", sec.Heading)
		}
		if lineBounds {
			fmt.Fprintf(b, " %s", domain.LineSpan(sec.Start, sec.End))
		}
		b.WriteString("\n")
	}
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
