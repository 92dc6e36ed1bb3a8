// Package goldmarkmarkdown is the goldmark adapter of the markdown port
// (ports/markdown): it finds a document's sections, fenced code blocks and
// image stubs with goldmark's CommonMark parser, and applies seed 000's
// section rules to what goldmark finds. It runs the markdowntest suite.
//
// goldmark does the CommonMark work (what is a heading, where a fence
// opens, what its container is); this package adds what goldmark's AST
// leaves out: YAML frontmatter, line numbers, closing fences, slugs,
// image stubs, and the <img> tags of raw HTML. A document on which goldmark would be superlinear is read by
// a plain heading scan instead (guard.go, scan.go), so no file costs more
// than a fraction of a second.
package goldmarkmarkdown

import (
	"bytes"
	"fmt"
	"log/slog"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/markdown"
)

// Parser is a markdown.Parser over goldmark. The zero value is ready to
// use, and a Parser is safe for concurrent use.
type Parser struct {
	goldmark parser.Parser // nil: the package's shared goldmark parser
}

var _ markdown.Parser = (*Parser)(nil)

// New returns a Parser.
func New() *Parser {
	return &Parser{}
}

// sharedGoldmark is built once: goldmark parsers are safe for concurrent
// use, and building one sorts and indexes all its block and inline parsers.
var sharedGoldmark = sync.OnceValue(func() parser.Parser { return newGoldmark(true) })

// newGoldmark builds a goldmark parser with CommonMark's block and inline
// parsers, its fenced-code parser wrapped to note closing fences (fence.go).
// skipInline adds plainParagraphs (plain.go), which tests turn off to show
// that it changes nothing but speed.
func newGoldmark(skipInline bool) parser.Parser {
	blocks := parser.DefaultBlockParsers()
	fenced := parser.NewFencedCodeBlockParser()
	for i, b := range blocks {
		if b.Value == fenced {
			blocks[i] = util.Prioritized(newFenceParser(), b.Priority)
		}
	}
	transformers := parser.DefaultParagraphTransformers()
	if skipInline {
		// After goldmark's link reference definitions (100).
		transformers = append(transformers, util.Prioritized(plainParagraphs{}, 1000))
	}
	return parser.NewParser(
		parser.WithBlockParsers(blocks...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(transformers...),
	)
}

// Parse implements markdown.Parser. It never fails and never panics: should
// goldmark ever panic on some input, the document is reported as plain text
// (its body one _preamble section, no code blocks) and the panic is logged.
func (p *Parser) Parse(src []byte) (s domain.Structure) {
	defer func() {
		if r := recover(); r != nil {
			slog.Error("markdown: goldmark panicked; the document is treated as plain text",
				"panic", fmt.Sprint(r))
			s = plainText(src)
		}
	}()
	return p.parse(src)
}

// parse is Parse without the safety net, so that tests and the fuzzer see a
// panic.
func (p *Parser) parse(src []byte) domain.Structure {
	lines := newLineIndex(src)
	fmLine, blankEnd := frontmatterEnd(src, lines)
	if bytes.HasPrefix(src, utf8BOM) {
		// goldmark would read "\ufeff# Title" as a paragraph.
		blankEnd = max(blankEnd, len(utf8BOM))
	}
	body := src
	if blankEnd > 0 {
		body = blankPrefix(src, blankEnd)
	}

	if reason := costly(body); reason != "" {
		slog.Warn("markdown: document too costly for the full parser; its sections come from a plain heading scan",
			"reason", reason, "bytes", len(src), "lines", lines.count)
		s := scanStructure(src)
		s.Simplified = reason
		return s
	}

	pc := parser.NewContext()
	fences := &fenceLog{}
	pc.Set(fenceLogKey, fences)
	gm := p.goldmark
	if gm == nil {
		gm = sharedGoldmark()
	}
	doc := gm.Parse(text.NewReader(body), parser.WithContext(pc))

	var headings []heading
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			headings = append(headings, heading{
				level: h.Level,
				line:  lines.line(headingOffset(h)),
				text:  headingText(h, body),
				raw:   headingSource(h, body),
			})
		}
	}

	bodyStart := fmLine + 1
	firstHeading := lines.count + 1
	if len(headings) > 0 {
		firstHeading = headings[0].line
	}
	o := outline{
		lines:       lines.count,
		bodyStart:   bodyStart,
		preambleSet: !isBlank(body[lines.start(bodyStart):lines.start(firstHeading)]),
	}

	code := codeBlocks(fences.fences, body, lines)
	var codeSpans []span
	if bytes.Contains(body, stubOpen) {
		codeSpans = collectCodeSpans(doc)
	}
	var standard []foundImage
	if mayHoldImage(body) {
		standard = standardImages(doc, body)
	}
	return domain.Structure{
		Lines:          lines.count,
		FrontmatterEnd: fmLine,
		Sections:       buildSections(headings, o),
		CodeBlocks:     code,
		Images:         mergeImages(lines, imageStubs(body, lines.start(bodyStart), lines, code, codeSpans), standard),
		Version:        domain.StructureVersion,
	}
}

