package engineapi_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/librarian/librarian/adapters/engineapi"
	"github.com/librarian/librarian/adapters/memjournal"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/journal"
)

// TestStatusNamesNoPath: status names the index by its kind, never by the
// server's absolute path to its file.
func TestStatusNamesNoPath(t *testing.T) {
	dir := t.TempDir()
	ix, err := sqlitesectionindex.OpenFile(context.Background(), filepath.Join(dir, "docs-0123.sqlite"), sqlitesectionindex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	h := engineapi.New(localEngineOn(t, ix, memjournal.New(journal.Limits{})), engineapi.Options{})
	status, body, _ := do(t, h, "GET", "/api/library/status", "")
	if status != 200 {
		t.Fatalf("status: %d %s", status, body)
	}
	if strings.Contains(body, dir) || strings.Contains(body, "docs-0123.sqlite") {
		t.Errorf("status shows the index file's path:\n%s", body)
	}
}

// downJournal is a journal whose database went away: every call fails as
// pgx fails, naming the user, the database and the address.
type downJournal struct{ journal.Journal }

var errDown = fmt.Errorf("journal (postgres database docs on 10.1.2.3:5432, schema librarian): store a tell: failed to connect to `user=librarian database=docs`: 10.1.2.3:5432 (db.internal): dial error: %w",
	&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED})

func (downJournal) Learn(context.Context, knowledge.Knowledge) (knowledge.Knowledge, error) {
	return knowledge.Knowledge{}, errDown
}
func (downJournal) Knowledge(context.Context, string, int) ([]knowledge.Knowledge, error) {
	return nil, errDown
}
func (downJournal) SetGuidance(context.Context, knowledge.SessionGuidance) (knowledge.SessionGuidance, error) {
	return knowledge.SessionGuidance{}, errDown
}
func (downJournal) Interactions(context.Context, string, int) ([]knowledge.LoggedInteraction, error) {
	return nil, errDown
}

// syncLog is a log sink safe for concurrent handlers.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestDatabaseErrorsStayInTheLog: with the journal's database down, every
// answer says what failed, never who the server logs in as or where; the
// detail is in the server's log.
func TestDatabaseErrorsStayInTheLog(t *testing.T) {
	logs := &syncLog{}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(logger)
	ix, err := sqlitesectionindex.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	h := engineapi.New(localEngineOn(t, ix, downJournal{memjournal.New(journal.Limits{})}), engineapi.Options{Logger: logger})
	for _, tc := range []struct{ method, target, body string }{
		{"POST", "/api/library/tell", `{"subject": "s", "info": "i", "session": "s"}`},
		{"POST", "/api/library/gap", `{"subject": "s", "missing": "m", "session": "s"}`},
		{"POST", "/api/library/ask", `{"query": "how are refresh tokens rotated?", "session": "s"}`},
		{"GET", "/api/library/status", ""},
		{"POST", "/api/library/guide", `{"session": "s", "text": "prefer v2"}`},
		{"GET", "/api/library/interactions?session=s&limit=5", ""},
	} {
		status, body, _ := do(t, h, tc.method, tc.target, tc.body)
		for _, leak := range []string{"user=", "database=", "10.1.2.3", "5432", "db.internal", "librarian database"} {
			if strings.Contains(body, leak) {
				t.Errorf("%s %s: %d, the answer shows %q: %s", tc.method, tc.target, status, leak, body)
			}
		}
		if !strings.Contains(body, "the index database is unreachable") {
			t.Errorf("%s %s: %d %s, want it to say the index database is unreachable", tc.method, tc.target, status, body)
		}
	}
	if !strings.Contains(logs.String(), "10.1.2.3:5432") {
		t.Errorf("the server log lacks the detail:\n%s", logs.String())
	}
}
