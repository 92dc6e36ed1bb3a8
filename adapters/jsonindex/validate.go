package jsonindex

import (
	"path"

	"github.com/librarian/librarian/domain"
)

// entry is one valid document of the index, with the words that locate it
// in the index for notes ("documents[3] (id 'dots')").
type entry struct {
	doc       domain.Document
	index     int
	where     string
	dir, base string // path.Dir and path.Base of doc.Path
}

// parseIndex reads seed 000's document index:
//
//	{"documents": [{"id", "path", "title", "summary", "approx_tokens", "tags"}]}
//
// and returns its entries in index order and its warnings, or every
// problem it has. id and
// path are required; the other fields are optional but must have the right
// type; fields it does not know are allowed. Invalid JSON, or a top level
// that is not {"documents": [...]}, is the only problem reported, since
// there are no entries to check then. The rules every seed 000 index shares
// (shape, field types, paths, duplicate ids) and their wording are the
// domain's (domain.IndexEntries, domain.IndexEntry); what is the documents'
// own is here: their fields. Two entries with the same path are not a
// problem (seed 000 fails a call for a missing field, a wrong type, a
// duplicate id or a bad path; an alias is a legitimate use): both are
// served, with a warning (domain.SamePathWarning).
func parseIndex(name string, data []byte) ([]entry, []string, []domain.Problem) {
	list, problem := domain.IndexEntries(name, data, "documents")
	if problem != nil {
		return nil, nil, []domain.Problem{*problem}
	}

	var (
		entries  []entry
		problems []domain.Problem
		warnings []string
		byID     = domain.NewIndexIDs("documents")
		byPath   = map[string]int{}
		wheres   = make([]string, len(list))
		ids      = make([]string, len(list)) // valid ids, "" where there is none
	)
	for i, raw := range list {
		wheres[i] = domain.IndexEntryWhere("documents", i, "")
		fields, notObject := domain.ReadIndexEntry(raw, "id", "path")
		if fields == nil {
			problems = append(problems, domain.Problem{Where: wheres[i], Message: notObject})
			continue
		}
		id, idOK := fields.RequiredString("id")
		if idOK {
			ids[i] = id
			wheres[i] = domain.IndexEntryWhere("documents", i, id)
		}
		docPath, pathOK := fields.RequiredPath("path")
		title := fields.OptionalString("title")
		summary := fields.OptionalString("summary")
		tokens, hasTokens := fields.OptionalCount("approx_tokens")
		tags := fields.OptionalStrings("tags")

		bad := fields.Problems()
		if idOK {
			if msg := byID.Claim(id, i); msg != "" {
				bad = append(bad, msg)
			}
		}
		if pathOK {
			if first, dup := byPath[docPath]; dup {
				if len(bad) == 0 {
					warnings = append(warnings, domain.SamePathWarning(wheres[i], docPath, wheres[first]))
				}
			} else {
				byPath[docPath] = i
			}
		}
		for _, msg := range bad {
			problems = append(problems, domain.Problem{Where: wheres[i], Message: msg})
		}
		if len(bad) == 0 {
			entries = append(entries, entry{index: i, where: wheres[i], dir: path.Dir(docPath), base: path.Base(docPath), doc: domain.Document{
				ID: id, Path: docPath, Title: title, Summary: summary,
				Tokens: tokens, HasTokens: hasTokens, Tags: tags,
			}})
		}
	}
	if len(problems) > 0 {
		return nil, nil, problems
	}
	return entries, warnings, nil
}
