package fileimages

import "github.com/librarian/librarian/domain"

// parseImages reads seed 000's image index:
//
//	{"images": [{"id": "img-login-sequence", "file": "login-sequence.png", "caption": "..."}]}
//
// where file is relative to the index's folder, and returns its images by
// id, or every problem it has, worded as the doc index's are.
// id and file are required; caption is optional but must be a string;
// fields it does not know are allowed. Invalid JSON, or a top level that is
// not {"images": [...]}, is the only problem reported, since there are no
// entries to check then. The rules and wording are the domain's, shared
// with the doc index (domain.IndexEntries, domain.IndexEntry); what is the
// images' own is here: their fields, and what file is relative to.
func parseImages(name string, data []byte) (map[string]domain.Image, []domain.Problem) {
	list, problem := domain.IndexEntries(name, data, "images")
	if problem != nil {
		return nil, []domain.Problem{*problem}
	}
	images := make(map[string]domain.Image, len(list))
	ids := domain.NewIndexIDs("images")
	var problems []domain.Problem
	for i, raw := range list {
		where := domain.IndexEntryWhere("images", i, "")
		fields, notObject := domain.ReadIndexEntry(raw, "id", "file")
		if fields == nil {
			problems = append(problems, domain.Problem{Where: where, Message: notObject})
			continue
		}
		id, idOK := fields.RequiredString("id")
		if idOK {
			where = domain.IndexEntryWhere("images", i, id)
		}
		file, _ := fields.RequiredPath("file") // relative to the index's folder
		caption := fields.OptionalString("caption")
		bad := fields.Problems()
		if idOK {
			if msg := ids.Claim(id, i); msg != "" {
				bad = append(bad, msg)
			}
		}
		for _, msg := range bad {
			problems = append(problems, domain.Problem{Where: where, Message: msg})
		}
		if len(bad) == 0 {
			images[id] = domain.Image{ID: id, File: file, Caption: caption}
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return images, nil
}
