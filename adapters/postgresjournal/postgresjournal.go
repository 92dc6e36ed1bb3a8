// Package postgresjournal is the journal port (ports/journal) on
// PostgreSQL: told knowledge, gaps, guidance and the session log in
// journal_* tables of the schema the section index uses (default
// "librarian"), with their own schema version, so every server of a team
// sees what any agent told any of them.
//
// The servers of a team share one journal, so writes must not race: IDs
// come from identity columns, a guidance version is bumped by one upsert
// (`last_version + 1`), and the log is append-only.
package postgresjournal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
}

// Journal is a journal in one schema of a PostgreSQL database.
type Journal struct {
	pool  *pgxpool.Pool
	where string
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
	return &Journal{pool: pool, where: where}, nil
}

// Writable reports whether this role may write every journal table (a
// read-only server's role may not: its caller then keeps a journal of its
// own).
func (j *Journal) Writable(ctx context.Context) (bool, error) {
	var ok bool
	err := j.pool.QueryRow(ctx, `SELECT has_table_privilege('journal_knowledge', 'INSERT')
		AND has_table_privilege('journal_guidance', 'INSERT, UPDATE')
		AND has_table_privilege('journal_log', 'INSERT')`).Scan(&ok)
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

// Learn implements journal.Learnings.
func (j *Journal) Learn(ctx context.Context, k knowledge.Knowledge) (knowledge.Knowledge, error) {
	if k.At.IsZero() {
		k.At = time.Now().UTC().Truncate(time.Microsecond)
	}
	err := j.pool.QueryRow(ctx, `INSERT INTO journal_knowledge (kind, subject, text, session, project, caller, at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
		k.Kind, k.Subject, k.Text, k.Tags.Session, k.Tags.Project, k.Tags.Caller, k.At.UTC()).Scan(&k.ID)
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
	rows, err := j.pool.Query(ctx, `SELECT id, kind, subject, text, session, project, caller, at FROM journal_knowledge
		WHERE kind = $1 ORDER BY id DESC LIMIT $2`, kind, lim)
	if err != nil {
		return nil, j.fail("read "+kind+" records", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (knowledge.Knowledge, error) {
		var k knowledge.Knowledge
		err := r.Scan(&k.ID, &k.Kind, &k.Subject, &k.Text, &k.Tags.Session, &k.Tags.Project, &k.Tags.Caller, &k.At)
		k.At = k.At.UTC()
		return k, err
	})
	if err != nil {
		return nil, j.fail("read "+kind+" records", err)
	}
	return out, nil
}

// SetGuidance implements journal.Guidance: one upsert takes the next
// version, so servers setting guidance at once never share a version.
func (j *Journal) SetGuidance(ctx context.Context, g knowledge.SessionGuidance) (knowledge.SessionGuidance, error) {
	err := j.pool.QueryRow(ctx, `INSERT INTO journal_guidance AS g (session, last_version, active, caller, text, exclude, expect, set_at, expires_at)
		VALUES ($1, 1, true, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (session) DO UPDATE SET last_version = g.last_version + 1, active = true, caller = excluded.caller,
			text = excluded.text, exclude = excluded.exclude, expect = excluded.expect,
			set_at = excluded.set_at, expires_at = excluded.expires_at
		RETURNING last_version`,
		g.Session, g.Caller, g.Text, nonNil(g.Exclude), g.Expect, stamp(g.SetAt), stamp(g.ExpiresAt)).Scan(&g.Version)
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
	err := j.pool.QueryRow(ctx, `SELECT last_version, caller, text, exclude, expect, set_at, expires_at FROM journal_guidance
		WHERE session = $1 AND active AND expires_at > $2`, session, now.UTC()).
		Scan(&g.Version, &g.Caller, &g.Text, &g.Exclude, &g.Expect, &setAt, &expiresAt)
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

// Record implements journal.Log.
func (j *Journal) Record(ctx context.Context, i knowledge.LoggedInteraction) error {
	_, err := j.pool.Exec(ctx, `INSERT INTO journal_log (session, caller, kind, query, served, guidance_version, excluded_hits, provider, at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		i.Session, i.Caller, i.Kind, i.Query, nonNil(i.Served), i.GuidanceVersion, i.ExcludedHits, i.Provider, i.At.UTC())
	if err != nil {
		return j.fail("log an interaction", err)
	}
	return nil
}

// Interactions implements journal.Log.
func (j *Journal) Interactions(ctx context.Context, session string, limit int) ([]knowledge.LoggedInteraction, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	rows, err := j.pool.Query(ctx, `SELECT session, caller, kind, query, served, guidance_version, excluded_hits, provider, at FROM
		(SELECT * FROM journal_log WHERE session = $1 ORDER BY id DESC LIMIT $2) last ORDER BY id`, session, lim)
	if err != nil {
		return nil, j.fail("read the session log", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (knowledge.LoggedInteraction, error) {
		var i knowledge.LoggedInteraction
		err := r.Scan(&i.Session, &i.Caller, &i.Kind, &i.Query, &i.Served, &i.GuidanceVersion, &i.ExcludedHits, &i.Provider, &i.At)
		i.At = i.At.UTC()
		i.Served = nilIfEmpty(i.Served)
		return i, err
	})
	if err != nil {
		return nil, j.fail("read the session log", err)
	}
	return out, nil
}
