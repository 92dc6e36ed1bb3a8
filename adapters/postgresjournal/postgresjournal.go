// Package postgresjournal is the journal port (ports/journal) on
// PostgreSQL: told knowledge, gaps, guidance and the session log in
// journal_* tables of the schema the section index uses (default
// "librarian"), with their own schema version, so every server of a team
// sees what any agent told any of them.
//
// The servers of a team share one journal, so writes must not race: IDs
// come from identity columns, a guidance version is bumped by one upsert
// (`last_version + 1`), a session's owner is settled by one upsert, an
// owner's quota is checked under a transaction-scoped advisory lock on the
// owner, and the log is appended to and pruned by statements that need no
// read first.
package postgresjournal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/librarian/librarian/adapters/postgresdb"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/journal"
)

var schema = postgresdb.Migrations{Component: "journal", Steps: []string{
	// 1: the first schema.
	`
CREATE TABLE journal_knowledge (
	id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	kind    text NOT NULL,
	subject text NOT NULL,
	text    text NOT NULL,
	session text NOT NULL,
	project text NOT NULL,
	caller  text NOT NULL,
	at      timestamptz NOT NULL
);
CREATE INDEX journal_knowledge_kind ON journal_knowledge (kind, id);
CREATE TABLE journal_guidance (
	session      text PRIMARY KEY,
	last_version integer NOT NULL,
	active       boolean NOT NULL,
	caller       text NOT NULL,
	text         text NOT NULL,
	exclude      text[] NOT NULL,
	expect       text NOT NULL,
	set_at       timestamptz,
	expires_at   timestamptz
);
CREATE TABLE journal_log (
	id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	session          text NOT NULL,
	caller           text NOT NULL,
	kind             text NOT NULL,
	query            text NOT NULL,
	served           text[] NOT NULL,
	guidance_version integer NOT NULL,
	excluded_hits    integer NOT NULL,
	provider         text NOT NULL,
	at               timestamptz NOT NULL
);
CREATE INDEX journal_log_session ON journal_log (session, id);
`,
	// 2: owners (the token that made each row; '' before), the sessions
	// they hold, and the indexes the limits count and prune by.
	`
ALTER TABLE journal_knowledge ADD COLUMN owner text NOT NULL DEFAULT '';
ALTER TABLE journal_guidance ADD COLUMN owner text NOT NULL DEFAULT '';
ALTER TABLE journal_log ADD COLUMN owner text NOT NULL DEFAULT '';
CREATE INDEX journal_knowledge_owner ON journal_knowledge (owner);
CREATE INDEX journal_log_owner ON journal_log (owner, id);
CREATE INDEX journal_log_at ON journal_log (at);
CREATE TABLE journal_sessions (
	session text PRIMARY KEY,
	owner   text NOT NULL,
	used_at timestamptz NOT NULL
);
CREATE INDEX journal_sessions_used ON journal_sessions (used_at);
`,
}}

// Options tune Open.
type Options struct {
	// Schema holds the journal's tables; "" means the first schema of the DSN's
	// search_path, else postgresdb.DefaultSchema.
	Schema string
	// MaxConns caps the pool's connections; 0 means pgxpool's default.
	MaxConns int32
	// Logger gets the adapter's few log lines; nil: slog.Default.
	Logger *slog.Logger
	// Limits bound what the journal keeps; each server applies its own to
	// what it writes.
	Limits journal.Limits
}

// Journal is a journal in one schema of a PostgreSQL database.
type Journal struct {
	pool   *pgxpool.Pool
	where  string
	limits journal.Limits

	mu       sync.Mutex
	unpruned map[string]int // log rows by owner since this server last pruned it
	prunedAt time.Time      // the row time of this server's last age prune
}

var _ journal.Journal = (*Journal)(nil)

// Open connects to dsn and creates or migrates the journal's tables when
// needed. Errors name the database but never its password.
func Open(ctx context.Context, dsn string, o Options) (*Journal, error) {
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	pool, where, name, err := postgresdb.Pool(ctx, dsn, o.Schema, o.MaxConns)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := postgresdb.Migrate(ctx, pool, name, where, schema, log); err != nil {
		pool.Close()
		return nil, fmt.Errorf("journal: %w", err)
	}
	return &Journal{pool: pool, where: where, limits: o.Limits, unpruned: map[string]int{}}, nil
}

