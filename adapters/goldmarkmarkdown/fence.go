package goldmarkmarkdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// goldmark keeps a fenced code block's content lines but not its closing
// fence, and its node.Pos() is off by the padding of a tab that a container
// (`>\t```) split. fenceParser wraps goldmark's own fenced-code parser, so the
// CommonMark rules stay goldmark's, and notes what the AST does not keep:
// where the opening fence marker is, the last line the block took, and
// whether that line was a closing fence.

// fence is what fenceParser noted about one fenced code block.
type fence struct {
	node       ast.Node
	marker     int  // byte offset of the opening fence's first marker character
	markerLen  int  // length of the opening marker run
	lastOffset int  // a byte offset in the last line the block took (-1: none after the opening line)
	closed     bool // the last line was a closing fence
}

// fenceLog collects the fences of one parse. It lives in that parse's
// parser.Context, so one goldmark parser serves concurrent parses.
type fenceLog struct {
	fences []fence
}

var fenceLogKey = parser.NewContextKey()

func (l *fenceLog) find(node ast.Node) *fence {
	for i := len(l.fences) - 1; i >= 0; i-- {
		if l.fences[i].node == node {
			return &l.fences[i]
		}
	}
	return nil
}

type fenceParser struct {
	parser.BlockParser
}

// newFenceParser wraps goldmark's fenced-code block parser.
func newFenceParser() parser.BlockParser {
	return fenceParser{BlockParser: parser.NewFencedCodeBlockParser()}
}

func (p fenceParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, segment := reader.PeekLine()
	pos := pc.BlockOffset()
	node, state := p.BlockParser.Open(parent, reader, pc)
	if node == nil || pos < segment.Padding || pos >= len(line) {
		return node, state
	}
	if log, ok := pc.Get(fenceLogKey).(*fenceLog); ok {
		run := pos
		for run < len(line) && line[run] == line[pos] {
			run++
		}
		log.fences = append(log.fences, fence{
			node: node,
			// line is the segment's bytes after Padding spaces that stand for
			// the part of a tab a container did not consume.
			marker:     segment.Start - segment.Padding + pos,
			markerLen:  run - pos,
			lastOffset: -1,
		})
	}
	return node, state
}

func (p fenceParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	_, segment := reader.PeekLine()
	state := p.BlockParser.Continue(node, reader, pc)
	if log, ok := pc.Get(fenceLogKey).(*fenceLog); ok {
		if f := log.find(node); f != nil {
			f.lastOffset = segment.Start
			f.closed = state&parser.Close != 0
		}
	}
	return state
}
