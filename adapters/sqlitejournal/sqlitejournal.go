// Package sqlitejournal is the journal port on SQLite (modernc.org/sqlite,
// pure Go). It keeps its own tables (journal_*) and its own schema version
// (journal_meta), so it can live in the section index's database file, or
// in a file of its own beside it; never in the library folder.
package sqlitejournal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/journal"
)

// schemaVersion is the version of the journal_* tables this code writes.
const schemaVersion = 1

const schema = `
CREATE TABLE IF NOT EXISTS journal_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS journal_knowledge (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	kind TEXT NOT NULL, subject TEXT NOT NULL, text TEXT NOT NULL,
	session TEXT NOT NULL, project TEXT NOT NULL, caller TEXT NOT NULL,
	at_ns INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS journal_knowledge_kind ON journal_knowledge (kind, id);
CREATE TABLE IF NOT EXISTS journal_guidance (
	session TEXT PRIMARY KEY,
	last_version INTEGER NOT NULL,
	active INTEGER NOT NULL,
	caller TEXT NOT NULL, text TEXT NOT NULL, exclude TEXT NOT NULL, expect TEXT NOT NULL,
	set_ns INTEGER NOT NULL, expires_ns INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS journal_log (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	session TEXT NOT NULL, caller TEXT NOT NULL, kind TEXT NOT NULL, query TEXT NOT NULL,
	served TEXT NOT NULL, guidance_version INTEGER NOT NULL, excluded_hits INTEGER NOT NULL,
	provider TEXT NOT NULL, at_ns INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS journal_log_session ON journal_log (session, id);
`

// Journal is a journal in one SQLite file.
type Journal struct {
	db   *sql.DB
	path string
	// mu serialises this process's writes, so a version read and its
	// increment are never interleaved; other processes are held off by
	// SQLite's own write lock (immediate transactions, busy timeout).
	mu sync.Mutex
}

var _ journal.Journal = (*Journal)(nil)

// Open opens (creating when needed) the journal in the SQLite file at
// path, which may be the section index's own file.
func Open(path string) (*Journal, error) {
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	j := &Journal{db: db, path: path}
	if err := j.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	return j, nil
}

func (j *Journal) migrate() error {
	ctx := context.Background()
	if _, err := j.db.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("creating tables: %w", err)
	}
	var v string
	err := j.db.QueryRowContext(ctx, `SELECT value FROM journal_meta WHERE key = 'schema_version'`).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		_, err = j.db.ExecContext(ctx, `INSERT INTO journal_meta (key, value) VALUES ('schema_version', ?)`, fmt.Sprint(schemaVersion))
		return err
	case err != nil:
		return err
	case v != fmt.Sprint(schemaVersion):
		return fmt.Errorf("journal schema version is %s, this build reads version %d (use a newer librarian, or move the index file aside)", v, schemaVersion)
	}
	return nil
}

// Where is the file the journal lives in.
func (j *Journal) Where() string { return j.path }

