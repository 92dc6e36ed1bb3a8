package domain

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
)

// Seed 000's rules for its JSON index files ({"documents": [...]} and
// {"images": [...]}): the shape of the file, required and optional fields
// and their types, paths, duplicate ids, and the wording of each problem.
// They are pure functions over encoding/json, so every adapter that reads
// such a file reports the same problems in the same words; what a field
// means (a document's path, an image's file) stays with the adapter.

// IndexEntries checks that data, the contents of the index file name, is
// valid JSON holding an object with a list under key, and returns that
// list's items in order (an empty list gives none and no problem). Other
// top-level fields are allowed. Otherwise it returns the one problem that
// stops reading the file, placed at the file (a syntax error at its
// "name:line:column", both 1-based, the column counted in characters):
//
//	index.json:4:7: invalid JSON: invalid character '}' looking for beginning of value
//	index.json: top level must be an object {"documents": [...]}, got a list
//	index.json: missing required field 'documents': the index must be {"documents": [...]}
//	index.json: 'documents' must be a list, got null
func IndexEntries(name string, data []byte, key string) ([]json.RawMessage, *Problem) {
	shape := fmt.Sprintf(`{"%s": [...]}`, key)
	// Unmarshal checks the whole input's syntax before decoding any of it.
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		if se, ok := errors.AsType[*json.SyntaxError](err); ok {
			p := syntaxProblem(name, data, se)
			return nil, &p
		}
		return nil, &Problem{Where: name, Message: fmt.Sprintf("top level must be an object %s, got %s", shape, jsonKind(data))}
	}
	if fields == nil { // the JSON was null
		return nil, &Problem{Where: name, Message: fmt.Sprintf("top level must be an object %s, got null", shape)}
	}
	raw, ok := fields[key]
	if !ok {
		return nil, &Problem{Where: name, Message: fmt.Sprintf("missing required field '%s': the index must be %s", key, shape)}
	}
	var list []json.RawMessage
	if jsonKind(raw) != "a list" || json.Unmarshal(raw, &list) != nil {
		return nil, &Problem{Where: name, Message: fmt.Sprintf("'%s' must be a list, got %s", key, jsonKind(raw))}
	}
	return list, nil
}

// syntaxProblem places a JSON syntax error at its line and column
// ("index.json:4:7"), both 1-based, the column counted in characters.
func syntaxProblem(name string, data []byte, se *json.SyntaxError) Problem {
	// Offset counts the bytes read up to and including the offending one.
	pos := min(max(int(se.Offset)-1, 0), len(data))
	before := data[:pos]
	line := 1 + bytes.Count(before, []byte("\n"))
	col := 1 + utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:])
	return Problem{Where: fmt.Sprintf("%s:%d:%d", name, line, col), Message: "invalid JSON: " + se.Error()}
}

// SamePathWarning words the warning for an index entry (where) whose path
// an earlier entry (firstWhere) already names: not a problem, since an
// alias (two ids for one file) is a legitimate use, but worth a look in
// case it is a copy-paste slip:
//
//	documents[1] (id 'auth-again'): same path 'backend/auth.md' as documents[0] (id 'auth'): both ids serve that file
func SamePathWarning(where, path, firstWhere string) string {
	return fmt.Sprintf("%s: same path %s as %s: both ids serve that file", where, QuoteIndexValue(path), firstWhere)
}

// IndexEntryWhere names entry i of the index list key for a problem:
// "documents[3]", or "documents[3] (id 'dots')" once the entry's id is
// known (id is not "").
func IndexEntryWhere(key string, i int, id string) string {
	if id == "" {
		return fmt.Sprintf("%s[%d]", key, i)
	}
	return fmt.Sprintf("%s[%d] (id %s)", key, i, QuoteIndexValue(id))
}

// IndexEntry reads the fields of one entry of an index list, each at most
// once, and keeps a problem for every field it finds wrong, worded for a
// problem list without the entry's place ("'title' must be a string, got
// 12"). A reader returns the zero value for a field that is wrong, so an
// entry is usable only when Problems is empty. Fields it is not asked
// about are allowed and ignored. It is not safe for concurrent use.
type IndexEntry struct {
	fields   map[string]json.RawMessage
	problems []string
}

// ReadIndexEntry starts reading one item of an index list. When the item
// is not a JSON object it returns nil and the problem, which names the
// required fields to say what was expected ("must be an object with 'id'
// and 'path', got 42"); required serves that wording only, RequiredString
// and RequiredPath are what check the fields.
func ReadIndexEntry(raw json.RawMessage, required ...string) (*IndexEntry, string) {
	var fields map[string]json.RawMessage
	if jsonKind(raw) != "an object" || json.Unmarshal(raw, &fields) != nil {
		expected := "an object"
		if len(required) > 0 {
			expected += " with " + listFields(required)
		}
		return nil, fmt.Sprintf("must be %s, got %s", expected, abbreviateJSON(raw))
	}
	return &IndexEntry{fields: fields}, ""
}

// listFields words one or more field names as a list: "'id'", "'id' and
// 'path'", "'a', 'b' and 'c'".
func listFields(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "'" + n + "'"
	}
	last := len(quoted) - 1
	if last == 0 {
		return quoted[0]
	}
	return strings.Join(quoted[:last], ", ") + " and " + quoted[last]
}

