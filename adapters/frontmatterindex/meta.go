package frontmatterindex

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/adrg/frontmatter"
	"gopkg.in/yaml.v2"
)

// meta is what one markdown file says about itself: its frontmatter fields
// and its first heading, plus notes on what could not be read. It is cached
// per file stamp, so it must not depend on any other file.
type meta struct {
	title     string // frontmatter 'title', "" when not given
	heading   string // text of the first heading, "" when none
	summary   string // frontmatter 'summary', else 'description'
	tags      []string
	tokens    int
	hasTokens bool
	// problems are worded to follow "'path.md': ", e.g. "'tags' must be a
	// list of strings; served without its own tags".
	problems []string
}

// block is where the frontmatter formats leave the raw text of a block: the
// adapter decodes it itself, so that a decoding error still leaves the body
// (and so the first heading) readable.
type block struct {
	found bool
	data  []byte
}

func captureBlock(data []byte, v any) error {
	b := v.(*block)
	b.found = true
	b.data = data
	return nil
}

// yamlFormats are the only frontmatter formats read. adrg/frontmatter's
// defaults would also take TOML, JSON and a bare {…} object: not seed 001's
// convention, so they are left to be read as markdown.
var yamlFormats = []*frontmatter.Format{
	frontmatter.NewFormat("---", "---", captureBlock),
	frontmatter.NewFormat("---yaml", "---", captureBlock),
}

// foreignOpening matches an opening line such as "---js" or "---toml":
// frontmatter in another language. The original server executed "---js"
// blocks; this one never does, and reads none of them.
var foreignOpening = regexp.MustCompile(`^---([A-Za-z][A-Za-z0-9_+-]*)$`)

var utf8BOM = []byte("\xef\xbb\xbf")

// parseMeta reads the frontmatter and first heading of one markdown file.
// It never fails: whatever it cannot read becomes a problem, and the file
// is still served with what could be read.
func parseMeta(src []byte) meta {
	var m meta
	// A BOM would hide the opening "---" from adrg/frontmatter; editors on
	// Windows add one, and the file is no less a markdown file for it.
	src = bytes.TrimPrefix(src, utf8BOM)
	// Frontmatter opens on the file's first line, as in the original
	// server (gray-matter) and the markdown parser, which must agree on
	// where the body starts. adrg/frontmatter would also skip blank lines
	// and indentation before the opening: it is only asked when the first
	// line already is one.
	opening := firstLine(src)
	const openingLine = 1
	if !strings.HasPrefix(opening, "---") {
		m.heading = firstHeading(src)
		return m
	}
	formats := yamlFormats
	lang := ""
	if sub := foreignOpening.FindStringSubmatch(opening); sub != nil && opening != "---yaml" {
		lang = sub[1]
		formats = []*frontmatter.Format{frontmatter.NewFormat(opening, "---", captureBlock)}
	}
	// adrg/frontmatter copies all it is given; give it only the lines up
	// to the block's closing one, and take the body from src.
	head := src[:blockEnd(src)]
	var b block
	rest, err := frontmatter.Parse(bytes.NewReader(head), &b, formats...)
	if err != nil {
		// Only an I/O error can get here, and a bytes.Reader has none.
		m.problems = append(m.problems, fmt.Sprintf("frontmatter could not be read (%v)", err))
		m.heading = firstHeading(src)
		return m
	}
	m.heading = firstHeading(src[len(head)-len(rest):])
	switch {
	case lang != "" && b.found:
		m.problems = append(m.problems, fmt.Sprintf("'---%s' frontmatter (line %d) is never executed or read: only YAML frontmatter ('---') is; served without its title, summary and tags", lang, openingLine))
	case lang != "":
		// "---js" with no closing line is not frontmatter, just text.
	case !b.found && (opening == "---" || opening == "---yaml"):
		m.problems = append(m.problems, fmt.Sprintf("the frontmatter opened on line %d is never closed with '---'; read as markdown, without title, summary and tags", openingLine))
	case b.found:
		m.decode(b.data, openingLine)
	}
	return m
}

