package markdowntest

import (
	"strings"

	"github.com/librarian/librarian/domain"
)

// sec is a wanted section; its Slug is the last element of id.
func sec(id, heading string, level, start, end, parent, depth int) domain.Section {
	return domain.Section{
		ID: id, Slug: id[strings.LastIndexByte(id, '/')+1:], Heading: heading,
		Level: level, Start: start, End: end, Parent: parent, Depth: depth,
	}
}

// top is a wanted top-level section.
func top(id, heading string, level, start, end int) domain.Section {
	return sec(id, heading, level, start, end, -1, 1)
}

func preamble(start, end int) domain.Section { return top("_preamble", "", 0, start, end) }

func intro(heading string, start, end int) domain.Section {
	return top("_intro", heading, 1, start, end)
}

func code(info, fence, indent string, start, end int, closed bool) domain.CodeBlock {
	return domain.CodeBlock{Info: info, Fence: fence, Indent: indent, Start: start, End: end, Closed: closed}
}

func img(id string, line int) domain.ImageStub { return domain.ImageStub{ID: id, Line: line} }

// std is a wanted standard image without a title.
func std(src, alt string, line int) domain.ImageStub {
	return domain.ImageStub{Src: src, Alt: alt, Line: line}
}

func withImages(s domain.Structure, images ...domain.ImageStub) domain.Structure {
	s.Images = images
	return s
}

// sections is shorthand for a structure with only lines and sections.
func sections(lines int, s ...domain.Section) domain.Structure {
	return domain.Structure{Lines: lines, Sections: s}
}

// caching is seed 000's example document: 38 lines whose outline the seed
// prints as `_intro "Caching" L1–5`, `key-conventions L6–16`,
// `invalidation L17–34`, `invalidation/fan-out-deletes L21–34`,
// `ttl-rules L35–38`, with an 11-line python block at L22–34.
const caching = `# Caching

Redis sits in front of Postgres for every read-heavy endpoint.
This page covers key names, invalidation and TTLs.

## Key conventions

Keys are namespaced by service, entity and id:

` + "```" + `
svc:{service}:{entity}:{id}
` + "```" + `

Never put raw user input in a key; hash it first.
Keep keys under 200 bytes.

## Invalidation

Writes delete keys; they never update cached values in place.
![[image:img-fanout]]
### Fan-out deletes
` + "```python" + `
def invalidate(user_id):
    keys = [
        f"svc:auth:user:{user_id}",
        f"svc:auth:sessions:{user_id}",
    ]
    for team_id in teams_of(user_id):
        keys.append(f"svc:teams:members:{team_id}")
    pipe = redis.pipeline()
    for key in keys:
        pipe.delete(key)
    pipe.execute()
` + "```" + `
## TTL rules

Default TTL is 15 minutes.
Session keys live for 24 hours.
`