// Problems returns the problems found so far, in the order the fields
// were read; nil when there are none. The caller may append its own (a
// duplicate id) without changing the entry's.
func (e *IndexEntry) Problems() []string {
	return slices.Clip(e.problems)
}

func (e *IndexEntry) report(format string, args ...any) {
	e.problems = append(e.problems, fmt.Sprintf(format, args...))
}

// RequiredString reads field name, which must be a string that is not
// blank (only white space). ok is false, with a problem kept, when it is
// missing, not a string (null included) or blank.
func (e *IndexEntry) RequiredString(name string) (s string, ok bool) {
	raw, ok := e.fields[name]
	if !ok {
		e.report("missing required field '%s'", name)
		return "", false
	}
	s, ok = jsonString(raw)
	switch {
	case !ok:
		e.report("'%s' must be a string, got %s", name, abbreviateJSON(raw))
		return "", false
	case strings.TrimSpace(s) == "":
		e.report("'%s' is empty", name)
		return "", false
	}
	return s, true
}

// RequiredPath reads field name as RequiredString does, then applies
// CheckIndexPath's rules (relative, '/'-separated, no '..') and returns
// the path cleaned ("a/./b.md" gives "a/b.md"). ok is false, with a problem
// kept, when any rule is broken.
func (e *IndexEntry) RequiredPath(name string) (p string, ok bool) {
	p, ok = e.RequiredString(name)
	if !ok {
		return "", false
	}
	if msg := CheckIndexPath(name, p); msg != "" {
		e.report("%s", msg)
		return "", false
	}
	return path.Clean(p), true
}

// OptionalString reads field name, which may be missing but otherwise
// must be a string (null is not one, "" is). It returns "" when the field
// is missing or, with a problem kept, of another type.
func (e *IndexEntry) OptionalString(name string) string {
	raw, ok := e.fields[name]
	if !ok {
		return ""
	}
	s, ok := jsonString(raw)
	if !ok {
		e.report("'%s' must be a string, got %s", name, abbreviateJSON(raw))
	}
	return s
}

// OptionalCount reads field name, which may be missing but otherwise must
// be a JSON integer literal, 0 or more: "353", not "353.0", "3.5e2", "-1"
// or "\"353\"". ok is false when the field is missing or, with a problem
// kept, is anything else (one too large for an int included).
func (e *IndexEntry) OptionalCount(name string) (n int, ok bool) {
	raw, ok := e.fields[name]
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, strconv.IntSize)
	if err != nil || v < 0 {
		e.report("'%s' must be a non-negative integer, got %s", name, abbreviateJSON(raw))
		return 0, false
	}
	return int(v), true
}

// OptionalStrings reads field name, which may be missing but otherwise
// must be a list of strings that are not blank. It returns them with
// repeats dropped (the first occurrence keeps its place), nil when the
// field is missing or not a list. Each wrong item is its own problem
// ("'tags[2]' is empty") and is left out; the others are still returned.
func (e *IndexEntry) OptionalStrings(name string) []string {
	raw, ok := e.fields[name]
	if !ok {
		return nil
	}
	var items []json.RawMessage
	if jsonKind(raw) != "a list" || json.Unmarshal(raw, &items) != nil {
		e.report("'%s' must be a list of strings, got %s", name, abbreviateJSON(raw))
		return nil
	}
	var out []string
	for j, item := range items {
		s, ok := jsonString(item)
		switch {
		case !ok:
			e.report("'%s[%d]' must be a string, got %s", name, j, abbreviateJSON(item))
		case strings.TrimSpace(s) == "":
			e.report("'%s[%d]' is empty", name, j)
		case !slices.Contains(out, s):
			out = append(out, s)
		}
	}
	return out
}

// IndexIDs remembers which entry of one index list first had each id, so
// a repeat is reported with the entry it repeats. The zero value is not
// usable; make one with NewIndexIDs for each reading of a list.
type IndexIDs struct {
	key   string         // the list's key, "documents"
	first map[string]int // id -> index of the first entry with it
}

// NewIndexIDs tracks the ids of the index list key.
func NewIndexIDs(key string) *IndexIDs {
	return &IndexIDs{key: key, first: map[string]int{}}
}

// Claim records that entry i has id. It returns "" when no earlier entry
// claimed id, and otherwise the problem "duplicate id 'a' (also
// documents[0])"; the first entry keeps the id.
func (ids *IndexIDs) Claim(id string, i int) string {
	if first, dup := ids.first[id]; dup {
		return fmt.Sprintf("duplicate id %s (also %s[%d])", QuoteIndexValue(id), ids.key, first)
	}
	ids.first[id] = i
	return ""
}

// QuoteIndexValue puts a value from an index in single quotes, as seed
// 000's messages do ('dots'); one that holds a control or other
// non-printing character, or a single quote, is Go-quoted instead
// ("a\nb"), so a problem always stays on one line and reads unambiguously.
func QuoteIndexValue(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) >= 0 || strings.Contains(s, "'") {
		return strconv.Quote(s)
	}
	return "'" + s + "'"
}

// jsonString decodes a JSON string; null and every other kind are not one.
func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if jsonKind(raw) != "a string" || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// jsonKind names the kind of a JSON value by its first byte, as problems
// word it ("a list", "null").
func jsonKind(raw json.RawMessage) string {
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

// abbreviateJSON shows a JSON value compactly, cut to about 40 characters.
func abbreviateJSON(raw json.RawMessage) string {
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
