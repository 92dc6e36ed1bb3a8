package passage

// A section whose line includes another file (domain.Includes: Hugo's
// include shortcode, VitePress's @include, an MDX component imported from
// a markdown file) holds none of that file's words: "Set span status" in
// seven languages' pages is one `{{% include "span-status-preamble.md" %}}`
// line. When an answer quotes such a line, it quotes the included file's
// best lines in its place, with the file's path and line numbers, so the
// agent reads the fact and can fetch where it is.

// IncludedLines is how many lines of an included file a section quotes in
// place of its including line, when it quotes others of its own lines
// besides it (its heading line aside: it names the section, the included
// file is its body) of the n it may quote: the places they leave, one at
// least.
func IncludedLines(n, others int) int {
	return max(1, n-others)
}