func slugCases() []parseCase {
	// Each row is one "## " heading: its source text, the plain text the
	// parser must report, and the slug.
	rows := []struct{ name, src, heading, slug string }{
		{"words", "Hello World", "Hello World", "hello-world"},
		{"punctuation dropped", "API: v2.0 (beta)!", "API: v2.0 (beta)!", "api-v20-beta"},
		{"emphasis and code reduced to text", "**Bold**, _em_ and `code()`", "Bold, em and code()", "bold-em-and-code"},
		{"link reduced to its text", "See [the guide](https://x.test/guide) now", "See the guide now", "see-the-guide-now"},
		{"underscore and hyphen kept", "snake_case and kebab-case", "snake_case and kebab-case", "snake_case-and-kebab-case"},
		{"unicode letters kept and lowercased", "Ünïcödé Straße 東京", "Ünïcödé Straße 東京", "ünïcödé-straße-東京"},
		{"closing hashes stripped", "Closing hashes ##", "Closing hashes", "closing-hashes"},
		{"spaces not collapsed", "Two  spaces", "Two  spaces", "two--spaces"},
		{"emoji dropped", "🚀 Deploy", "🚀 Deploy", "-deploy"},
		{"entity resolved then dropped", "C++ &amp; C#", "C++ & C#", "c--c"},
		{"numeric reference", "Caf&#233;", "Café", "café"},
		{"backslash escapes", `Escaped \*stars\*`, "Escaped *stars*", "escaped-stars"},
		{"raw html tags leave no text", "<em>Raw</em> HTML", "Raw HTML", "raw-html"},
		{"numbers kept", "1. Install", "1. Install", "1-install"},
		{"dashes other than hyphen dropped", "v1.2.3 — what's new?", "v1.2.3 — what's new?", "v123--whats-new"},
		{"autolink text", "Visit <https://example.com>", "Visit https://example.com", "visit-httpsexamplecom"},
		{"image alt is not text", "![logo](logo.png) Title", "Title", "title"},
		{"code span is literal", "`a\\b` path", `a\b path`, "ab-path"},
		{"tab dropped", "Tab\there", "Tab\there", "tabhere"},
		{"nothing left: fallback slug", "!!!", "!!!", "section"},
		// A heading's explicit anchor (VitePress, Docusaurus, Hugo, Pandoc)
		// is its slug, as the site links it, and no words of its heading.
		{"explicit anchor is the slug", "Options {#opts}", "Options", "opts"},
		{"explicit anchor after html", `coverage.instrumenter <Version type="experimental">4.1.5</Version> {#coverage-instrumenter}`, "coverage.instrumenter 4.1.5", "coverage-instrumenter"},
		{"explicit anchor slugged", "Set up {#Set.Up_Now}", "Set up", "setup_now"},
		{"anchor glued to a word is text", "Options{#opts}", "Options{#opts}", "optionsopts"},
		{"anchor alone is text", "{#only}", "{#only}", "only"},
		{"braces that are no anchor are text", "Map {#of things}", "Map {#of things}", "map-of-things"},
		{"an anchor in a code span is text", "The `{#if}`", "The {#if}", "the-if"},
	}
	cases := make([]parseCase, 0, len(rows)+1)
	for _, r := range rows {
		c := parseCase{
			name: r.name,
			src:  "## " + r.src + "\n",
			want: sections(1, top(r.slug, r.heading, 2, 1, 1)),
		}
		if r.name == "image alt is not text" {
			// Not text, but an image of the doc.
			c.want.Images = []domain.ImageStub{std("logo.png", "logo", 1)}
		}
		cases = append(cases, c)
	}
	return append(cases, parseCase{
		name: "nested with a slash",
		src:  "## Refresh tokens\n### Rotation\n",
		want: sections(2,
			top("refresh-tokens", "Refresh tokens", 2, 1, 2),
			sec("refresh-tokens/rotation", "Rotation", 3, 2, 2, 0, 2),
		),
	})
}

func duplicateSlugCases() []parseCase {
	return []parseCase{
		{"numbered from 1", "## Setup\n## Setup\n## Setup\n", sections(3,
			top("setup", "Setup", 2, 1, 1),
			top("setup-1", "Setup", 2, 2, 2),
			top("setup-2", "Setup", 2, 3, 3),
		)},
		{"counted among siblings", "## Linux\n### Setup\n## macOS\n### Setup\n### Setup\n", sections(5,
			top("linux", "Linux", 2, 1, 2),
			sec("linux/setup", "Setup", 3, 2, 2, 0, 2),
			top("macos", "macOS", 2, 3, 5),
			sec("macos/setup", "Setup", 3, 4, 4, 2, 2),
			sec("macos/setup-1", "Setup", 3, 5, 5, 2, 2),
		)},
		{"suffixed slug already taken", "## Setup 1\n## Setup\n## Setup\n", sections(3,
			top("setup-1", "Setup 1", 2, 1, 1),
			top("setup", "Setup", 2, 2, 2),
			top("setup-2", "Setup", 2, 3, 3),
		)},
		{"suffixed slug taken later", "## Setup\n## Setup\n## Setup 1\n", sections(3,
			top("setup", "Setup", 2, 1, 1),
			top("setup-1", "Setup", 2, 2, 2),
			top("setup-1-1", "Setup 1", 2, 3, 3),
		)},
		{"different text, same slug", "## Setup!\n## setup\n", sections(2,
			top("setup", "Setup!", 2, 1, 1),
			top("setup-1", "setup", 2, 2, 2),
		)},
		{"special ids reserved", "# Guide\n## _intro\n## _preamble\n", sections(3,
			intro("Guide", 1, 1),
			top("_intro-1", "_intro", 2, 2, 2),
			top("_preamble-1", "_preamble", 2, 3, 3),
		)},
		{"fallback slugs", "## !!!\n## ???\n", sections(2,
			top("section", "!!!", 2, 1, 1),
			top("section-1", "???", 2, 2, 2),
		)},
		{"under a title", "# Guide\n## FAQ\n### Why\n## FAQ\n### Why\n", sections(5,
			intro("Guide", 1, 1),
			top("faq", "FAQ", 2, 2, 3),
			sec("faq/why", "Why", 3, 3, 3, 1, 2),
			top("faq-1", "FAQ", 2, 4, 5),
			sec("faq-1/why", "Why", 3, 5, 5, 3, 2),
		)},
		{"repeated level-1 headings", "# Part\n## Notes\n# Part\n## Notes\n", sections(4,
			top("part", "Part", 1, 1, 2),
			sec("part/notes", "Notes", 2, 2, 2, 0, 2),
			top("part-1", "Part", 1, 3, 4),
			sec("part-1/notes", "Notes", 2, 4, 4, 2, 2),
		)},
	}
}

