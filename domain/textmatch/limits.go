package textmatch

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// The bounds of a scan: a regex run over every line is capped in size (RE2's
// time per byte grows with it), and a regex run over a long input stops when
// its context ends.

// MaxRegexInsts caps the compiled size of a regex run over the lines: about
// 2,000 words in one alternation with something around them. Plain words
// joined by | are matched as literals and take no part of it.
const MaxRegexInsts = 20000

// SyntaxError is a query Go's regexp package refuses; Err is its error.
type SyntaxError struct{ Err error }

func (e *SyntaxError) Error() string { return e.Err.Error() }
func (e *SyntaxError) Unwrap() error { return e.Err }

// TooLargeError is a regex whose compiled program has Insts instructions,
// over Limit (MaxRegexInsts).
type TooLargeError struct{ Insts, Limit int }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the regex compiles to %d instructions, over the limit of %d", e.Insts, e.Limit)
}

// checkProgram refuses a regex whose compiled program is over MaxRegexInsts.
func checkProgram(tree *syntax.Regexp) error {
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return nil // regexp.Compile reports it
	}
	if n := len(prog.Inst); n > MaxRegexInsts {
		return &TooLargeError{Insts: n, Limit: MaxRegexInsts}
	}
	return nil
}

// longInput is the input size from which a regex runs through ctxReader,
// so a single call on a long line stops when the search does.
const longInput = 1 << 20

// FindIndex is re.FindIndex(b), stopping (nil) when ctx is done during a
// long input.
func FindIndex(ctx context.Context, re *regexp.Regexp, b []byte) []int {
	if len(b) < longInput {
		return re.FindIndex(b)
	}
	loc := re.FindReaderIndex(&ctxReader{ctx: ctx, b: b})
	if ctx.Err() != nil {
		return nil
	}
	return loc
}

// ctxReader reads b rune by rune as the regexp package reads a []byte (an
// invalid byte is U+FFFD of width 1), and ends early when ctx is done,
// checked every few thousand runes.
type ctxReader struct {
	ctx context.Context
	b   []byte
	off int
	n   int
}

func (r *ctxReader) ReadRune() (rune, int, error) {
	if r.off >= len(r.b) {
		return 0, 0, io.EOF
	}
	if r.n++; r.n%4096 == 0 && r.ctx.Err() != nil {
		return 0, 0, io.EOF
	}
	c := r.b[r.off]
	if c < utf8.RuneSelf {
		r.off++
		return rune(c), 1, nil
	}
	ru, size := utf8.DecodeRune(r.b[r.off:])
	r.off += size
	return ru, size, nil
}
