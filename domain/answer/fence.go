package answer

import (
	"fmt"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/wording"
)

// OpeningFence is the fence line that re-opens blk: its indent, marker and
// info string, spaced as the file's own opening line has them.
func (t *DocText) OpeningFence(blk *domain.CodeBlock) string {
	line := string(t.Line(blk.Start))
	if blk.Fence != "" {
		if i := strings.Index(line, blk.Fence); i >= 0 {
			rest := strings.TrimRight(line[i+len(blk.Fence):], "\r")
			// Past the marker run, the rest is the info string with its spacing.
			rest = strings.TrimLeft(rest, blk.Fence[:1])
			if strings.TrimSpace(rest) == blk.Info {
				return blk.Indent + blk.Fence + strings.TrimRight(rest, " \t")
			}
		}
	}
	if blk.Info == "" {
		return blk.Indent + blk.Fence
	}
	return blk.Indent + blk.Fence + " " + blk.Info
}

// OpeningRepair is what precedes a run of lines that starts at line a
// inside a code block, so that its lines read as code: a note saying why
// and the block's opening fence. Nil when a is not inside a block past its
// opening fence.
func (t *DocText) OpeningRepair(a int) []string {
	if blk := t.BlockAt(a); blk != nil && blk.Start < a {
		return []string{fmt.Sprintf("[fence re-opened: L%d is inside the %s of %s]", a, BlockName(blk), wording.LineSpan(blk.Start, blk.End)), t.OpeningFence(blk)}
	}
	return nil
}

// ClosingRepair is what follows a run of lines that ends at line b inside
// a code block, so that the block does not swallow what comes next: the
// block's closing fence and a note saying why. Nil when b ends no block
// early.
func (t *DocText) ClosingRepair(b int) []string {
	blk := t.BlockAt(b)
	switch {
	case blk == nil:
		return nil
	case b < blk.End:
		return []string{blk.Indent + blk.Fence, fmt.Sprintf("[fence closed: the %s of %s continues after L%d]", BlockName(blk), wording.LineSpan(blk.Start, blk.End), b)}
	case !blk.Closed && blk.End == t.N:
		return []string{blk.Indent + blk.Fence, fmt.Sprintf("[fence closed: the %s of %s is never closed in the file]", BlockName(blk), wording.LineSpan(blk.Start, blk.End))}
	}
	return nil
}

// BlockName is "python code block", or "code block" without an info string.
func BlockName(b *domain.CodeBlock) string {
	if lang := CodeLanguage(b); lang != "" {
		return lang + " code block"
	}
	return "code block"
}

// CodeLanguage is the info string's first word, seed 000's `python`.
func CodeLanguage(b *domain.CodeBlock) string {
	if f := strings.Fields(b.Info); len(f) > 0 {
		return f[0]
	}
	return ""
}

// CodePlaceholder is seed 000's one-line note for an omitted code block:
// [code block omitted: python, 11 lines, L22–34]: the count is its content
// lines, the range includes its fences; without an info string the
// language is left out.
func CodePlaceholder(b *domain.CodeBlock) string {
	n := b.ContentLines()
	// "lines" for every count, seed 000's one form.
	what := fmt.Sprintf("%d lines, %s", n, wording.LineSpan(b.Start, b.End))
	if lang := CodeLanguage(b); lang != "" {
		what = lang + ", " + what
	}
	return "[code block omitted: " + what + "]"
}
