package browse

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/wording"
)

// ListRequest is list_documents' arguments.
type ListRequest struct {
	domain.Scope
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
// A root that names a doc (id or path) instead of a folder answers that
// doc's line and its outline with line bounds and section sizes
// (listDocument).
//
// The answer is bounded like get_documents': past the budget (MaxTokens,
// else LibraryConfig.MaxAnswerTokens; 0 = none) the listing stops and ends
// with a note naming the highest folders left out. The budget is spent
// breadth first (domain.ListTree.Priority), so a first look at a huge
// library shows every folder under the root, with its counts, before the
// docs of any subfolder; the answer is still printed as a tree. Only the
// docs shown are read and parsed.
func (l *Browser) ListDocuments(ctx context.Context, req ListRequest) (string, error) {
	budget := l.lib.Config().MaxAnswerTokens
	if req.MaxTokens != nil {
		if *req.MaxTokens < 0 {
			return "", fmt.Errorf("%w: 'max_tokens' must be 0 (no limit) or more, got %d", domain.ErrInvalidArgument, *req.MaxTokens)
		}
		budget = *req.MaxTokens
	}
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return "", err
	}
	all, root, err := domain.ScopeDocs(cat, domain.Scope{Root: req.Root, Tags: req.Tags, Depth: -1})
	if errors.Is(err, domain.ErrNotFound) {
		if d, ok := docNamed(cat, req.Root); ok {
			return l.listDocument(ctx, d, req, budget, domain.ScopedNotes(cat.Notes, d.Path, l.lib.Config().Commands.OrTools()))
		}
	}
	if err != nil {
		return "", err
	}
	outline := req.SectionDepth == nil || *req.SectionDepth != 0
	sizes, sizeErrs := l.sizes(ctx, all)
	notes := domain.ScopedNotes(cat.Notes, req.Root, l.lib.Config().Commands.OrTools())

	paths := make([]string, len(all))
	docTokens := make([]int, len(all))
	inDepth := make([]bool, len(all))
	for i, d := range all {
		paths[i] = d.Path
		docTokens[i] = d.Tokens
		if !d.HasTokens {
			docTokens[i] = domain.EstimateTokens(sizes[i])
		}
		inDepth[i] = req.Depth < 0 || domain.DepthBelow(d.Path, root) <= req.Depth || domain.IsFolderIndex(d.Path, root)
	}
	tree := domain.BuildListTree(root, paths, docTokens, inDepth, req.Depth)

	// Spend the budget in priority order, keeping each item's text.
	lineText := make([]string, len(tree.Folders))
	lineShown := make([]bool, len(tree.Folders))
	ownShown := make([]int, len(tree.Folders))
	docText := map[int]string{}
	used, shownDocs, docsInDepth := 0, 0, 0
	for _, f := range tree.Folders {
		docsInDepth += len(f.Own)
	}
	// A cut listing ends with its Left out block: keep room for it (up to
	// 30 folders), and for the Notes block, so the whole answer stays
	// within the budget. Notes of docs read here are counted as they come.
	var notesBlock strings.Builder
	wording.WriteNotes(&notesBlock, notes)
	reserve := min(budget*4/10, listCutBytes) + notesBlock.Len()
	fits := func(more int) bool { return budget == 0 || (used+more+reserve+3)/4 <= budget }
	items := tree.Priority()
	cut := false
	var block strings.Builder
	for k := 0; k < len(items) && !cut; k++ {
		it := items[k]
		if it.Doc < 0 {
			block.Reset()
			writeFolderLine(&block, tree.Folders[it.Folder], cat)
			if k > 0 && !fits(block.Len()) {
				cut = true
				break
			}
			lineText[it.Folder], lineShown[it.Folder] = block.String(), true
			used += block.Len()
			continue
		}
		// A run of doc items: read and parse them together (in parallel),
		// a batch at a time, so a cut stops the reading too.
		end := k
		for end < len(items) && end-k < listBatch && items[end].Doc >= 0 {
			end++
		}
		batch := items[k:end]
		var parsed []*library.Doc
		var errs []error
		if outline {
			batchDocs := make([]domain.Document, len(batch))
			for n, it := range batch {
				batchDocs[n] = all[it.Doc]
			}
			parsed, errs = l.lib.OpenAll(ctx, batchDocs)
		}
		for n, it := range batch {
			d := all[it.Doc]
			block.Reset()
			writeDocLine(&block, d, path.Base(d.Path), docTokens[it.Doc])
			docErr := sizeErrs[it.Doc]
			if outline && docErr == nil {
				docErr = errs[n]
			}
			room := 0
			if budget > 0 {
				room = budget*4 - used - reserve - block.Len()
			}
			switch {
			case docErr != nil:
				block.WriteString("(not readable: see Notes)\n")
			case outline:
				st := outlineStyle{lineBounds: req.LineBounds, maxDepth: req.SectionDepth}
				if shownDocs == 0 && budget > 0 {
					// The first doc shown may be cut inside its outline, so
					// a doc with a huge outline still shows its start.
					st.room, st.mark = max(room, 1), true
				}
				writeOutline(&block, parsed[n].Structure, st)
			}
			if !fits(block.Len()) && shownDocs > 0 {
				cut = true
				break
			}
			if docErr != nil {
				notes = append(notes, library.OpenNote(d, docErr))
				used += len(notes[len(notes)-1]) + 3 // "- " and "\n"
			} else if outline && parsed[n].Structure.Simplified != "" {
				notes = append(notes, simplifiedNote(d, parsed[n].Structure.Simplified))
				used += len(notes[len(notes)-1]) + 3
			}
			docText[it.Doc] = block.String()
			used += block.Len()
			ownShown[it.Folder]++
			shownDocs++
		}
		k = end - 1
	}

	var b strings.Builder
	for i, f := range tree.Folders {
		if !lineShown[i] {
			continue
		}
		b.WriteString(lineText[i])
		for _, d := range f.Own {
			b.WriteString(docText[d])
		}
	}
	if len(all) == 0 {
		b.WriteString("(no documents match)\n")
	}
	if cut {
		writeListCut(&b, budget, docsInDepth-shownDocs, tree.LeftOut(lineShown, ownShown), req.Depth)
	}
	wording.WriteNotes(&b, notes)
	return strings.TrimRight(b.String(), "\n"), nil
}

