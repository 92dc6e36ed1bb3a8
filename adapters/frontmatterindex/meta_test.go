package frontmatterindex

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseMeta(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want meta
		// problem, when set, must appear in the only problem reported.
		problem string
	}{
		{
			name: "all fields",
			src:  "---\ntitle: Button\nsummary: Clickable things\ntags: [ui, \"form\"]\ntokens: 120\n---\n# Heading\n",
			want: meta{title: "Button", heading: "Heading", summary: "Clickable things", tags: []string{"ui", "form"}, tokens: 120, hasTokens: true},
		},
		{
			name: "description when no summary",
			src:  "---\ndescription: From description\n---\nbody\n",
			want: meta{summary: "From description"},
		},
		{
			name: "summary beats description",
			src:  "---\nsummary: S\ndescription: D\n---\n",
			want: meta{summary: "S"},
		},
		{
			name: "block list of tags, duplicates and blanks dropped",
			src:  "---\ntags:\n  - a\n  - b\n  - a\n  - \"  \"\n  - 2024\n---\n",
			want: meta{tags: []string{"a", "b", "2024"}},
		},
		{
			name: "scalars keep their literal text",
			src:  "---\ntitle: 1.10\n---\n",
			want: meta{title: "1.10"},
		},
		{
			name: "folded summary becomes one line",
			src:  "---\nsummary: >\n  two\n  lines\n---\n",
			want: meta{summary: "two lines"},
		},
		{
			name: "unknown keys are the author's own",
			src:  "---\nsource: \"https://example.com\"\nweight: 3\n---\n## Deep heading\n",
			want: meta{heading: "Deep heading"},
		},
		{
			name: "empty tags and null fields",
			src:  "---\ntags:\ntitle:\n---\n",
			want: meta{},
		},
		{
			name: "empty block",
			src:  "---\n---\n# T\n",
			want: meta{heading: "T"},
		},
		{
			name: "a block after blank lines is markdown, as the parser sees it",
			src:  "\n\n---\ntitle: Late\n---\n",
			want: meta{heading: "title: Late"},
		},
		{
			name: "an indented opening is no opening",
			src:  "  ---\ntitle: Indented\n---\n",
			want: meta{heading: "title: Indented"},
		},
		{
			name: "trailing blanks after the delimiters",
			src:  "--- \ntitle: T\n---\t\n",
			want: meta{title: "T"},
		},
		{
			name: "---yaml opening",
			src:  "---yaml\ntitle: Y\n---\n",
			want: meta{title: "Y"},
		},
		{
			name: "CRLF line ends",
			src:  "---\r\ntitle: Win\r\ntags: [a]\r\n---\r\n# H\r\n",
			want: meta{title: "Win", heading: "H", tags: []string{"a"}},
		},
		{
			name: "byte order mark before the block",
			src:  "\ufeff---\ntitle: BOM\n---\n",
			want: meta{title: "BOM"},
		},
		{
			name: "no frontmatter",
			src:  "# Plain\n\ntext\n",
			want: meta{heading: "Plain"},
		},
		{
			name: "thematic break is not an opening",
			src:  "-----\n# After rule\n",
			want: meta{heading: "After rule"},
		},
		{
			name:    "tags as a single string",
			src:     "---\ntitle: Kept\ntags: go\n---\n",
			want:    meta{title: "Kept"},
			problem: "'tags' must be a list of strings",
		},
		{
			name:    "tags as a mapping",
			src:     "---\ntags: {a: b}\n---\n",
			want:    meta{},
			problem: "'tags' must be a list of strings",
		},
		{
			name:    "tags holding a list",
			src:     "---\ntags: [a, [b]]\nsummary: S\n---\n",
			want:    meta{summary: "S"},
			problem: "'tags' must be a list of strings",
		},
		{
			name:    "title as a list",
			src:     "---\ntitle: [a]\n---\n# Fallback\n",
			want:    meta{heading: "Fallback"},
			problem: "'title' must be text",
		},
		{
			name:    "tokens not a number",
			src:     "---\ntokens: many\n---\n",
			want:    meta{},
			problem: "'tokens' must be a whole number",
		},
		{
			name:    "tokens negative",
			src:     "---\ntokens: -3\n---\n",
			want:    meta{},
			problem: "'tokens' must be a whole number",
		},
		{
			name:    "tokens fractional",
			src:     "---\ntokens: 1.5\n---\n",
			want:    meta{},
			problem: "'tokens' must be a whole number",
		},
		{
			name:    "invalid YAML, line counted in the file, the other lines read",
			src:     "---\ntitle: ok\ntags: [a, b\n---\n# Still titled\n",
			want:    meta{title: "ok", heading: "Still titled"},
			problem: "the frontmatter is not valid YAML (line 3: did not find expected ',' or ']'); read line by line: served with its title",
		},
		{
			name:    "mapping values in a plain scalar: the title as written",
			src:     "---\ntitle: a: b\n---\n",
			want:    meta{title: "a: b"},
			problem: "the frontmatter opened on line 1 is not valid YAML (mapping values are not allowed in this context); read line by line",
		},
		{
			name:    "YAML error lines are the file's",
			src:     "---\na: 1\nb: 2\ntitle: a: b\n---\n",
			want:    meta{title: "a: b"},
			problem: "the frontmatter is not valid YAML (line 4: mapping values are not allowed in this context)",
		},
		{
			name:    "a flow mapping's braces in a title, tags of one line kept (Svelte's docs)",
			src:     "---\ntitle: {#await ...}\ntags: [template-await]\n---\nBody.\n",
			want:    meta{title: "{#await ...}", tags: []string{"template-await"}},
			problem: "the frontmatter is not valid YAML (line 3: did not find expected ',' or '}'); read line by line: served with its title and tags",
		},
		{
			name:    "an indented entry that is not YAML is left out, not taken as written",
			src:     "---\nsummary:\n  - [a\n---\n",
			want:    meta{},
			problem: "served without its title, summary and tags",
		},
		{
			name:    "a list instead of keys",
			src:     "---\n- a\n- b\n---\n",
			want:    meta{},
			problem: "the frontmatter (line 1) is not a set of 'key: value' lines",
		},
		{
			name:    "unclosed block",
			src:     "---\ntitle: Never closed\n# Heading\n",
			want:    meta{heading: "Heading"},
			problem: "the frontmatter opened on line 1 is never closed",
		},
		{
			name:    "---js is never executed",
			src:     "---js\n{ title: (function(){ throw 1 })() }\n---\n# JS doc\n",
			want:    meta{heading: "JS doc"},
			problem: "'---js' frontmatter (line 1) is never executed or read",
		},
		{
			name:    "---toml is not read either",
			src:     "---toml\ntitle = \"T\"\n---\n",
			want:    meta{},
			problem: "'---toml' frontmatter (line 1) is never executed or read",
		},
		{
			name: "---js without a closing line is just text",
			src:  "---js\nsome text\n",
			want: meta{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseMeta([]byte(tt.src))
			problems := got.problems
			got.problems = nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseMeta() = %+v, want %+v", got, tt.want)
			}
			switch {
			case tt.problem == "" && len(problems) != 0:
				t.Errorf("problems = %q, want none", problems)
			case tt.problem != "" && (len(problems) != 1 || !strings.Contains(problems[0], tt.problem)):
				t.Errorf("problems = %q, want one containing %q", problems, tt.problem)
			}
		})
	}
}

