package sqlitejournal

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/ports/journal"
	"github.com/librarian/librarian/ports/journal/journaltest"
)

func TestContract(t *testing.T) {
	journaltest.Run(t, journaltest.Factory{
		New: func(t *testing.T) journal.Journal {
			j, err := Open(filepath.Join(t.TempDir(), "index.db"))
			if err != nil {
				t.Fatal(err)
			}
			return j
		},
		Reopen: func(t *testing.T, j journal.Journal) journal.Journal {
			path := j.(*Journal).Where()
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
			again, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			return again
		},
	})
}

// TestSharesAFile: the journal lives beside other tables in the same file
// (the section index's) and refuses a schema version it does not know.
func TestSharesAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE docs (path TEXT PRIMARY KEY); PRAGMA user_version = 7`); err != nil {
		t.Fatal(err)
	}
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	var v int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil || v != 7 {
		t.Errorf("the index's user_version is %d (%v), want 7 untouched", v, err)
	}
	if _, err := db.Exec(`UPDATE journal_meta SET value = '99' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "schema version is 99") {
		t.Errorf("opening a journal of an unknown version: %v", err)
	}
}