func titleCases() []parseCase {
	return []parseCase{
		{"seed 000 caching example", caching, domain.Structure{
			Lines: 38,
			Sections: []domain.Section{
				intro("Caching", 1, 5),
				top("key-conventions", "Key conventions", 2, 6, 16),
				top("invalidation", "Invalidation", 2, 17, 34),
				sec("invalidation/fan-out-deletes", "Fan-out deletes", 3, 21, 34, 2, 2),
				top("ttl-rules", "TTL rules", 2, 35, 38),
			},
			CodeBlocks: []domain.CodeBlock{
				code("", "```", "", 10, 12, true),
				code("python", "```", "", 22, 34, true),
			},
			Images: []domain.ImageStub{img("img-fanout", 20)},
		}},
		{"nothing under the title", "# Guide\n## Install\nRun make.\n", sections(3,
			intro("Guide", 1, 1),
			top("install", "Install", 2, 2, 3),
		)},
		{"title alone", "# Only a title\n", sections(1, intro("Only a title", 1, 1))},
		{"text under the title to the end", "# Title\n\nSome text", sections(3, intro("Title", 1, 3))},
		{"deeper heading before the first ##", "# Guide\n### Deep\n## Mid\n### Child\n", sections(4,
			intro("Guide", 1, 1),
			top("deep", "Deep", 3, 2, 2),
			top("mid", "Mid", 2, 3, 4),
			sec("mid/child", "Child", 3, 4, 4, 2, 2),
		)},
		{"two level-1 headings: no title", "# One\ntext\n# Two\n## Sub\n", sections(4,
			top("one", "One", 1, 1, 2),
			top("two", "Two", 1, 3, 4),
			sec("two/sub", "Sub", 2, 4, 4, 1, 2),
		)},
		{"first heading not level 1: no title", "## Intro\n# Title\n## Sub\n", sections(3,
			top("intro", "Intro", 2, 1, 1),
			top("title", "Title", 1, 2, 3),
			sec("title/sub", "Sub", 2, 3, 3, 1, 2),
		)},
		{"text before the title", "[![build](b.svg)](ci)\n\n# Title\nIntro text.\n## Usage\n", withImages(sections(5,
			preamble(1, 2),
			intro("Title", 3, 4),
			top("usage", "Usage", 2, 5, 5),
		), std("b.svg", "build", 1))},
		{"setext title", "Title\n=====\n\nIntro.\n\nSection\n-------\nBody\n", sections(8,
			intro("Title", 1, 5),
			top("section", "Section", 2, 6, 8),
		)},
	}
}

func preambleCases() []parseCase {
	return []parseCase{
		{"no heading: the whole body", "Just text\nmore text\n", sections(2, preamble(1, 2))},
		{"blank lines are no preamble", "\n\n## A\n", sections(3, top("a", "A", 2, 3, 3))},
		{"whitespace lines are no preamble", "  \n\t\n## A\n", sections(3, top("a", "A", 2, 3, 3))},
		{"text before a heading", "Intro\n\n## A\nbody\n", sections(4,
			preamble(1, 2),
			top("a", "A", 2, 3, 4),
		)},
		{"after frontmatter", "---\ntitle: x\n---\nHello\n## A\n", domain.Structure{
			Lines: 5, FrontmatterEnd: 3,
			Sections: []domain.Section{preamble(4, 4), top("a", "A", 2, 5, 5)},
		}},
		{"frontmatter then text, no heading", "---\na: 1\n---\nbody\n", domain.Structure{
			Lines: 4, FrontmatterEnd: 3, Sections: []domain.Section{preamble(4, 4)},
		}},
		{"blank line after frontmatter", "---\na: 1\n---\n\n# T\n", domain.Structure{
			Lines: 5, FrontmatterEnd: 3, Sections: []domain.Section{intro("T", 5, 5)},
		}},
		{"only frontmatter", "---\na: 1\n---\n", domain.Structure{Lines: 3, FrontmatterEnd: 3}},
		{"empty file", "", domain.Structure{}},
		{"only blank lines", "\n\n\n", domain.Structure{Lines: 3}},
		{"a code block is text", "```\ncode\n```\n# T\n", domain.Structure{
			Lines:      4,
			Sections:   []domain.Section{preamble(1, 3), intro("T", 4, 4)},
			CodeBlocks: []domain.CodeBlock{code("", "```", "", 1, 3, true)},
		}},
	}
}

