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
	"math"
	"net/url"
	"strconv"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/journal"
)

// schemaVersion is the version of the journal_* tables this code writes.
const schemaVersion = 2

// schema is version 1, as the first release created it; migrations take it
// on from there. A released step is never edited: a change appends one.
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

// migrations[i] takes the tables from version i+1 to i+2.
var migrations = []string{
	// 2: owners (the token that made each row; '' before), the sessions
	// they hold, and the indexes the limits count and prune by.
	`
ALTER TABLE journal_knowledge ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE journal_guidance ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE journal_log ADD COLUMN owner TEXT NOT NULL DEFAULT '';
CREATE INDEX journal_knowledge_owner ON journal_knowledge (owner);
CREATE INDEX journal_log_owner ON journal_log (owner, id);
CREATE INDEX journal_log_at ON journal_log (at_ns);
CREATE TABLE journal_sessions (session TEXT PRIMARY KEY, owner TEXT NOT NULL, used_ns INTEGER NOT NULL);
CREATE INDEX journal_sessions_used ON journal_sessions (used_ns);
`,
}

// Journal is a journal in one SQLite file.
type Journal struct {
	db     *sql.DB
	path   string
	limits journal.Limits
	// mu serialises this process's writes, so a version read and its
	// increment are never interleaved; other processes are held off by
	// SQLite's own write lock (immediate transactions, busy timeout).
	mu       sync.Mutex
	unpruned map[string]int // log rows by owner since its last prune (under mu)
	prunedAt time.Time      // the row time of the last age prune (under mu)
}

var _ journal.Journal = (*Journal)(nil)

// Open opens (creating or migrating when needed) the journal in the SQLite
// file at path, which may be the section index's own file, bounded by l.
func Open(path string, l journal.Limits) (*Journal, error) {
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	j := &Journal{db: db, path: path, limits: l, unpruned: map[string]int{}}
	if err := j.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	return j, nil
}

