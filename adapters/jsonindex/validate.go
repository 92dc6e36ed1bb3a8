package jsonindex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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
// and returns its entries in index order, or every problem it has. id and
// path are required; the other fields are optional but must have the right
// type; fields it does not know are allowed. Invalid JSON, or a top level
// that is not {"documents": [...]}, is the only problem reported, since
// there are no entries to check then.
func parseIndex(name string, data []byte) ([]entry, []domain.Problem) {
	list, problem := topLevelList(name, data, "documents")
	if problem != nil {
		return nil, []domain.Problem{*problem}
	}

	var (
		entries  []entry
		problems []domain.Problem
		byID     = map[string]int{}
		byPath   = map[string]int{}
		wheres   = make([]string, len(list))
		ids      = make([]string, len(list)) // valid ids, "" where there is none
	)
	for i, raw := range list {
		wheres[i] = fmt.Sprintf("documents[%d]", i)
		var fields map[string]json.RawMessage
		if kind(raw) != "an object" || json.Unmarshal(raw, &fields) != nil {
			problems = append(problems, domain.Problem{Where: wheres[i],
				Message: "must be an object with 'id' and 'path', got " + abbreviate(raw)})
			continue
		}
		var bad []string
		id, idOK := requiredString(fields, "id", &bad)
		if idOK {
			ids[i] = id
			wheres[i] = fmt.Sprintf("documents[%d] (id %s)", i, quote(id))
		}
		docPath, pathOK := requiredString(fields, "path", &bad)
		if pathOK {
			if msg := domain.CheckIndexPath("path", docPath); msg != "" {
				bad = append(bad, msg)
				pathOK = false
			} else {
				docPath = path.Clean(docPath)
			}
		}
		title := optionalString(fields, "title", &bad)
		summary := optionalString(fields, "summary", &bad)
		tokens, hasTokens := optionalTokens(fields, "approx_tokens", &bad)
		tags := optionalTags(fields, "tags", &bad)

		if idOK {
			if first, dup := byID[id]; dup {
				bad = append(bad, fmt.Sprintf("duplicate id %s (also documents[%d])", quote(id), first))
			} else {
				byID[id] = i
			}
		}
		if pathOK {
			if first, dup := byPath[docPath]; dup {
				also := fmt.Sprintf("documents[%d]", first)
				if ids[first] != "" {
					also += ", id " + quote(ids[first])
				}
				bad = append(bad, fmt.Sprintf("duplicate path %s (also %s)", quote(docPath), also))
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
		return nil, problems
	}
	return entries, nil
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

// optionalTokens reads a token count: a JSON integer literal, 0 or more
// ("353", not "353.0", "3.5e2", "-1" or "\"353\"").
func optionalTokens(fields map[string]json.RawMessage, name string, bad *[]string) (int, bool) {
	raw, ok := fields[name]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, strconv.IntSize)
	if err != nil || n < 0 {
		*bad = append(*bad, fmt.Sprintf("'%s' must be a non-negative integer, got %s", name, abbreviate(raw)))
		return 0, false
	}
	return int(n), true
}

// optionalTags reads a list of non-empty strings, dropping repeats (the
// first occurrence keeps its place).
func optionalTags(fields map[string]json.RawMessage, name string, bad *[]string) []string {
	raw, ok := fields[name]
	if !ok {
		return nil
	}
	var items []json.RawMessage
	if kind(raw) != "a list" || json.Unmarshal(raw, &items) != nil {
		*bad = append(*bad, fmt.Sprintf("'%s' must be a list of strings, got %s", name, abbreviate(raw)))
		return nil
	}
	var tags []string
	for j, item := range items {
		s, ok := stringValue(item)
		switch {
		case !ok:
			*bad = append(*bad, fmt.Sprintf("'%s[%d]' must be a string, got %s", name, j, abbreviate(item)))
		case strings.TrimSpace(s) == "":
			*bad = append(*bad, fmt.Sprintf("'%s[%d]' is empty", name, j))
		case !slices.Contains(tags, s):
			tags = append(tags, s)
		}
	}
	return tags
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