func sectionBoundCases() []parseCase {
	return []parseCase{
		{"nesting", "## A\n### B\n#### C\n## D\n", sections(4,
			top("a", "A", 2, 1, 3),
			sec("a/b", "B", 3, 2, 3, 0, 2),
			sec("a/b/c", "C", 4, 3, 3, 1, 3),
			top("d", "D", 2, 4, 4),
		)},
		{"skipped levels", "## A\n#### B\n### C\n", sections(3,
			top("a", "A", 2, 1, 3),
			sec("a/b", "B", 4, 2, 2, 0, 2),
			sec("a/c", "C", 3, 3, 3, 0, 2),
		)},
		{"a higher level ends every deeper section", "# P\n## A\n### B\ntext\n# Q\n", sections(5,
			top("p", "P", 1, 1, 4),
			sec("p/a", "A", 2, 2, 4, 0, 2),
			sec("p/a/b", "B", 3, 3, 4, 1, 3),
			top("q", "Q", 1, 5, 5),
		)},
		{"ends at the last line", "## A\ntext\n\n", sections(3, top("a", "A", 2, 1, 3))},
		{"no final newline", "## A\ntext", sections(2, top("a", "A", 2, 1, 2))},
		{"level 6 is the deepest", "###### Six\n####### Seven\n", sections(2, top("six", "Six", 6, 1, 2))},
	}
}

func headingCases() []parseCase {
	return []parseCase{
		{"up to 3 spaces of indent", "   ## Three\n", sections(1, top("three", "Three", 2, 1, 1))},
		{"4 spaces is indented code", "    ## Four\n", sections(1, preamble(1, 1))},
		{"closing sequence stripped", "## Title ##   \n", sections(1, top("title", "Title", 2, 1, 1))},
		{"escaped closing hash kept", "## Title \\#\n", sections(1, top("title-", "Title #", 2, 1, 1))},
		{"#hashtag is not a heading", "#hashtag\n", sections(1, preamble(1, 1))},
		{"no space after ##", "##No space\n", sections(1, preamble(1, 1))},
		{"escaped #", "\\# Not a heading\n", sections(1, preamble(1, 1))},
		{"tab after ##", "##\tTabbed\n", sections(1, top("tabbed", "Tabbed", 2, 1, 1))},
		{"7 hashes is text", "####### Seven\n", sections(1, preamble(1, 1))},
		{"empty heading", "## A\n##\ntext\n", sections(3,
			top("a", "A", 2, 1, 1),
			top("section", "", 2, 2, 3),
		)},
		{"empty title", "#\n", sections(1, intro("", 1, 1))},
		{"ATX heading interrupts a paragraph", "text\n## A\n", sections(2,
			preamble(1, 1),
			top("a", "A", 2, 2, 2),
		)},
		{"setext heading starts at its text", "Intro text\nsecond line\n---\nbody\n", sections(4,
			top("intro-text-second-line", "Intro text second line", 2, 1, 4),
		)},
		{"paragraph then --- is a setext heading", "Some text\n---\n", sections(2,
			top("some-text", "Some text", 2, 1, 2),
		)},
		{"--- after a blank line is a thematic break", "text\n\n---\n\nmore\n", sections(5, preamble(1, 5))},
		{"# inside a fenced block", "```\n# not a heading\n```\n## Real\n", domain.Structure{
			Lines:      4,
			Sections:   []domain.Section{preamble(1, 3), top("real", "Real", 2, 4, 4)},
			CodeBlocks: []domain.CodeBlock{code("", "```", "", 1, 3, true)},
		}},
		{"# inside a tilde block", "~~~\n# no\n~~~\n", domain.Structure{
			Lines:      3,
			Sections:   []domain.Section{preamble(1, 3)},
			CodeBlocks: []domain.CodeBlock{code("", "~~~", "", 1, 3, true)},
		}},
		{"# inside an unclosed block", "## A\n```\n# no\n", domain.Structure{
			Lines:      3,
			Sections:   []domain.Section{top("a", "A", 2, 1, 3)},
			CodeBlocks: []domain.CodeBlock{code("", "```", "", 2, 3, false)},
		}},
		{"# inside an HTML block", "<!--\n# no\n-->\n## Real\n", sections(4,
			preamble(1, 3),
			top("real", "Real", 2, 4, 4),
		)},
		{"heading in a blockquote is not a section", "> # Quoted\n\n## Real\n", sections(3,
			preamble(1, 2),
			top("real", "Real", 2, 3, 3),
		)},
		{"heading in a list item is not a section", "- # Item\n", sections(1, preamble(1, 1))},
		{"byte order mark", "\ufeff# Title\n", sections(1, intro("Title", 1, 1))},
	}
}