func (j *Journal) migrate() error {
	ctx := context.Background()
	tx, err := j.db.BeginTx(ctx, nil) // immediate: two processes migrate one after the other
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("creating tables: %w", err)
	}
	var raw string
	v := 1 // tables just created are version 1
	err = tx.QueryRowContext(ctx, `SELECT value FROM journal_meta WHERE key = 'schema_version'`).Scan(&raw)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return err
	default:
		if v, err = strconv.Atoi(raw); err != nil || v < 1 || v > schemaVersion {
			return fmt.Errorf("journal schema version is %s, this build reads versions 1 to %d (use a newer librarian, or move the index file aside)", raw, schemaVersion)
		}
	}
	for ; v < schemaVersion; v++ {
		if _, err := tx.ExecContext(ctx, migrations[v-1]); err != nil {
			return fmt.Errorf("migrating the journal to version %d: %w", v+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO journal_meta (key, value) VALUES ('schema_version', ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, strconv.Itoa(schemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
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

// Learn implements journal.Learnings: the quota check, the insert and the
// cap's prune are one transaction.
func (j *Journal) Learn(ctx context.Context, k knowledge.Knowledge) (knowledge.Knowledge, error) {
	if k.At.IsZero() {
		k.At = time.Now().UTC()
	}
	fail := func(err error) (knowledge.Knowledge, error) {
		return knowledge.Knowledge{}, fmt.Errorf("journal %s: storing a %s: %w", j.path, k.Kind, err)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	if q := j.limits.OwnerRecords; q > 0 {
		var held int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM journal_knowledge WHERE owner = ?`, k.Owner).Scan(&held); err != nil {
			return fail(err)
		}
		if held >= q {
			return knowledge.Knowledge{}, journal.QuotaError(q)
		}
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO journal_knowledge (kind, subject, text, session, project, caller, owner, at_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		k.Kind, k.Subject, k.Text, k.Tags.Session, k.Tags.Project, k.Tags.Caller, k.Owner, ns(k.At))
	if err != nil {
		return fail(err)
	}
	if k.ID, err = res.LastInsertId(); err != nil {
		return fail(err)
	}
	if c := j.limits.Records; c > 0 {
		// The count reads an index, and the oldest rows are the first of
		// the table: walking the table to the cap's place instead would read
		// a page per record (each holds up to 32 KiB of text).
		// AUTOINCREMENT never reuses an ID, so the dropped ones stay gone.
		if _, err := tx.ExecContext(ctx, `DELETE FROM journal_knowledge WHERE id IN
			(SELECT id FROM journal_knowledge ORDER BY id LIMIT max(0, (SELECT count(*) FROM journal_knowledge) - ?))`, c); err != nil {
			return fail(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	return k, nil
}

// Knowledge implements journal.Learnings.
func (j *Journal) Knowledge(ctx context.Context, kind string, limit int) ([]knowledge.Knowledge, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := j.db.QueryContext(ctx, `SELECT id, kind, subject, text, session, project, caller, owner, at_ns FROM journal_knowledge WHERE kind = ? ORDER BY id DESC LIMIT ?`, kind, limit)
	if err != nil {
		return nil, fmt.Errorf("journal %s: reading %s records: %w", j.path, kind, err)
	}
	defer rows.Close()
	var out []knowledge.Knowledge
	for rows.Next() {
		var k knowledge.Knowledge
		var at int64
		if err := rows.Scan(&k.ID, &k.Kind, &k.Subject, &k.Text, &k.Tags.Session, &k.Tags.Project, &k.Tags.Caller, &k.Owner, &at); err != nil {
			return nil, fmt.Errorf("journal %s: reading %s records: %w", j.path, kind, err)
		}
		k.At = fromNS(at)
		out = append(out, k)
	}
	return out, rows.Err()
}

// Count implements journal.Learnings.
func (j *Journal) Count(ctx context.Context, kind string) (int, error) {
	var n int
	if err := j.db.QueryRowContext(ctx, `SELECT count(*) FROM journal_knowledge WHERE kind = ?`, kind).Scan(&n); err != nil {
		return 0, fmt.Errorf("journal %s: counting %s records: %w", j.path, kind, err)
	}
	return n, nil
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
		return knowledge.SessionGuidance{}, fmt.Errorf("journal %s: storing guidance: %w", j.path, err)
	}
	defer tx.Rollback()
	var last int
	err = tx.QueryRowContext(ctx, `SELECT last_version FROM journal_guidance WHERE session = ?`, g.Session).Scan(&last)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return knowledge.SessionGuidance{}, fmt.Errorf("journal %s: storing guidance: %w", j.path, err)
	}
	g.Version = last + 1
	_, err = tx.ExecContext(ctx, `INSERT INTO journal_guidance (session, last_version, active, owner, caller, text, exclude, expect, set_ns, expires_ns)
		VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (session) DO UPDATE SET last_version = excluded.last_version, active = 1, owner = excluded.owner, caller = excluded.caller,
			text = excluded.text, exclude = excluded.exclude, expect = excluded.expect, set_ns = excluded.set_ns, expires_ns = excluded.expires_ns`,
		g.Session, g.Version, g.Owner, g.Caller, g.Text, string(exclude), g.Expect, ns(g.SetAt), ns(g.ExpiresAt))
	if err != nil {
		return knowledge.SessionGuidance{}, fmt.Errorf("journal %s: storing guidance: %w", j.path, err)
	}
	if err := tx.Commit(); err != nil {
		return knowledge.SessionGuidance{}, fmt.Errorf("journal %s: storing guidance: %w", j.path, err)
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
	err := j.db.QueryRowContext(ctx, `SELECT last_version, owner, caller, text, exclude, expect, set_ns, expires_ns FROM journal_guidance
		WHERE session = ? AND active = 1 AND expires_ns > ?`, session, ns(now)).Scan(&g.Version, &g.Owner, &g.Caller, &g.Text, &exclude, &g.Expect, &setNS, &expNS)
	if errors.Is(err, sql.ErrNoRows) {
		return knowledge.SessionGuidance{}, false, nil
	}
	if err != nil {
		return knowledge.SessionGuidance{}, false, fmt.Errorf("journal %s: reading guidance: %w", j.path, err)
	}
	if err := json.Unmarshal([]byte(exclude), &g.Exclude); err != nil {
		return knowledge.SessionGuidance{}, false, fmt.Errorf("journal %s: guidance of session %q: exclude: %w", j.path, session, err)
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
		return false, fmt.Errorf("journal %s: clearing guidance: %w", j.path, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("journal %s: clearing guidance: %w", j.path, err)
	}
	// Expired guidance is cleared too, without counting as cleared.
	if _, err := j.db.ExecContext(ctx, `UPDATE journal_guidance SET active = 0 WHERE session = ?`, session); err != nil {
		return false, fmt.Errorf("journal %s: clearing guidance: %w", j.path, err)
	}
	return n > 0, nil
}

// Record implements journal.Log: the insert and the prunes the limits ask
// for are one transaction.
func (j *Journal) Record(ctx context.Context, i knowledge.LoggedInteraction) error {
	served, err := json.Marshal(nonNil(i.Served))
	if err != nil {
		return err
	}
	fail := func(err error) error { return fmt.Errorf("journal %s: logging an interaction: %w", j.path, err) }
	j.mu.Lock()
	defer j.mu.Unlock()
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `INSERT INTO journal_log (session, owner, caller, kind, query, served, guidance_version, excluded_hits, provider, at_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, i.Session, i.Owner, i.Caller, i.Kind, i.Query, string(served), i.GuidanceVersion, i.ExcludedHits, i.Provider, ns(i.At))
	if err != nil {
		return fail(err)
	}
	if c := j.limits.SessionRows; c > 0 {
		if _, err := tx.ExecContext(ctx, `DELETE FROM journal_log WHERE session = ?1 AND id <= (SELECT id FROM journal_log WHERE session = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)`, i.Session, c); err != nil {
			return fail(err)
		}
	}
	// Counting an owner's rows costs a scan of them: it is done once per
	// c/100 of its rows, as journal.Limits allows.
	pruneOwner := false
	if c := j.limits.OwnerRows; c > 0 {
		j.unpruned[i.Owner]++
		if pruneOwner = j.unpruned[i.Owner] > c/100; pruneOwner {
			if _, err := tx.ExecContext(ctx, `DELETE FROM journal_log WHERE owner = ?1 AND id <= (SELECT id FROM journal_log WHERE owner = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)`, i.Owner, c); err != nil {
				return fail(err)
			}
		}
	}
	pruneAge := j.prunedAt.IsZero() || i.At.Sub(j.prunedAt) >= time.Minute
	if pruneAge {
		if err := j.pruneAge(ctx, tx, i.At); err != nil {
			return fail(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	if pruneOwner {
		j.unpruned[i.Owner] = 0
	}
	if pruneAge {
		j.prunedAt = i.At
	}
	return nil
}

// pruneAge drops the rows older than MaxAge before now and forgets the
// sessions unused for that long, or claimed over a minute ago and left with
// neither log nor guidance in force.
func (j *Journal) pruneAge(ctx context.Context, tx *sql.Tx, now time.Time) error {
	cutoff := int64(math.MinInt64)
	if j.limits.MaxAge > 0 {
		cutoff = ns(now.Add(-j.limits.MaxAge))
		if _, err := tx.ExecContext(ctx, `DELETE FROM journal_log WHERE at_ns < ?`, cutoff); err != nil {
			return err
		}
	}
	for _, q := range []string{
		`CREATE TEMP TABLE IF NOT EXISTS journal_forget (session TEXT PRIMARY KEY)`,
		`DELETE FROM journal_forget`,
		`INSERT INTO journal_forget SELECT s.session FROM journal_sessions s WHERE s.used_ns < ?1
			OR s.used_ns < ?2 AND NOT EXISTS (SELECT 1 FROM journal_log l WHERE l.session = s.session)
			AND NOT EXISTS (SELECT 1 FROM journal_guidance g WHERE g.session = s.session AND g.active = 1 AND g.expires_ns > ?3)`,
		`DELETE FROM journal_guidance WHERE session IN (SELECT session FROM journal_forget)`,
		`DELETE FROM journal_log WHERE session IN (SELECT session FROM journal_forget)`,
		`DELETE FROM journal_sessions WHERE session IN (SELECT session FROM journal_forget)`,
	} {
		if _, err := tx.ExecContext(ctx, q, cutoff, ns(now.Add(-time.Minute)), ns(now)); err != nil {
			return err
		}
	}
	return nil
}

// Interactions implements journal.Log.
func (j *Journal) Interactions(ctx context.Context, session string, limit int) ([]knowledge.LoggedInteraction, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := j.db.QueryContext(ctx, `SELECT session, owner, caller, kind, query, served, guidance_version, excluded_hits, provider, at_ns FROM
		(SELECT * FROM journal_log WHERE session = ? ORDER BY id DESC LIMIT ?) ORDER BY id`, session, limit)
	if err != nil {
		return nil, fmt.Errorf("journal %s: reading the session log: %w", j.path, err)
	}
	defer rows.Close()
	var out []knowledge.LoggedInteraction
	for rows.Next() {
		var i knowledge.LoggedInteraction
		var served string
		var at int64
		if err := rows.Scan(&i.Session, &i.Owner, &i.Caller, &i.Kind, &i.Query, &served, &i.GuidanceVersion, &i.ExcludedHits, &i.Provider, &at); err != nil {
			return nil, fmt.Errorf("journal %s: reading the session log: %w", j.path, err)
		}
		if err := json.Unmarshal([]byte(served), &i.Served); err != nil {
			return nil, fmt.Errorf("journal %s: session log row: served: %w", j.path, err)
		}
		if len(i.Served) == 0 {
			i.Served = nil
		}
		i.At = fromNS(at)
		out = append(out, i)
	}
	return out, rows.Err()
}

// Claim implements journal.Sessions. A session used within the minute is
// only read; otherwise one upsert, which updates the row only for its own
// owner, both claims a new session and decides between two claimants.
func (j *Journal) Claim(ctx context.Context, session, owner string, now time.Time) (bool, error) {
	var held string
	var used int64
	err := j.db.QueryRowContext(ctx, `SELECT owner, used_ns FROM journal_sessions WHERE session = ?`, session).Scan(&held, &used)
	switch {
	case err == nil && held != owner:
		return false, nil
	case err == nil && used >= ns(now.Add(-time.Minute)):
		return true, nil
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return false, fmt.Errorf("journal %s: reading a session's owner: %w", j.path, err)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	err = j.db.QueryRowContext(ctx, `INSERT INTO journal_sessions (session, owner, used_ns) VALUES (?, ?, ?)
		ON CONFLICT (session) DO UPDATE SET used_ns = max(used_ns, excluded.used_ns) WHERE owner = excluded.owner
		RETURNING owner`, session, owner, ns(now)).Scan(&held)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil // another owner holds it
	case err != nil:
		return false, fmt.Errorf("journal %s: claiming a session: %w", j.path, err)
	}
	return true, nil
}

// Close implements journal.Journal.
func (j *Journal) Close() error { return j.db.Close() }
