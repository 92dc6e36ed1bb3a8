package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"time"
	"unicode/utf8"

	"github.com/librarian/librarian/domain"
)

// The bounds of one search (issue 14): every query, of every tool set, is
// capped in length; a regex that the scan must run over lines is capped in
// size; and each search_documents call stops at a time limit, or as soon as
// its client cancels or the session ends, answering with what it searched.

// MaxQueryBytes caps a search query: 64 KiB holds a regex of 3,000 words
// joined by |, and no query an agent writes comes near it.
const MaxQueryBytes = 64 << 10

// maxRegexInsts caps the compiled size of a regex run over the lines (RE2's
// time per byte grows with it): about 2,000 words in one alternation with
// something around them. Plain words joined by | are matched as literals
// and take no part of it.
const maxRegexInsts = 20000

// DefaultSearchTimeout is how long one search_documents call may scan
// before it answers with what it found so far.
const DefaultSearchTimeout = 10 * time.Second

// errSearchTimeLimit is the cause of a search stopped at its time limit.
var errSearchTimeLimit = errors.New("the search time limit passed")

// checkQuery refuses a query over MaxQueryBytes or not valid UTF-8.
func checkQuery(q string) error {
	if len(q) > MaxQueryBytes {
		return fmt.Errorf("%w: 'query' is %d bytes, over the %d-byte limit for a query: search for a shorter string, or split a long list of words into several searches",
			domain.ErrInvalidArgument, len(q), MaxQueryBytes)
	}
	if !utf8.ValidString(q) {
		return fmt.Errorf("%w: 'query' %s is not valid UTF-8", domain.ErrInvalidArgument, domain.QuoteInput(q, '"'))
	}
	return nil
}

// checkProgram refuses a regex whose compiled program is over maxRegexInsts.
func checkProgram(tree *syntax.Regexp) error {
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return nil // regexp.Compile reports it
	}
	if n := len(prog.Inst); n > maxRegexInsts {
		return fmt.Errorf("%w: the regex is too large: it compiles to %d instructions, over the limit of %d for a regex run over every line "+
			"(its time grows with its size); plain words joined by | have no such limit, or split the regex into several searches, or narrow root, tags or depth",
			domain.ErrInvalidArgument, n, maxRegexInsts)
	}
	return nil
}

// regexError words a regexp compile error with its part of the query
// quoted short: Go's message quotes the offending part, which may be the
// whole query.
func regexError(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		return fmt.Sprintf("error parsing regexp: %s: %s", se.Code, domain.QuoteInput(se.Expr, '`'))
	}
	return domain.QuoteInput(err.Error(), 0)
}

// searchTimeout is the call's time limit.
func (l *Library) searchTimeout() time.Duration {
	if l.cfg.SearchTimeout > 0 {
		return l.cfg.SearchTimeout
	}
	return DefaultSearchTimeout
}

// timeLimitNote says where a search stopped at its time limit and how to
// narrow it. done tells which docs were searched whole, in scope order.
func timeLimitNote(limit time.Duration, docs []domain.Document, done []bool) string {
	searched, first := 0, -1
	for i, ok := range done {
		if ok {
			searched++
		} else if first < 0 {
			first = i
		}
	}
	where := ""
	if first >= 0 {
		where = "; not searched (they may hold hits): " + docs[first].Path
		if rest := len(docs) - searched - 1; rest > 0 {
			where += fmt.Sprintf(" and %d more %s after it in path order", rest, domain.Plural(rest, "doc", "docs"))
		}
	}
	return fmt.Sprintf("the search stopped at its time limit (%s): the hits above are from the %d of %d %s searched whole%s. "+
		"Narrow root, tags or depth, or make the query plainer (a string, or plain words joined by | in regex mode, are found fastest)",
		limit, searched, len(docs), domain.Plural(len(docs), "doc", "docs"), where)
}

// longInput is the input size from which a regex runs through ctxReader,
// so a single call on a long line stops when the search does.
const longInput = 1 << 20

// findIndex is re.FindIndex(b), stopping (nil) when ctx is done during a
// long input.
func findIndex(ctx context.Context, re *regexp.Regexp, b []byte) []int {
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