func lineCases() []parseCase {
	return []parseCase{
		{"empty file has no lines", "", domain.Structure{}},
		{"a lone newline is one line", "\n", domain.Structure{Lines: 1}},
		{"no final newline", "a", sections(1, preamble(1, 1))},
		{"a final newline starts no line", "a\n", sections(1, preamble(1, 1))},
		{"a blank last line", "a\n\n", sections(2, preamble(1, 2))},
		{"two lines", "a\nb", sections(2, preamble(1, 2))},
		{"CRLF", "# Title\r\n\r\nText\r\n## Sub\r\n", sections(4,
			intro("Title", 1, 3),
			top("sub", "Sub", 2, 4, 4),
		)},
		{"CRLF setext", "Title\r\n=====\r\n## Next\r\n", sections(3,
			intro("Title", 1, 2),
			top("next", "Next", 2, 3, 3),
		)},
		{"CRLF fence", "```go\r\nx\r\n```\r\n", domain.Structure{
			Lines:      3,
			Sections:   []domain.Section{preamble(1, 3)},
			CodeBlocks: []domain.CodeBlock{code("go", "```", "", 1, 3, true)},
		}},
		{"a lone CR is not a line break", "# A\r# B\n", sections(1, intro("A # B", 1, 1))},
		{"a lone CR in text", "text\rmore\n## A\n", sections(2,
			preamble(1, 1),
			top("a", "A", 2, 2, 2),
		)},
	}
}

func frontmatterCases() []parseCase {
	fm := func(lines, end int, s ...domain.Section) domain.Structure {
		return domain.Structure{Lines: lines, FrontmatterEnd: end, Sections: s}
	}
	return []parseCase{
		{"closed by ---", "---\ntitle: T\ntags: [a]\n---\n# Title\n", fm(5, 4, intro("Title", 5, 5))},
		{"closed by ...", "---\na: 1\n...\n## A\n", fm(4, 3, top("a", "A", 2, 4, 4))},
		{"empty", "---\n---\n", fm(2, 2)},
		{"closing line at end of file", "---\na: 1\n---", fm(3, 3)},
		{"YAML comment is not a heading", "---\n# comment\ntitle: x\n---\nBody\n", fm(5, 4, preamble(5, 5))},
		{"fence inside frontmatter", "---\nx: |\n  ```\n---\n## A\n", fm(5, 4, top("a", "A", 2, 5, 5))},
		{"trailing blanks on the fences", "--- \na: 1\n---\t\n## A\n", fm(4, 3, top("a", "A", 2, 4, 4))},
		{"CRLF", "---\r\ntitle: x\r\n---\r\n# T\r\n", fm(4, 3, intro("T", 4, 4))},
		{"byte order mark", "\ufeff---\na: 1\n---\n# T\n", fm(4, 3, intro("T", 4, 4))},
		{"unclosed: no frontmatter", "---\ntitle: x\n\n## A\n", fm(4, 0,
			preamble(1, 3),
			top("a", "A", 2, 4, 4),
		)},
		{"not at line 1: no frontmatter", "\n---\na: 1\n---\n", fm(4, 0,
			preamble(1, 2),
			top("a-1", "a: 1", 2, 3, 4),
		)},
		{"language-tagged opening (---yaml, ---js): metadata, never body", "---js\nmodule.exports = {title: 'x'}\n---\n# T\n", fm(4, 3, intro("T", 4, 4))},
		{"---yaml opening", "---yaml\na: 1\n---\n## A\n", fm(4, 3, top("a", "A", 2, 4, 4))},
		{"four dashes: no frontmatter", "----\na\n----\n", fm(3, 0,
			preamble(1, 1),
			top("a", "a", 2, 2, 3),
		)},
	}
}