func TestFirstHeading(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"atx", "# Title\n", "Title"},
		{"atx deeper first", "text\n\n### Deep\n# Top\n", "Deep"},
		{"closing hashes", "## Title ##\n", "Title"},
		{"hash inside word kept", "# C# basics\n", "C# basics"},
		{"indented up to three", "   # Three\n", "Three"},
		{"four spaces is code", "    # code\n\n# Real\n", "Real"},
		{"no space after hash", "#hashtag\n# Real\n", "Real"},
		{"empty heading skipped", "#\n# Real\n", "Real"},
		{"setext equals", "Big Title\n=========\n", "Big Title"},
		{"setext dashes", "Sub Title\n---\n", "Sub Title"},
		{"setext over two lines", "Line one\nline two\n===\n", "Line one line two"},
		{"dash rule after blank is no heading", "para\n\n---\n# Real\n", "Real"},
		{"list item then rule is no heading", "- item\n---\n# Real\n", "Real"},
		{"backtick fence", "```md\n# not me\n```\n# Real\n", "Real"},
		{"tilde fence", "~~~\n# not me\n~~~\n# Real\n", "Real"},
		{"longer closing fence", "````\n```\n# not me\n`````\n# Real\n", "Real"},
		{"unclosed fence hides the rest", "```\n# never\n", ""},
		{"inline markup stripped", "# **Bold** `code` and [link](http://x) ![img](a.png)\n", "Bold code and link img"},
		{"snake_case kept", "# my_func_name\n", "my_func_name"},
		{"escapes", "# 1\\. Not a list\n", "1. Not a list"},
		{"CRLF", "# Windows\r\n", "Windows"},
		{"no heading", "just text\n", ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := firstHeading([]byte(tt.src)); got != tt.want {
				t.Errorf("firstHeading(%q) = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

// TestParseMetaByLineWrongKind: a block read line by line whose tags are a
// single string names only its title as kept, and notes the tags apart.
func TestParseMetaByLineWrongKind(t *testing.T) {
	got := parseMeta([]byte("---\ntitle: {#if ...}\ntags: template-if\n---\n"))
	want := []string{
		"the frontmatter is not valid YAML (line 3: did not find expected ',' or '}'); read line by line: served with its title",
		`'tags' must be a list of strings, e.g. tags: ["a", "b"]; served without its own tags`,
	}
	if got.title != "{#if ...}" || len(got.tags) != 0 || !reflect.DeepEqual(got.problems, want) {
		t.Errorf("title %q, tags %q, problems %q", got.title, got.tags, got.problems)
	}
}
