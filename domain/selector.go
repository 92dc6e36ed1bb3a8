package domain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/librarian/librarian/domain/wording"
)

// LineRange is an inclusive range of 1-based file lines.
type LineRange struct {
	From, To int
}

// Selector names what get_documents should return: a whole doc, every doc
// under a folder, some sections of a doc, or a line range of a doc, each
// with optional image and code settings that override the call's.
type Selector struct {
	Doc           string     // doc id or path; "" when Root is set
	Root          string     // folder relative to the library root
	IsRoot        bool       // Root was given (it may be "." or "")
	Sections      []string   // full section ids or unique leaves
	Lines         *LineRange // nil: not a line selector
	IncludeImages *bool
	IncludeCode   *bool
}

// selectorFields are the fields a selector object may carry.
var selectorFields = []string{"doc", "root", "sections", "lines", "include_images", "include_code"}

// ParseSelectors reads the items of a get_documents "select" list: each a
// doc id string or a selector object. Every malformed item is reported, each
// with its index, in one error wrapping ErrInvalidSelector.
func ParseSelectors(items []json.RawMessage) ([]Selector, error) {
	if len(items) == 0 {
		return nil, fmt.Errorf("%w: 'select' is empty: name at least one doc id, path or selector object", ErrInvalidSelector)
	}
	var out []Selector
	var problems []string
	for i, raw := range items {
		s, err := parseSelector(raw)
		if err != nil {
			problems = append(problems, fmt.Sprintf("select[%d]: %s", i, err))
			continue
		}
		out = append(out, s)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrInvalidSelector, strings.Join(problems, "; "))
	}
	return out, nil
}

func parseSelector(raw json.RawMessage) (Selector, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return Selector{}, fmt.Errorf("empty item")
	}
	switch raw[0] {
	case '"':
		var id string
		if err := json.Unmarshal(raw, &id); err != nil {
			return Selector{}, fmt.Errorf("not a valid string: %v", err)
		}
		if strings.TrimSpace(id) == "" {
			return Selector{}, fmt.Errorf("empty doc id")
		}
		return Selector{Doc: id}, nil
	case '{':
	default:
		return Selector{}, fmt.Errorf("must be a doc id string or a selector object, got %s", abbreviate(string(raw)))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return Selector{}, fmt.Errorf("not a valid object: %v", err)
	}
	var unknown []string
	for name := range fields {
		if !contains(selectorFields, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		var msgs []string
		for _, name := range unknown {
			msg := fmt.Sprintf("unknown field %s", wording.QuoteInput(name, '\''))
			if near := nearestField(name); near != "" {
				msg += fmt.Sprintf(" (did you mean '%s'?)", near)
			}
			msgs = append(msgs, msg)
		}
		return Selector{}, fmt.Errorf("%s; a selector's fields are %s", strings.Join(msgs, ", "), strings.Join(selectorFields, ", "))
	}
	var s Selector
	str := func(name string, dst *string) error {
		if err := json.Unmarshal(fields[name], dst); err != nil {
			return fmt.Errorf("'%s' must be a string", name)
		}
		return nil
	}
	boolean := func(name string) (*bool, error) {
		v, ok := fields[name]
		if !ok || string(v) == "null" {
			return nil, nil
		}
		var b bool
		if err := json.Unmarshal(v, &b); err != nil {
			return nil, fmt.Errorf("'%s' must be true or false", name)
		}
		return &b, nil
	}
	_, hasDoc := fields["doc"]
	_, hasRoot := fields["root"]
	_, hasSections := fields["sections"]
	_, hasLines := fields["lines"]
	switch {
	case hasDoc && hasRoot:
		return Selector{}, fmt.Errorf("has both 'doc' and 'root': use one selector per doc or folder")
	case !hasDoc && !hasRoot:
		return Selector{}, fmt.Errorf("needs 'doc' (a doc id or path) or 'root' (a folder)")
	case hasRoot && (hasSections || hasLines):
		return Selector{}, fmt.Errorf("'root' cannot take 'sections' or 'lines': name a 'doc' instead")
	case hasSections && hasLines:
		return Selector{}, fmt.Errorf("has both 'sections' and 'lines': use two selectors")
	}
	if hasDoc {
		if err := str("doc", &s.Doc); err != nil {
			return Selector{}, err
		}
		if strings.TrimSpace(s.Doc) == "" {
			return Selector{}, fmt.Errorf("'doc' is empty")
		}
	}
	if hasRoot {
		if err := str("root", &s.Root); err != nil {
			return Selector{}, err
		}
		s.IsRoot = true
	}
	if hasSections {
		if err := json.Unmarshal(fields["sections"], &s.Sections); err != nil || s.Sections == nil {
			return Selector{}, fmt.Errorf("'sections' must be a list of section ids (strings)")
		}
		if len(s.Sections) == 0 {
			return Selector{}, fmt.Errorf("'sections' is empty: list at least one section id, or drop 'sections' for the whole doc")
		}
		for j, id := range s.Sections {
			if strings.TrimSpace(id) == "" {
				return Selector{}, fmt.Errorf("'sections[%d]' is empty", j)
			}
		}
	}
	if hasLines {
		r, err := parseLines(fields["lines"])
		if err != nil {
			return Selector{}, err
		}
		s.Lines = &r
	}
	var err error
	if s.IncludeImages, err = boolean("include_images"); err != nil {
		return Selector{}, err
	}
	if s.IncludeCode, err = boolean("include_code"); err != nil {
		return Selector{}, err
	}
	return s, nil
}

