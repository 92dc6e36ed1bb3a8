package fileimages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/librarian/librarian/domain"
)

// parseImages reads seed 000's image index:
//
//	{"images": [{"id": "img-login-sequence", "file": "login-sequence.png", "caption": "..."}]}
//
// where file is relative to the index's folder, and returns its images by
// id, or every problem it has, worded as jsonindex words the doc index's.
// id and file are required; caption is optional but must be a string;
// fields it does not know are allowed. Invalid JSON, or a top level that is
// not {"images": [...]}, is the only problem reported, since there are no
// entries to check then.
func parseImages(name string, data []byte) (map[string]domain.Image, []domain.Problem) {
	list, problem := topLevelList(name, data, "images")
	if problem != nil {
		return nil, []domain.Problem{*problem}
	}
	images := make(map[string]domain.Image, len(list))
	first := map[string]int{} // id -> its first entry
	var problems []domain.Problem
	for i, raw := range list {
		where := fmt.Sprintf("images[%d]", i)
		var fields map[string]json.RawMessage
		if kind(raw) != "an object" || json.Unmarshal(raw, &fields) != nil {
			problems = append(problems, domain.Problem{Where: where,
				Message: "must be an object with 'id' and 'file', got " + abbreviate(raw)})
			continue
		}
		var bad []string
		id, idOK := requiredString(fields, "id", &bad)
		if idOK {
			where = fmt.Sprintf("images[%d] (id %s)", i, quote(id))
		}
		file, fileOK := requiredString(fields, "file", &bad)
		if fileOK {
			if msg := domain.CheckIndexPath("file", file); msg != "" {
				bad = append(bad, msg)
			} else {
				file = path.Clean(file)
			}
		}
		caption := optionalString(fields, "caption", &bad)
		if idOK {
			if j, dup := first[id]; dup {
				bad = append(bad, fmt.Sprintf("duplicate id %s (also images[%d])", quote(id), j))
			} else {
				first[id] = i
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

// syntaxProblem places a JSON syntax error at its line and column
// ("index.json:4:7"), both 1-based, the column counted in characters.
func syntaxProblem(name string, data []byte, se *json.SyntaxError) domain.Problem {
	// Offset counts the bytes read up to and including the offending one.
	pos := min(max(int(se.Offset)-1, 0), len(data))
	before := data[:pos]
	line := 1 + bytes.Count(before, []byte("\n"))
	col := 1 + utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:])
	return domain.Problem{Where: fmt.Sprintf("%s:%d:%d", name, line, col), Message: "invalid JSON: " + se.Error()}
}

// topLevelList checks that data is valid JSON holding an object with a list
// under key, and returns that list's items.
func topLevelList(name string, data []byte, key string) ([]json.RawMessage, *domain.Problem) {
	shape := fmt.Sprintf(`{"%s": [...]}`, key)
	// Unmarshal checks the whole input's syntax before decoding any of it.
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		if se, ok := errors.AsType[*json.SyntaxError](err); ok {
			p := syntaxProblem(name, data, se)
			return nil, &p
		}
		return nil, &domain.Problem{Where: name, Message: fmt.Sprintf("top level must be an object %s, got %s", shape, kind(data))}
	}
	if fields == nil { // the JSON was null
		return nil, &domain.Problem{Where: name, Message: fmt.Sprintf("top level must be an object %s, got null", shape)}
	}
	raw, ok := fields[key]
	if !ok {
		return nil, &domain.Problem{Where: name, Message: fmt.Sprintf("missing required field '%s': the index must be %s", key, shape)}
	}
	var list []json.RawMessage
	if kind(raw) != "a list" || json.Unmarshal(raw, &list) != nil {
		return nil, &domain.Problem{Where: name, Message: fmt.Sprintf("'%s' must be a list, got %s", key, kind(raw))}
	}
	return list, nil
}

func requiredString(fields map[string]json.RawMessage, name string, bad *[]string) (string, bool) {
	raw, ok := fields[name]
	if !ok {
		*bad = append(*bad, fmt.Sprintf("missing required field '%s'", name))
		return "", false
	}
	s, ok := stringValue(raw)
	switch {
	case !ok:
		*bad = append(*bad, fmt.Sprintf("'%s' must be a string, got %s", name, abbreviate(raw)))
		return "", false
	case strings.TrimSpace(s) == "":
		*bad = append(*bad, fmt.Sprintf("'%s' is empty", name))
		return "", false
	}
	return s, true
}

func optionalString(fields map[string]json.RawMessage, name string, bad *[]string) string {
	raw, ok := fields[name]
	if !ok {
		return ""
	}
	s, ok := stringValue(raw)
	if !ok {
		*bad = append(*bad, fmt.Sprintf("'%s' must be a string, got %s", name, abbreviate(raw)))
	}
	return s
}

// stringValue decodes a JSON string; null and every other kind are not one.
func stringValue(raw json.RawMessage) (string, bool) {
	var s string
	if kind(raw) != "a string" || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// kind names the kind of a JSON value by its first byte.
func kind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// abbreviate shows a JSON value compactly, cut to about 40 characters.
func abbreviate(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		b.Reset()
		b.Write(bytes.TrimSpace(raw))
	}
	s := b.String()
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	r := []rune(s)
	return string(r[:37]) + "..."
}

// quote puts a value from the index in single quotes, as seed 000's
// messages do; one that holds control characters is Go-quoted instead, so
// a problem always stays on one line.
func quote(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) >= 0 || strings.Contains(s, "'") {
		return strconv.Quote(s)
	}
	return "'" + s + "'"
}
