package domain

import (
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/librarian/librarian/domain/wording"
)

// The defaults of the limits every call is held to, shared by the use cases
// that apply them and the settings that let a user change them.

// DefaultMaxDocBytes is the largest document file read: 16 MiB, far above
// any markdown an agent can use in one answer.
const DefaultMaxDocBytes = 16 << 20

// DefaultSearchTimeout is how long one search_documents call may scan
// before it answers with what it found so far.
const DefaultSearchTimeout = 10 * time.Second

// ErrSearchTimeLimit is the cause of a search stopped at its time limit
// (context.Cause): it answers with what it searched.
var ErrSearchTimeLimit = errors.New("the search time limit passed")

// MaxQueryBytes caps a search query, of every tool set: 64 KiB holds a
// regex of 3,000 words joined by |, and no query an agent writes comes
// near it.
const MaxQueryBytes = 64 << 10

// CheckQuery refuses a query over MaxQueryBytes or not valid UTF-8.
func CheckQuery(q string) error {
	if len(q) > MaxQueryBytes {
		return fmt.Errorf("%w: 'query' is %d bytes, over the %d-byte limit for a query: search for a shorter string, or split a long list of words into several searches",
			ErrInvalidArgument, len(q), MaxQueryBytes)
	}
	if !utf8.ValidString(q) {
		return fmt.Errorf("%w: 'query' %s is not valid UTF-8", ErrInvalidArgument, wording.QuoteInput(q, '"'))
	}
	return nil
}