// frontmatterFields are the keys the convention reads; any other key is
// the author's own and ignored. Each field decodes leniently on its own, so
// one bad field costs only itself.
type frontmatterFields struct {
	Title       textField   `yaml:"title"`
	Summary     textField   `yaml:"summary"`
	Description textField   `yaml:"description"`
	Tags        tagsField   `yaml:"tags"`
	Tokens      tokensField `yaml:"tokens"`
}

// textField takes any scalar as its text (yaml.v2 keeps the literal, so
// "title: 1.10" stays "1.10"); a list or mapping is bad.
type textField struct {
	value string
	bad   bool
}

func (f *textField) UnmarshalYAML(unmarshal func(any) error) error {
	if err := unmarshal(&f.value); err != nil {
		f.value, f.bad = "", true
	}
	return nil
}

// tagsField takes a list of scalars; a single string ("tags: go"), a
// mapping, or a list holding lists or mappings is bad.
type tagsField struct {
	value []string
	bad   bool
}

func (f *tagsField) UnmarshalYAML(unmarshal func(any) error) error {
	if err := unmarshal(&f.value); err != nil {
		f.value, f.bad = nil, true
	}
	return nil
}

// tokensField takes a whole number ≥ 0.
type tokensField struct {
	value int
	set   bool
	bad   bool
}

func (f *tokensField) UnmarshalYAML(unmarshal func(any) error) error {
	var v any
	if err := unmarshal(&v); err != nil {
		f.bad = true
		return nil
	}
	switch n := v.(type) {
	case int:
		if n >= 0 {
			f.value, f.set = n, true
			return nil
		}
	case uint64:
		if n <= uint64(int(^uint(0)>>1)) {
			f.value, f.set = int(n), true
			return nil
		}
	}
	f.bad = true
	return nil
}

// yamlErrorLine finds the line yaml.v2 blames, counted from inside the block.
var yamlErrorLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// decode reads the YAML of a frontmatter block that opened on file line
// openingLine.
func (m *meta) decode(data []byte, openingLine int) {
	var f frontmatterFields
	if err := yaml.Unmarshal(data, &f); err != nil {
		if _, ok := err.(*yaml.TypeError); ok {
			// The fields never fail, so only the block itself can be of
			// the wrong kind: a list or a bare value instead of keys.
			m.problems = append(m.problems, fmt.Sprintf("the frontmatter (line %d) is not a set of 'key: value' lines; served without its title, summary and tags", openingLine))
			return
		}
		// yaml.v2 counts lines from inside the block, and names none for
		// some errors on its first line.
		what := fmt.Sprintf("the frontmatter opened on line %d is not valid YAML (%s)", openingLine, strings.TrimPrefix(err.Error(), "yaml: "))
		if sub := yamlErrorLine.FindStringSubmatch(err.Error()); sub != nil {
			n, _ := strconv.Atoi(sub[1])
			what = fmt.Sprintf("the frontmatter is not valid YAML (line %d: %s)", openingLine+n, sub[2])
		}
		var kept []string
		f, kept = decodeByLine(data)
		if len(kept) == 0 {
			m.problems = append(m.problems, what+"; served without its title, summary and tags")
			return
		}
		m.problems = append(m.problems, what+"; read line by line: served with its "+joinAnd(kept))
	}
	m.apply(f)
}

