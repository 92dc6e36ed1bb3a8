package memjournal

import (
	"testing"

	"github.com/librarian/librarian/ports/journal"
	"github.com/librarian/librarian/ports/journal/journaltest"
)

func TestContract(t *testing.T) {
	journaltest.Run(t, journaltest.Factory{New: func(t *testing.T, l journal.Limits) journal.Journal { return New(l) }})
}