// headingOffset is a byte offset on the heading's first line: its first
// text line (a setext heading's text, not its underline), or, for an empty
// ATX heading, which has no lines, its '#'.
func headingOffset(h *ast.Heading) int {
	if h.Lines().Len() > 0 {
		return h.Lines().At(0).Start
	}
	return h.Pos()
}

// headingSource is the source of a heading's last line of text, where
// an explicit anchor (`{#id}`) is written.
func headingSource(h *ast.Heading, src []byte) string {
	if n := h.Lines().Len(); n > 0 {
		last := h.Lines().At(n - 1)
		return string(last.Value(src))
	}
	return ""
}

// codeBlocks turns the fences noted during a parse into code blocks, in
// document order.
func codeBlocks(fences []fence, src []byte, lines lineIndex) []domain.CodeBlock {
	if len(fences) == 0 {
		return nil
	}
	blocks := make([]domain.CodeBlock, 0, len(fences))
	for _, f := range fences {
		indent := f.marker
		for indent > 0 && (src[indent-1] == ' ' || src[indent-1] == '\t') {
			indent--
		}
		b := domain.CodeBlock{
			Fence:  string(src[f.marker : f.marker+f.markerLen]),
			Indent: string(src[indent:f.marker]),
			Start:  lines.line(f.marker),
			Closed: f.closed,
		}
		b.End = b.Start
		if f.lastOffset >= 0 {
			b.End = lines.line(f.lastOffset)
		}
		if info := f.node.(*ast.FencedCodeBlock).Info; info != nil {
			b.Info = string(bytes.Trim(info.Segment.Value(src), " \t"))
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// collectCodeSpans returns the byte ranges of the inline code spans of the
// document, in document order.
func collectCodeSpans(doc ast.Node) []span {
	var spans []span
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			first, last := n.FirstChild(), n.LastChild()
			if first == nil {
				return ast.WalkSkipChildren, nil
			}
			if a, ok := first.(*ast.Text); ok {
				if b, ok := last.(*ast.Text); ok {
					spans = append(spans, span{a.Segment.Start, b.Segment.Stop})
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return spans
}

// plainText is the structure of a document goldmark could not parse: its
// lines, its frontmatter, and its body as one _preamble section when it has
// any text.
func plainText(src []byte) domain.Structure {
	lines := newLineIndex(src)
	fmLine, _ := frontmatterEnd(src, lines)
	o := outline{lines: lines.count, bodyStart: fmLine + 1}
	o.preambleSet = !isBlank(src[lines.start(o.bodyStart):])
	return domain.Structure{
		Lines:          lines.count,
		FrontmatterEnd: fmLine,
		Sections:       buildSections(nil, o),
		Version:        domain.StructureVersion,
	}
}

var _ markdown.FrontmatterFinder = (*Parser)(nil)

// FrontmatterEnd implements markdown.FrontmatterFinder: the line that
// closes a leading frontmatter block, as Parse reports it, found by the
// same scan without parsing the rest.
func (p *Parser) FrontmatterEnd(src []byte) int {
	line, _ := frontmatterEnd(src, newLineIndex(src))
	return line
}
