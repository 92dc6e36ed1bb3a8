// Package markdown is the markdown-parser port: it finds a document's
// sections, fenced code blocks and images (seed 000's stubs and standard
// markdown images), by seed 000's rules.
// Adapter: adapters/goldmarkmarkdown. Every adapter runs markdowntest.
package markdown

import "github.com/librarian/librarian/domain"

// Parser parses one file's bytes. It is pure (no I/O), safe for concurrent
// use, and never fails on any input: malformed markdown is still markdown.
//
// Rules (seed 000): line numbers are the file's own 1-based lines split on
// '\n' only; a leading YAML frontmatter block ('---' ... '---' at line 1) is
// metadata, reported in FrontmatterEnd and never parsed as headings; ATX and
// setext headings following CommonMark, none inside fenced code; a section id
// is its heading's GitHub slug nested with '/' under its parent's id;
// duplicate sibling slugs get '-1', '-2'; when the first heading is the doc's
// only level-1 heading it is the title, its children are the top-level
// sections and the title with the text under it is "_intro"; text before the
// first heading is "_preamble"; fenced blocks use ``` or ~~~ and an unclosed
// one runs to the end of its container; `![[image:ID]]` outside code is an
// image stub. Standard images follow CommonMark: `![alt](src "title")`
// and reference-style images whose definition exists, none in code or an
// HTML comment, and HTML `<img>` tags with a src, inline or in HTML
// blocks; each with its destination as written (escapes and character
// references resolved, percent-encoding kept) and its alt text as plain
// text. Images come in document order, both kinds together, each at the
// line its markup starts on. A parse carries domain.StructureVersion.
type Parser interface {
	Parse(src []byte) domain.Structure
}

// FrontmatterFinder is a Parser that also finds, without a full parse, the
// line that closes a doc's frontmatter (Structure.FrontmatterEnd, 0 when
// none): a literal or regex scan over a doc skips its frontmatter and
// needs nothing else of its structure, and parsing every doc of a library
// that is not indexed yet cost a first session's search a second. The
// answer is always the one Parse gives (markdowntest checks it).
type FrontmatterFinder interface {
	FrontmatterEnd(src []byte) int
}
