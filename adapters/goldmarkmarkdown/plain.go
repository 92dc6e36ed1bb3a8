package goldmarkmarkdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Inline parsing is about a third of goldmark's time, and this package needs
// the inline structure of headings only, and of paragraphs only where an
// image stub could sit inside a code span (a paragraph with a stub and a
// backtick) or a standard image could be (mayHoldImage). plainParagraphs turns every other
// closed paragraph into a plainParagraph, a raw block goldmark does not parse
// inline. Which paragraphs it converts never changes the Structure: a test
// (and FuzzParse) compares against a parser without it.

// kindPlainParagraph is the ast.NodeKind of plainParagraph.
var kindPlainParagraph = ast.NewNodeKind("PlainParagraph")

// plainParagraph is a paragraph whose inline content nobody needs.
type plainParagraph struct {
	ast.BaseBlock
}

func (n *plainParagraph) Kind() ast.NodeKind { return kindPlainParagraph }

// IsRaw tells goldmark not to parse the lines inline.
func (n *plainParagraph) IsRaw() bool { return true }

func (n *plainParagraph) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// plainParagraphs is a parser.ParagraphTransformer that runs after goldmark's
// link reference definitions are taken out of the paragraph.
type plainParagraphs struct{}

func (plainParagraphs) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	// goldmark also transforms a paragraph just before it becomes a setext
	// heading's text, with the reader on the underline; a paragraph that
	// is transformed there is "consumed" and the heading is lost. Keep every
	// paragraph that is followed by a line that might be an underline.
	line, _ := reader.PeekLine()
	if mayBeSetextUnderline(line) {
		return
	}
	lines := node.Lines()
	if lines.Len() == 0 {
		return
	}
	src := reader.Source()
	// An image stub needs the inline structure only to tell whether it sits
	// in a code span, and a code span needs a backtick; a standard image
	// needs it to be found at all (images.go).
	text := src[lines.At(0).Start:lines.At(lines.Len()-1).Stop]
	if bytes.Contains(text, stubOpen) && bytes.IndexByte(text, '`') >= 0 || mayHoldImage(text) {
		return
	}
	plain := &plainParagraph{}
	plain.SetLines(lines)
	plain.SetPos(node.Pos())
	plain.SetBlankPreviousLines(node.HasBlankPreviousLines())
	node.Parent().ReplaceChild(node.Parent(), node, plain)
}

// mayBeSetextUnderline reports whether line, after any indent, is a run of
// '=' or of '-' and then only blanks: a superset of goldmark's underlines.
func mayBeSetextUnderline(line []byte) bool {
	line = bytes.TrimLeft(line, " \t")
	if len(line) == 0 || (line[0] != '=' && line[0] != '-') {
		return false
	}
	rest := bytes.TrimLeft(line, string(line[:1]))
	return len(bytes.Trim(rest, " \t\r\n")) == 0
}