func codeBlockCases() []parseCase {
	blocks := func(lines int, b ...domain.CodeBlock) domain.Structure {
		return domain.Structure{Lines: lines, Sections: []domain.Section{preamble(1, lines)}, CodeBlocks: b}
	}
	return []parseCase{
		{"backticks with info", "```go\nx := 1\n```\n", blocks(3, code("go", "```", "", 1, 3, true))},
		{"tildes, long fence, spaced info", "~~~~ python  title=\"x\"  \ncode\n~~~~\n",
			blocks(3, code(`python  title="x"`, "~~~~", "", 1, 3, true))},
		{"indented fence", "  ```\n  code\n  ```\n", blocks(3, code("", "```", "  ", 1, 3, true))},
		{"a shorter fence does not close", "````\n```\n````\n", blocks(3, code("", "````", "", 1, 3, true))},
		{"the other marker does not close", "```\n~~~\n```\n", blocks(3, code("", "```", "", 1, 3, true))},
		{"closing fence with indent and trailing blanks", "```\nx\n   ```  \n", blocks(3, code("", "```", "", 1, 3, true))},
		{"closing fence with info does not close", "```\nx\n``` no\n", blocks(3, code("", "```", "", 1, 3, false))},
		{"empty block", "```\n```\n", blocks(2, code("", "```", "", 1, 2, true))},
		{"two blocks", "```a\n```\n~~~b\n~~~\n", blocks(4,
			code("a", "```", "", 1, 2, true),
			code("b", "~~~", "", 3, 4, true),
		)},
		{"fence interrupts a paragraph", "text\n```\ncode\n```\n", blocks(4, code("", "```", "", 2, 4, true))},
		{"unclosed runs to the end of file", "## A\n```\ncode\n", domain.Structure{
			Lines:      3,
			Sections:   []domain.Section{top("a", "A", 2, 1, 3)},
			CodeBlocks: []domain.CodeBlock{code("", "```", "", 2, 3, false)},
		}},
		{"unclosed and empty at end of file", "```", blocks(1, code("", "```", "", 1, 1, false))},
		{"in a list item", "- item\n\n  ```sh\n  make\n  ```\n", blocks(5, code("sh", "```", "  ", 3, 5, true))},
		{"on a list marker line", "- ```js\n  x\n  ```\n", blocks(3, code("js", "```", " ", 1, 3, true))},
		{"unclosed in a list item ends with the item", "- ```\n  x\n\n  y\nz\n", blocks(5, code("", "```", " ", 1, 4, false))},
		{"in a blockquote", "> ```\n> a\n> ```\n", blocks(3, code("", "```", " ", 1, 3, true))},
		{"tab after the blockquote marker", ">\t```\n>\tx\n>\t```\n", blocks(3, code("", "```", "\t", 1, 3, true))},
		{"unclosed in a blockquote ends with it", "> ```\n> code\n\nafter\n", blocks(4, code("", "```", " ", 1, 2, false))},
		{"indented code is not a code block", "    code\n", blocks(1)},
		{"two backticks are no fence", "``\nx\n``\n", blocks(3)},
		{"backtick in a backtick info string: no fence", "``` a`b\n```\n", blocks(2, code("", "```", "", 2, 2, false))},
	}
}