// Writable reports whether this role may write every journal table (a
// read-only server's role may not: its caller then keeps a journal of its
// own).
func (j *Journal) Writable(ctx context.Context) (bool, error) {
	var ok bool
	err := j.pool.QueryRow(ctx, `SELECT has_table_privilege('journal_knowledge', 'INSERT, DELETE')
		AND has_table_privilege('journal_guidance', 'INSERT, UPDATE, DELETE')
		AND has_table_privilege('journal_log', 'INSERT, DELETE')
		AND has_table_privilege('journal_sessions', 'INSERT, UPDATE, DELETE')`).Scan(&ok)
	if err != nil {
		return false, j.fail("check the role's privileges", err)
	}
	return ok, nil
}

// Where names the journal's database for a person (no password).
func (j *Journal) Where() string { return j.where }

// Close implements journal.Journal.
func (j *Journal) Close() error {
	j.pool.Close()
	return nil
}

func (j *Journal) fail(what string, err error) error {
	return fmt.Errorf("journal (%s): %s: %w", j.where, what, err)
}

// Times keep their instant; PostgreSQL holds microseconds, so stored times
// are rounded to them. The zero time is NULL.
func stamp(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

func unstamp(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// Learn implements journal.Learnings: the quota check, the insert and the
// cap's prune are one transaction; the owner's advisory lock keeps two
// servers from both passing the quota's last place.
func (j *Journal) Learn(ctx context.Context, k knowledge.Knowledge) (knowledge.Knowledge, error) {
	if k.At.IsZero() {
		k.At = time.Now().UTC().Truncate(time.Microsecond)
	}
	err := pgx.BeginFunc(ctx, j.pool, func(tx pgx.Tx) error {
		if q := j.limits.OwnerRecords; q > 0 {
			// Two statements: a statement's snapshot is taken when it
			// starts, so a count in the lock's own statement could miss a
			// record the lock's last holder committed.
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('librarian-journal-owner:' || $1))`, k.Owner); err != nil {
				return err
			}
			var held int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM journal_knowledge WHERE owner = $1`, k.Owner).Scan(&held); err != nil {
				return err
			}
			if held >= q {
				return journal.QuotaError(q)
			}
		}
		err := tx.QueryRow(ctx, `INSERT INTO journal_knowledge (kind, subject, text, session, project, caller, owner, at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
			k.Kind, k.Subject, k.Text, k.Tags.Session, k.Tags.Project, k.Tags.Caller, k.Owner, k.At.UTC()).Scan(&k.ID)
		if err != nil {
			return err
		}
		if c := j.limits.Records; c > 0 {
			// The oldest rows are the first by ID: only those are read.
			_, err = tx.Exec(ctx, `DELETE FROM journal_knowledge WHERE id IN
				(SELECT id FROM journal_knowledge ORDER BY id LIMIT GREATEST(0, (SELECT count(*) FROM journal_knowledge) - $1))`, c)
		}
		return err
	})
	if errors.Is(err, knowledge.ErrQuota) {
		return knowledge.Knowledge{}, err
	}
	if err != nil {
		return knowledge.Knowledge{}, j.fail("store a "+k.Kind, err)
	}
	return k, nil
}

// Knowledge implements journal.Learnings.
func (j *Journal) Knowledge(ctx context.Context, kind string, limit int) ([]knowledge.Knowledge, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	rows, err := j.pool.Query(ctx, `SELECT id, kind, subject, text, session, project, caller, owner, at FROM journal_knowledge
		WHERE kind = $1 ORDER BY id DESC LIMIT $2`, kind, lim)
	if err != nil {
		return nil, j.fail("read "+kind+" records", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (knowledge.Knowledge, error) {
		var k knowledge.Knowledge
		err := r.Scan(&k.ID, &k.Kind, &k.Subject, &k.Text, &k.Tags.Session, &k.Tags.Project, &k.Tags.Caller, &k.Owner, &k.At)
		k.At = k.At.UTC()
		return k, err
	})
	if err != nil {
		return nil, j.fail("read "+kind+" records", err)
	}
	return out, nil
}

// Count implements journal.Learnings.
func (j *Journal) Count(ctx context.Context, kind string) (int, error) {
	var n int
	if err := j.pool.QueryRow(ctx, `SELECT count(*) FROM journal_knowledge WHERE kind = $1`, kind).Scan(&n); err != nil {
		return 0, j.fail("count "+kind+" records", err)
	}
	return n, nil
}

// SetGuidance implements journal.Guidance: one upsert takes the next
// version, so servers setting guidance at once never share a version.
func (j *Journal) SetGuidance(ctx context.Context, g knowledge.SessionGuidance) (knowledge.SessionGuidance, error) {
	err := j.pool.QueryRow(ctx, `INSERT INTO journal_guidance AS g (session, last_version, active, owner, caller, text, exclude, expect, set_at, expires_at)
		VALUES ($1, 1, true, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (session) DO UPDATE SET last_version = g.last_version + 1, active = true, owner = excluded.owner, caller = excluded.caller,
			text = excluded.text, exclude = excluded.exclude, expect = excluded.expect,
			set_at = excluded.set_at, expires_at = excluded.expires_at
		RETURNING last_version`,
		g.Session, g.Owner, g.Caller, g.Text, nonNil(g.Exclude), g.Expect, stamp(g.SetAt), stamp(g.ExpiresAt)).Scan(&g.Version)
	if err != nil {
		return knowledge.SessionGuidance{}, j.fail("store guidance", err)
	}
	g.Exclude = append([]string(nil), g.Exclude...)
	return g, nil
}

// CurrentGuidance implements journal.Guidance.
func (j *Journal) CurrentGuidance(ctx context.Context, session string, now time.Time) (knowledge.SessionGuidance, bool, error) {
	g := knowledge.SessionGuidance{Session: session}
	var setAt, expiresAt *time.Time
	err := j.pool.QueryRow(ctx, `SELECT last_version, owner, caller, text, exclude, expect, set_at, expires_at FROM journal_guidance
		WHERE session = $1 AND active AND expires_at > $2`, session, now.UTC()).
		Scan(&g.Version, &g.Owner, &g.Caller, &g.Text, &g.Exclude, &g.Expect, &setAt, &expiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return knowledge.SessionGuidance{}, false, nil
	}
	if err != nil {
		return knowledge.SessionGuidance{}, false, j.fail("read guidance", err)
	}
	g.Exclude = nilIfEmpty(g.Exclude)
	g.SetAt, g.ExpiresAt = unstamp(setAt), unstamp(expiresAt)
	return g, true, nil
}

// ClearGuidance implements journal.Guidance. Expired guidance is cleared
// too, without counting as cleared.
func (j *Journal) ClearGuidance(ctx context.Context, session string, now time.Time) (bool, error) {
	var wasCurrent *bool
	err := j.pool.QueryRow(ctx, `UPDATE journal_guidance g SET active = false FROM
		(SELECT session, active AND expires_at > $2 AS current FROM journal_guidance WHERE session = $1 FOR UPDATE) old
		WHERE g.session = old.session RETURNING old.current`, session, now.UTC()).Scan(&wasCurrent)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, j.fail("clear guidance", err)
	}
	return wasCurrent != nil && *wasCurrent, nil
}

// Record implements journal.Log: the insert and the prunes the limits ask
// for are one transaction.
func (j *Journal) Record(ctx context.Context, i knowledge.LoggedInteraction) error {
	// Counting an owner's rows costs a scan of them: it is done once per
	// c/100 of its rows, as journal.Limits allows.
	j.mu.Lock()
	pruneOwner := false
	if c := j.limits.OwnerRows; c > 0 {
		j.unpruned[i.Owner]++
		if pruneOwner = j.unpruned[i.Owner] > c/100; pruneOwner {
			j.unpruned[i.Owner] = 0
		}
	}
	pruneAge := j.prunedAt.IsZero() || i.At.Sub(j.prunedAt) >= time.Minute
	if pruneAge {
		j.prunedAt = i.At
	}
	j.mu.Unlock()
	err := pgx.BeginFunc(ctx, j.pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO journal_log (session, owner, caller, kind, query, served, guidance_version, excluded_hits, provider, at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			i.Session, i.Owner, i.Caller, i.Kind, i.Query, nonNil(i.Served), i.GuidanceVersion, i.ExcludedHits, i.Provider, i.At.UTC())
		if err != nil {
			return err
		}
		if c := j.limits.SessionRows; c > 0 {
			_, err := tx.Exec(ctx, `DELETE FROM journal_log WHERE session = $1
				AND id <= (SELECT id FROM journal_log WHERE session = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)`, i.Session, c)
			if err != nil {
				return err
			}
		}
		if pruneOwner {
			_, err := tx.Exec(ctx, `DELETE FROM journal_log WHERE owner = $1
				AND id <= (SELECT id FROM journal_log WHERE owner = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)`, i.Owner, j.limits.OwnerRows)
			if err != nil {
				return err
			}
		}
		if pruneAge {
			return j.pruneAge(ctx, tx, i.At.UTC())
		}
		return nil
	})
	if err != nil {
		return j.fail("log an interaction", err)
	}
	return nil
}

// pruneAge drops the rows older than MaxAge before now and forgets the
// sessions unused for that long, or claimed over a minute ago and left with
// neither log nor guidance in force. The statements of one WITH see one
// snapshot, so the sessions to forget are chosen once.
func (j *Journal) pruneAge(ctx context.Context, tx pgx.Tx, now time.Time) error {
	var cutoff *time.Time
	if j.limits.MaxAge > 0 {
		c := now.Add(-j.limits.MaxAge)
		cutoff = &c
		if _, err := tx.Exec(ctx, `DELETE FROM journal_log WHERE at < $1`, c); err != nil {
			return err
		}
	}
	_, err := tx.Exec(ctx, `WITH forget AS (
			SELECT s.session FROM journal_sessions s WHERE s.used_at < $1
				OR s.used_at < $2 AND NOT EXISTS (SELECT 1 FROM journal_log l WHERE l.session = s.session)
				AND NOT EXISTS (SELECT 1 FROM journal_guidance g WHERE g.session = s.session AND g.active AND g.expires_at > $3)
		), guidance AS (DELETE FROM journal_guidance WHERE session IN (SELECT session FROM forget)),
		log AS (DELETE FROM journal_log WHERE session IN (SELECT session FROM forget))
		DELETE FROM journal_sessions WHERE session IN (SELECT session FROM forget)`,
		cutoff, now.Add(-time.Minute), now)
	return err
}

// Interactions implements journal.Log.
func (j *Journal) Interactions(ctx context.Context, session string, limit int) ([]knowledge.LoggedInteraction, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	rows, err := j.pool.Query(ctx, `SELECT session, owner, caller, kind, query, served, guidance_version, excluded_hits, provider, at FROM
		(SELECT * FROM journal_log WHERE session = $1 ORDER BY id DESC LIMIT $2) last ORDER BY id`, session, lim)
	if err != nil {
		return nil, j.fail("read the session log", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (knowledge.LoggedInteraction, error) {
		var i knowledge.LoggedInteraction
		err := r.Scan(&i.Session, &i.Owner, &i.Caller, &i.Kind, &i.Query, &i.Served, &i.GuidanceVersion, &i.ExcludedHits, &i.Provider, &i.At)
		i.At = i.At.UTC()
		i.Served = nilIfEmpty(i.Served)
		return i, err
	})
	if err != nil {
		return nil, j.fail("read the session log", err)
	}
	return out, nil
}

// Claim implements journal.Sessions. A session used within the minute is
// only read; otherwise one upsert, which updates the row only for its own
// owner, both claims a new session and decides between two claimants (on
// any of the team's servers).
func (j *Journal) Claim(ctx context.Context, session, owner string, now time.Time) (bool, error) {
	var held string
	var used time.Time
	err := j.pool.QueryRow(ctx, `SELECT owner, used_at FROM journal_sessions WHERE session = $1`, session).Scan(&held, &used)
	switch {
	case err == nil && held != owner:
		return false, nil
	case err == nil && !used.Before(now.Add(-time.Minute)):
		return true, nil
	case err != nil && !errors.Is(err, pgx.ErrNoRows):
		return false, j.fail("read a session's owner", err)
	}
	err = j.pool.QueryRow(ctx, `INSERT INTO journal_sessions AS s (session, owner, used_at) VALUES ($1, $2, $3)
		ON CONFLICT (session) DO UPDATE SET used_at = GREATEST(s.used_at, excluded.used_at) WHERE s.owner = excluded.owner
		RETURNING owner`, session, owner, now.UTC()).Scan(&held)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return false, nil // another owner holds it
	case err != nil:
		return false, j.fail("claim a session", err)
	}
	return true, nil
}