// simplifiedNote says why a doc's outline comes from the plain heading scan.
func simplifiedNote(d domain.Document, why string) string {
	return fmt.Sprintf("simplified: %s (%s): too costly to parse in full (%s); its sections "+
		"come from a plain heading scan (# headings outside top-level fences)", d.ID, d.Path, why)
}

// writeFolderLine writes a folder's line: `backend/ (3 docs, ~704 tokens)`
// and its description. One form for every count, as seed 000 prints them,
// so the line parses the same way for 1 doc as for 2.
func writeFolderLine(b *strings.Builder, f domain.TreeFolder, cat *domain.Catalog) {
	name := f.Path + "/"
	if f.Path == "" {
		name = "./"
	}
	fmt.Fprintf(b, "%s (%d docs, ~%d tokens)", name, f.Docs, f.Tokens)
	if desc, ok := cat.Folders[f.Path]; ok {
		if text := cmp.Or(desc.Summary, desc.Title); text != "" {
			fmt.Fprintf(b, " — %s", text)
		}
	}
	b.WriteString("\n")
}

// writeDocLine writes a doc's line: `- caching [caching.md] ~226 tokens —
// summary · tags: a, b`.
func writeDocLine(b *strings.Builder, d domain.Document, file string, tokens int) {
	fmt.Fprintf(b, "- %s [%s] ~%d tokens", d.ID, file, tokens)
	if d.Summary != "" {
		fmt.Fprintf(b, " — %s", d.Summary)
	}
	if len(d.Tags) > 0 {
		fmt.Fprintf(b, " · tags: %s", strings.Join(d.Tags, ", "))
	}
	b.WriteString("\n")
}

// listCutBytes is about the most a Left out block takes (its note and 30
// folders).
const listCutBytes = 1400

// listBatch is how many docs of a folder are read and parsed together.
const listBatch = 64

// writeListCut ends a listing cut by its budget: what was left out, and
// the folders to list next, as ready-to-send roots (the highest folders
// not wholly shown; with the listing's depth carried down to them).
func writeListCut(b *strings.Builder, budget, docsLeft int, left []domain.LeftFolder, depth int) {
	fmt.Fprintf(b, "\nLeft out (over max_tokens=%d): %d %s. List a narrower root, pass section_depth=0 for doc lines only, or max_tokens=0 for no limit. Folders not (wholly) shown:\n",
		budget, docsLeft, wording.Plural(docsLeft, "doc", "docs"))
	const most = 30
	for i, f := range left {
		if i == most {
			fmt.Fprintf(b, "- ... and %d more\n", len(left)-most)
			break
		}
		name := f.Path
		if name == "" {
			name = "."
		}
		fmt.Fprintf(b, "- root=%q", name)
		switch {
		case f.OwnOnly:
			b.WriteString(" depth=1 (its own docs)")
		case depth >= 0:
			fmt.Fprintf(b, " depth=%d", depth-f.Level)
		}
		b.WriteString("\n")
	}
}

// sizes returns each doc's file size for token estimates, from the
// catalog's stamps where it has them, else from a Stat (only for docs the
// index gives no token count).
func (l *Browser) sizes(ctx context.Context, docs []domain.Document) ([]int64, []error) {
	sizes := make([]int64, len(docs))
	errs := make([]error, len(docs))
	for i, d := range docs {
		switch {
		case d.Stamp != (domain.Stamp{}):
			sizes[i] = d.Stamp.Size
		case !d.HasTokens:
			st, err := l.lib.Stat(ctx, d.Path)
			sizes[i], errs[i] = st.Size, err
		}
	}
	return sizes, errs
}