func ns(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNS(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// Learn implements journal.Learnings.
func (j *Journal) Learn(ctx context.Context, k knowledge.Knowledge) (knowledge.Knowledge, error) {
	if k.At.IsZero() {
		k.At = time.Now().UTC()
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	res, err := j.db.ExecContext(ctx, `INSERT INTO journal_knowledge (kind, subject, text, session, project, caller, at_ns) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		k.Kind, k.Subject, k.Text, k.Tags.Session, k.Tags.Project, k.Tags.Caller, ns(k.At))
	if err != nil {
		return knowledge.Knowledge{}, fmt.Errorf("journal: storing a %s: %w", k.Kind, err)
	}
	if k.ID, err = res.LastInsertId(); err != nil {
		return knowledge.Knowledge{}, fmt.Errorf("journal: storing a %s: %w", k.Kind, err)
	}
	return k, nil
}

// Knowledge implements journal.Learnings.
func (j *Journal) Knowledge(ctx context.Context, kind string, limit int) ([]knowledge.Knowledge, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := j.db.QueryContext(ctx, `SELECT id, kind, subject, text, session, project, caller, at_ns FROM journal_knowledge WHERE kind = ? ORDER BY id DESC LIMIT ?`, kind, limit)
	if err != nil {
		return nil, fmt.Errorf("journal: reading %s records: %w", kind, err)
	}
	defer rows.Close()
	var out []knowledge.Knowledge
	for rows.Next() {
		var k knowledge.Knowledge
		var at int64
		if err := rows.Scan(&k.ID, &k.Kind, &k.Subject, &k.Text, &k.Tags.Session, &k.Tags.Project, &k.Tags.Caller, &at); err != nil {
			return nil, fmt.Errorf("journal: reading %s records: %w", kind, err)
		}
		k.At = fromNS(at)
		out = append(out, k)
	}
	return out, rows.Err()
}

// SetGuidance implements journal.Guidance.
func (j *Journal) SetGuidance(ctx context.Context, g knowledge.SessionGuidance) (knowledge.SessionGuidance, error) {
	exclude, err := json.Marshal(nonNil(g.Exclude))
	if err != nil {
		return knowledge.SessionGuidance{}, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return knowledge.SessionGuidance{}, fmt.Errorf("journal: storing guidance: %w", err)
	}
	defer tx.Rollback()
	var last int
	err = tx.QueryRowContext(ctx, `SELECT last_version FROM journal_guidance WHERE session = ?`, g.Session).Scan(&last)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return knowledge.SessionGuidance{}, fmt.Errorf("journal: storing guidance: %w", err)
	}
	g.Version = last + 1
	_, err = tx.ExecContext(ctx, `INSERT INTO journal_guidance (session, last_version, active, caller, text, exclude, expect, set_ns, expires_ns)
		VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (session) DO UPDATE SET last_version = excluded.last_version, active = 1, caller = excluded.caller, text = excluded.text,
			exclude = excluded.exclude, expect = excluded.expect, set_ns = excluded.set_ns, expires_ns = excluded.expires_ns`,
		g.Session, g.Version, g.Caller, g.Text, string(exclude), g.Expect, ns(g.SetAt), ns(g.ExpiresAt))
	if err != nil {
		return knowledge.SessionGuidance{}, fmt.Errorf("journal: storing guidance: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return knowledge.SessionGuidance{}, fmt.Errorf("journal: storing guidance: %w", err)
	}
	g.Exclude = append([]string(nil), g.Exclude...)
	return g, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// CurrentGuidance implements journal.Guidance.
func (j *Journal) CurrentGuidance(ctx context.Context, session string, now time.Time) (knowledge.SessionGuidance, bool, error) {
	g := knowledge.SessionGuidance{Session: session}
	var exclude string
	var setNS, expNS int64
	err := j.db.QueryRowContext(ctx, `SELECT last_version, caller, text, exclude, expect, set_ns, expires_ns FROM journal_guidance
		WHERE session = ? AND active = 1 AND expires_ns > ?`, session, ns(now)).Scan(&g.Version, &g.Caller, &g.Text, &exclude, &g.Expect, &setNS, &expNS)
	if errors.Is(err, sql.ErrNoRows) {
		return knowledge.SessionGuidance{}, false, nil
	}
	if err != nil {
		return knowledge.SessionGuidance{}, false, fmt.Errorf("journal: reading guidance: %w", err)
	}
	if err := json.Unmarshal([]byte(exclude), &g.Exclude); err != nil {
		return knowledge.SessionGuidance{}, false, fmt.Errorf("journal: guidance of session %q: exclude: %w", session, err)
	}
	if len(g.Exclude) == 0 {
		g.Exclude = nil
	}
	g.SetAt, g.ExpiresAt = fromNS(setNS), fromNS(expNS)
	return g, true, nil
}

// ClearGuidance implements journal.Guidance.
func (j *Journal) ClearGuidance(ctx context.Context, session string, now time.Time) (bool, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	res, err := j.db.ExecContext(ctx, `UPDATE journal_guidance SET active = 0 WHERE session = ? AND active = 1 AND expires_ns > ?`, session, ns(now))
	if err != nil {
		return false, fmt.Errorf("journal: clearing guidance: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("journal: clearing guidance: %w", err)
	}
	// Expired guidance is cleared too, without counting as cleared.
	if _, err := j.db.ExecContext(ctx, `UPDATE journal_guidance SET active = 0 WHERE session = ?`, session); err != nil {
		return false, fmt.Errorf("journal: clearing guidance: %w", err)
	}
	return n > 0, nil
}

// Record implements journal.Log.
func (j *Journal) Record(ctx context.Context, i knowledge.LoggedInteraction) error {
	served, err := json.Marshal(nonNil(i.Served))
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	_, err = j.db.ExecContext(ctx, `INSERT INTO journal_log (session, caller, kind, query, served, guidance_version, excluded_hits, provider, at_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, i.Session, i.Caller, i.Kind, i.Query, string(served), i.GuidanceVersion, i.ExcludedHits, i.Provider, ns(i.At))
	if err != nil {
		return fmt.Errorf("journal: logging an interaction: %w", err)
	}
	return nil
}

// Interactions implements journal.Log.
func (j *Journal) Interactions(ctx context.Context, session string, limit int) ([]knowledge.LoggedInteraction, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := j.db.QueryContext(ctx, `SELECT session, caller, kind, query, served, guidance_version, excluded_hits, provider, at_ns FROM
		(SELECT * FROM journal_log WHERE session = ? ORDER BY id DESC LIMIT ?) ORDER BY id`, session, limit)
	if err != nil {
		return nil, fmt.Errorf("journal: reading the session log: %w", err)
	}
	defer rows.Close()
	var out []knowledge.LoggedInteraction
	for rows.Next() {
		var i knowledge.LoggedInteraction
		var served string
		var at int64
		if err := rows.Scan(&i.Session, &i.Caller, &i.Kind, &i.Query, &served, &i.GuidanceVersion, &i.ExcludedHits, &i.Provider, &at); err != nil {
			return nil, fmt.Errorf("journal: reading the session log: %w", err)
		}
		if err := json.Unmarshal([]byte(served), &i.Served); err != nil {
			return nil, fmt.Errorf("journal: session log row: served: %w", err)
		}
		if len(i.Served) == 0 {
			i.Served = nil
		}
		i.At = fromNS(at)
		out = append(out, i)
	}
	return out, rows.Err()
}

// Close implements journal.Journal.
func (j *Journal) Close() error { return j.db.Close() }