func imageStubCases() []parseCase {
	stubs := func(lines int, s ...domain.ImageStub) domain.Structure {
		return domain.Structure{Lines: lines, Sections: []domain.Section{preamble(1, lines)}, Images: s}
	}
	return []parseCase{
		{"several per line, trimmed", "![[image:a]] and ![[image:b]]\n![[image: c ]]\n", stubs(2, img("a", 1), img("b", 1), img("c", 2))},
		{"adjacent", "![[image:a]]![[image:b]]\n", stubs(1, img("a", 1), img("b", 1))},
		{"in a blockquote", "> see ![[image:q]]\n", stubs(1, img("q", 1))},
		{"in indented code", "    ![[image:x]]\n", stubs(1, img("x", 1))},
		{"in an HTML comment", "<!-- ![[image:old]] -->\n", stubs(1, img("old", 1))},
		{"in a heading", "## Diagram ![[image:d]]\n", domain.Structure{
			Lines:    1,
			Sections: []domain.Section{top("diagram-imaged", "Diagram ![[image:d]]", 2, 1, 1)},
			Images:   []domain.ImageStub{img("d", 1)},
		}},
		{"empty id is no stub", "![[image:]] ![[image:  ]]\n", stubs(1)},
		{"closed on another line: no stub", "![[image:x]\n]]\n", stubs(2)},
		{"inside a code span", "Use `![[image:x]]` to embed ![[image:y]].\n", stubs(1, img("y", 1))},
		{"inside a code span over two lines", "`x\n![[image:x]]`\n", stubs(2)},
		{"inside fenced code", "```\n![[image:x]]\n```\n![[image:y]]\n", domain.Structure{
			Lines:      4,
			Sections:   []domain.Section{preamble(1, 4)},
			CodeBlocks: []domain.CodeBlock{code("", "```", "", 1, 3, true)},
			Images:     []domain.ImageStub{img("y", 4)},
		}},
		{"inside an unclosed fence", "```\n![[image:x]]\n", domain.Structure{
			Lines:      2,
			Sections:   []domain.Section{preamble(1, 2)},
			CodeBlocks: []domain.CodeBlock{code("", "```", "", 1, 2, false)},
		}},
		{"in an info string", "```![[image:x]]\n```\n", domain.Structure{
			Lines:      2,
			Sections:   []domain.Section{preamble(1, 2)},
			CodeBlocks: []domain.CodeBlock{code("![[image:x]]", "```", "", 1, 2, true)},
		}},
		{"inside fenced code in a list", "- ```\n  ![[image:x]]\n  ```\n\n![[image:y]]\n", domain.Structure{
			Lines:      5,
			Sections:   []domain.Section{preamble(1, 5)},
			CodeBlocks: []domain.CodeBlock{code("", "```", " ", 1, 3, true)},
			Images:     []domain.ImageStub{img("y", 5)},
		}},
		{"in frontmatter: no stub", "---\nimage: ![[image:x]]\n---\ntext ![[image:y]]\n", domain.Structure{
			Lines: 4, FrontmatterEnd: 3,
			Sections: []domain.Section{preamble(4, 4)},
			Images:   []domain.ImageStub{img("y", 4)},
		}},
	}
}