func parseLines(raw json.RawMessage) (LineRange, error) {
	bad := fmt.Errorf("'lines' must be two positive integers [from, to] with from <= to, got %s", abbreviate(string(raw)))
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || len(items) != 2 {
		return LineRange{}, bad
	}
	var v [2]int
	for i, item := range items {
		// Only a JSON integer token: no strings, fractions or exponents.
		x, err := strconv.ParseInt(string(bytes.TrimSpace(item)), 10, 64)
		if err != nil || x < 1 || x > 1<<31 {
			return LineRange{}, bad
		}
		v[i] = int(x)
	}
	if v[0] > v[1] {
		return LineRange{}, bad
	}
	return LineRange{From: v[0], To: v[1]}, nil
}

func nearestField(name string) string {
	lower := strings.ToLower(name)
	for _, f := range selectorFields {
		if strings.TrimSuffix(f, "s") == strings.TrimSuffix(lower, "s") ||
			strings.ReplaceAll(f, "_", "") == strings.ReplaceAll(strings.ReplaceAll(lower, "_", ""), "-", "") {
			return f
		}
	}
	switch lower {
	case "id", "path", "file", "document":
		return "doc"
	case "dir", "folder", "directory":
		return "root"
	case "range", "line_range":
		return "lines"
	case "images":
		return "include_images"
	case "code":
		return "include_code"
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func abbreviate(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// JSON renders the selector as a ready-to-send get_documents item: a plain
// doc id string when it names a whole doc with no overrides.
func (s Selector) JSON() string {
	if !s.IsRoot && s.Sections == nil && s.Lines == nil && s.IncludeImages == nil && s.IncludeCode == nil {
		b, _ := json.Marshal(s.Doc)
		return string(b)
	}
	var parts []string
	add := func(k string, v any) {
		b, _ := json.Marshal(v)
		parts = append(parts, fmt.Sprintf("%q: %s", k, b))
	}
	if s.IsRoot {
		add("root", s.Root)
	} else {
		add("doc", s.Doc)
	}
	if s.Sections != nil {
		add("sections", s.Sections)
	}
	if s.Lines != nil {
		add("lines", []int{s.Lines.From, s.Lines.To})
	}
	if s.IncludeImages != nil {
		add("include_images", *s.IncludeImages)
	}
	if s.IncludeCode != nil {
		add("include_code", *s.IncludeCode)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