// apply takes the decoded fields, noting each one that is of the wrong kind.
func (m *meta) apply(f frontmatterFields) {
	m.title = oneLine(f.Title.value)
	m.summary = oneLine(f.Summary.value)
	if m.summary == "" {
		m.summary = oneLine(f.Description.value)
	}
	for _, t := range f.Tags.value {
		if t = strings.TrimSpace(t); t != "" && !contains(m.tags, t) {
			m.tags = append(m.tags, t)
		}
	}
	m.tokens, m.hasTokens = f.Tokens.value, f.Tokens.set
	for _, bad := range []struct {
		is   bool
		what string
	}{
		{f.Title.bad, "'title' must be text; the first heading is used instead"},
		{f.Summary.bad, "'summary' must be text; ignored"},
		{f.Description.bad, "'description' must be text; ignored"},
		{f.Tags.bad, "'tags' must be a list of strings, e.g. tags: [\"a\", \"b\"]; served without its own tags"},
		{f.Tokens.bad, "'tokens' must be a whole number ≥ 0; the size estimate is used instead"},
	} {
		if bad.is {
			m.problems = append(m.problems, bad.what)
		}
	}
}

// decodeByLine reads a block that is not valid YAML one top-level entry at
// a time (a line that starts a key, with the indented lines under it), so
// one bad line costs only its own field. A text field whose line is not
// YAML either is taken as written: Svelte's docs title pages
// "title: {#await ...}" and "title: bind:", which a YAML reader refuses
// and their site shows as they read; without a title such a page is found
// by its body alone. kept names the fields read, in the block's order.
func decodeByLine(data []byte) (f frontmatterFields, kept []string) {
	lines := strings.Split(string(data), "\n")
	var seen []string // a key's first entry counts, as YAML readers that allow duplicates take one
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && (strings.HasPrefix(lines[j], " ") || strings.HasPrefix(lines[j], "\t")) {
			j++
		}
		entry := strings.Join(lines[i:j], "\n")
		key, value, isKey := strings.Cut(lines[i], ":")
		multiline := j-i > 1
		i = j
		key = strings.TrimSpace(key)
		if !isKey || !readKeys[key] || contains(seen, key) {
			continue
		}
		var one frontmatterFields
		if err := yaml.Unmarshal([]byte(entry), &one); err != nil {
			text := strings.TrimSpace(value)
			if multiline || text == "" || !textKeys[key] {
				continue
			}
			one = frontmatterFields{}
			switch key {
			case "title":
				one.Title.value = text
			case "summary":
				one.Summary.value = text
			case "description":
				one.Description.value = text
			}
		}
		bad := false // read, but of the wrong kind: apply notes it, kept does not name it
		switch key {
		case "title":
			f.Title, bad = one.Title, one.Title.bad
		case "summary":
			f.Summary, bad = one.Summary, one.Summary.bad
		case "description":
			f.Description, bad = one.Description, one.Description.bad
		case "tags":
			f.Tags, bad = one.Tags, one.Tags.bad
		case "tokens":
			f.Tokens, bad = one.Tokens, one.Tokens.bad
		}
		seen = append(seen, key)
		if !bad {
			kept = append(kept, key)
		}
	}
	return f, kept
}

// readKeys are frontmatterFields' keys; textKeys those of text, which a
// line that is not YAML still gives as written.
var (
	readKeys = map[string]bool{"title": true, "summary": true, "description": true, "tags": true, "tokens": true}
	textKeys = map[string]bool{"title": true, "summary": true, "description": true}
)

// joinAnd lists names as "title", "title and tags", "title, summary and tags".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// blockEnd returns the length of src up to and including the first line,
// after the first, that reads "---" once trimmed (the closing line as
// adrg/frontmatter finds it), or len(src) when there is none.
func blockEnd(src []byte) int {
	i := bytes.IndexByte(src, '\n')
	for i >= 0 {
		start := i + 1
		end := len(src)
		next := bytes.IndexByte(src[start:], '\n')
		if next >= 0 {
			end = start + next + 1
		}
		if string(bytes.TrimSpace(src[start:end])) == "---" {
			return end
		}
		if next < 0 {
			break
		}
		i = start + next
	}
	return len(src)
}

// firstLine returns the first line of src without its line end and
// trailing blanks.
func firstLine(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i >= 0 {
		src = src[:i]
	}
	return string(bytes.TrimRight(src, " \t\r"))
}

// oneLine collapses the whitespace of a text field (YAML block scalars keep
// newlines) into single spaces: titles and summaries are shown on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