// standardImageCases pin down standard images: CommonMark's inline and
// reference-style images (so none in code or an HTML comment), and HTML
// <img> tags with a src, inline or in HTML blocks, in document order with
// the stubs of the image index. The destination is reported as CommonMark
// reads it (escapes and character references resolved, percent-encoding
// kept); where it points is the domain's business (domain.ResolveImage).
func standardImageCases() []parseCase {
	doc := func(lines int, s ...domain.ImageStub) domain.Structure {
		return domain.Structure{Lines: lines, Sections: []domain.Section{preamble(1, lines)}, Images: s}
	}
	titled := func(src, alt, title string, line int) domain.ImageStub {
		return domain.ImageStub{Src: src, Alt: alt, Title: title, Line: line}
	}
	return []parseCase{
		{"inline, relative", "See ![Architecture](img/arch.png).\n", doc(1, std("img/arch.png", "Architecture", 1))},
		{"with a title, up a folder", "![Arch](../img/arch.png \"The title\")\n", doc(1, titled("../img/arch.png", "Arch", "The title", 1))},
		{"angle brackets keep spaces", "![A](<my file.png>)\n", doc(1, std("my file.png", "A", 1))},
		{"escapes and references resolved", "![A](a\\_b&amp;c&#46;png)\n", doc(1, std("a_b&c.png", "A", 1))},
		{"percent-encoding kept", "![A](a%20b.png)\n", doc(1, std("a%20b.png", "A", 1))},
		{"empty destination", "![nothing]()\n", doc(1, std("", "nothing", 1))},
		{"remote and data kept as written", "![r](https://x.test/r.png) ![d](data:image/png;base64,AA==)\n",
			doc(1, std("https://x.test/r.png", "r", 1), std("data:image/png;base64,AA==", "d", 1))},
		{"alt text is plain text", "![*big* `code` \\*](x.png)\n", doc(1, std("x.png", "big code *", 1))},
		{"alt over two lines starts on the first", "![two\nlines](x.png)\n", doc(2, std("x.png", "two lines", 1))},
		{"reference styles", "![Full][r] ![r][] ![R]\n\n[r]: <r.png> \"Ref title\"\n", doc(3,
			titled("r.png", "Full", "Ref title", 1), titled("r.png", "r", "Ref title", 1), titled("r.png", "R", "Ref title", 1))},
		{"undefined reference: no image", "![x][nowhere] ![y]\n", doc(1)},
		{"inside a link", "[![build](b.svg)](https://ci.test)\n", doc(1, std("b.svg", "build", 1))},
		{"in a blockquote and a list", "> ![q](q.png)\n\n- ![l](l.png)\n", doc(3, std("q.png", "q", 1), std("l.png", "l", 3))},
		{"in order with stubs", "![[image:a]] ![b](b.png) ![[image:c]]\n![d](d.png)\n", doc(2,
			img("a", 1), std("b.png", "b", 1), img("c", 1), std("d.png", "d", 2))},
		{"not in code", "```\n![f](f.png)\n<img src=\"f.png\">\n```\n    ![i](i.png)\n\n`![s](s.png)`\n", domain.Structure{
			Lines:      7,
			Sections:   []domain.Section{preamble(1, 7)},
			CodeBlocks: []domain.CodeBlock{code("", "```", "", 1, 4, true)},
		}},
		{"not in an HTML comment", "<!-- ![c](c.png) <img src=\"c.png\"> -->\n", doc(1)},
		{"in frontmatter: none", "---\nimage: ![x](x.png)\n---\n![y](y.png)\n", domain.Structure{
			Lines: 4, FrontmatterEnd: 3,
			Sections: []domain.Section{preamble(4, 4)},
			Images:   []domain.ImageStub{std("y.png", "y", 4)},
		}},
		{"in a heading", "## Diagram ![d](d.png)\n", domain.Structure{
			Lines:    1,
			Sections: []domain.Section{top("diagram", "Diagram", 2, 1, 1)},
			Images:   []domain.ImageStub{std("d.png", "d", 1)},
		}},
		{"html block", "<img src=\"h.png\" alt=\"H &amp; I\" title='T'>\n", doc(1, titled("h.png", "H & I", "T", 1))},
		{"html inline, any case, unquoted", "Text <IMG SRC=u%20v.png ALT=u> more\n", doc(1, std("u%20v.png", "u", 1))},
		{"html entities decoded", "<img src=\"a&amp;b.png\">\n", doc(1, std("a&b.png", "", 1))},
		{"html first attribute wins", "<img src=\"one.png\" src=\"two.png\">\n", doc(1, std("one.png", "", 1))},
		{"html without src, or not img: none", "<img alt=\"no src\"> <imgx src=\"x.png\">\n", doc(1)},
		{"html tag over lines starts on its first", "<div>\n<img\n  src=\"m.png\"\n  alt=\"M\">\n</div>\n", doc(5, std("m.png", "M", 2))},
		{"html two on a line", "<p><img src=\"a.png\"><img src='b.png'></p>\n", doc(1, std("a.png", "", 1), std("b.png", "", 1))},
	}
}

// adversarialInputs only have to hold Check: deep nesting, long runs of
// delimiters, control bytes, invalid UTF-8.
func adversarialInputs() []string {
	return []string{
		strings.Repeat("#", 1000),
		strings.Repeat("# a\n", 300),
		strings.Repeat("> ", 300) + "# deep\n```\nx",
		strings.Repeat("- ", 200) + "```\n" + strings.Repeat("  ", 200) + "x\n",
		strings.Repeat("`", 1000),
		strings.Repeat("~~~\n", 101),
		strings.Repeat("[", 500) + strings.Repeat("]", 500),
		strings.Repeat("*a", 500) + strings.Repeat("_", 500),
		strings.Repeat("![[image:", 200) + "]]",
		strings.Repeat("![", 300) + strings.Repeat("](x)", 300),
		strings.Repeat("<img src=", 300) + ">",
		"<img src=\"" + strings.Repeat("a", 500) + "\n",
		"![a](<b\n> ![c](d \"e\n",
		strings.Repeat("---\n", 50),
		strings.Repeat("\r", 100) + "# x\r\r\n",
		"\x00# \x00\n## \x00\x00\n```\x00\n",
		"\xff\xfe# bad \xc3\n## \xe2\x82\n\xef\xbb\xbf# bom inside\n",
		"\t# tab\n\t\t```\n\t\t\tx\n",
		"-\t```\n\t\tx\n>\t>\t```\n",
		"Title\n===\nTitle\n===\n# Title\n## Title\n### Title\n",
		"---\n---\n---\n# a\n---\n",
		"\ufeff",
		"\ufeff---\n",
		"## ![[image:a]]\n## ![[image:a]]\n",
		"<details>\n# x\n```\n</details>\n~~~\n",
	}
}
