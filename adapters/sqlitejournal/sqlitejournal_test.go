package sqlitejournal

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/ports/journal"
	"github.com/librarian/librarian/ports/journal/journaltest"
)

func TestContract(t *testing.T) {
	journaltest.Run(t, journaltest.Factory{
		New: func(t *testing.T, l journal.Limits) journal.Journal {
			j, err := Open(filepath.Join(t.TempDir(), "index.db"), l)
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
			again, err := Open(path, journal.Limits{})
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
	j, err := Open(path, journal.Limits{})
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
	if _, err := Open(path, journal.Limits{}); err == nil || !strings.Contains(err.Error(), "schema version is 99") {
		t.Errorf("opening a journal of an unknown version: %v", err)
	}
}

// TestMigratesVersion1: a journal written by the first release keeps its
// records, with no owner, and gains sessions.
func TestMigratesVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(schema + `INSERT INTO journal_meta (key, value) VALUES ('schema_version', '1');
		INSERT INTO journal_knowledge (kind, subject, text, session, project, caller, at_ns) VALUES ('tell', 'old', 'kept', 's', '', 'w', 1);
		INSERT INTO journal_log (session, caller, kind, query, served, guidance_version, excluded_hits, provider, at_ns) VALUES ('s', 'w', 'ask', 'q', '[]', 0, 0, '', 1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	j, err := Open(path, journal.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	told, err := j.Knowledge(context.Background(), "tell", 0)
	if err != nil || len(told) != 1 || told[0].Text != "kept" || told[0].Owner != "" {
		t.Errorf("after migrating: %+v %v", told, err)
	}
	if rows, err := j.Interactions(context.Background(), "s", 0); err != nil || len(rows) != 1 || rows[0].Owner != "" {
		t.Errorf("log after migrating: %+v %v", rows, err)
	}
	if ok, err := j.Claim(context.Background(), "s", "alice", time.Now()); err != nil || !ok {
		t.Errorf("claiming a session of version 1: %v %v", ok, err)
	}
	var v string
	if err := j.db.QueryRow(`SELECT value FROM journal_meta WHERE key = 'schema_version'`).Scan(&v); err != nil || v != "2" {
		t.Errorf("schema version %q (%v), want 2", v, err)
	}
}
