// Package postgressectionindex is the PostgreSQL adapter of the section-index
// port (ports/sectionindex), for teams: one ingest (`librarian index --to
// postgres://…`) and any number of stateless servers reading the same
// database, a read-only role being enough for them.
//
// Everything lives in one schema (default "librarian"), created and migrated
// by Open itself, in one transaction, under an advisory lock; a schema from
// a newer librarian is refused. Documents keep their catalog entry, bytes
// (bytea), parse (jsonb), names and links; sections carry a weighted
// tsvector (doc title and heading path 'A', code identifiers 'B', body 'D')
// with a GIN index, ranked by ts_rank_cd; a folded copy of each text has a
// pg_trgm GIN index for literal and regex candidates, which the caller
// verifies with its own matcher. Each document's update is one transaction;
// writers take turns through an advisory lock.
package postgressectionindex

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/librarian/librarian/ports/sectionindex"
)

// DefaultSchema is the schema an index lives in when Options.Schema is "".
const DefaultSchema = "librarian"

// Options tune Open.
type Options struct {
	// Schema holds the index's tables; "" means DefaultSchema. It is created
	// when missing (which needs the CREATE privilege on the database).
	Schema string
	// MaxConns caps the pool's connections; 0 means pgxpool's default.
	MaxConns int32
	// Logger gets the adapter's few log lines (a migration); nil: slog.Default.
	Logger *slog.Logger
}

// Index is a section index in one schema of a PostgreSQL database.
type Index struct {
	pool   *pgxpool.Pool
	schema string
	where  string
	log    *slog.Logger
}

var _ sectionindex.Index = (*Index)(nil)

var schemaName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// Open connects to the database at dsn (a postgres:// URL or a libpq
// key=value string), creates or migrates the index's schema when needed, and
// returns the index. A role that may only read opens an index that is
// already current without writing anything. Errors name the database but
// never its password.
func Open(ctx context.Context, dsn string, o Options) (*Index, error) {
	schema := o.Schema
	if schema == "" {
		schema = DefaultSchema
	}
	if !schemaName.MatchString(schema) {
		return nil, fmt.Errorf("postgres index: schema name %q: use lower-case letters, digits and '_' (at most 63)", schema)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgconn's parse errors may quote the DSN; say what is wrong
		// without it.
		return nil, fmt.Errorf("postgres index %s: the connection string cannot be parsed (%s)", Redact(dsn), parseProblem(err))
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	if cfg.ConnConfig.RuntimeParams["application_name"] == "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = "librarian"
	}
	if o.MaxConns > 0 {
		cfg.MaxConns = o.MaxConns
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	ix := &Index{
		schema: schema,
		where:  fmt.Sprintf("postgres database %s on %s:%d, schema %s", cfg.ConnConfig.Database, cfg.ConnConfig.Host, cfg.ConnConfig.Port, schema),
		log:    log,
	}
	ix.pool, err = pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, ix.fail("connect", err)
	}
	if err := ix.pool.Ping(ctx); err != nil {
		ix.pool.Close()
		return nil, ix.fail("connect", err)
	}
	if err := ix.migrate(ctx); err != nil {
		ix.pool.Close()
		return nil, err
	}
	return ix, nil
}

// Close releases the pool.
func (ix *Index) Close() error {
	ix.pool.Close()
	return nil
}

// Where names the index for a person (no password).
func (ix *Index) Where() string { return ix.where }

// fail wraps a database error with what was being done and where. pgx's
// errors name host, user and database, never the password.
func (ix *Index) fail(what string, err error) error {
	return fmt.Errorf("postgres index (%s): %s: %w", ix.where, what, err)
}

// Redact returns dsn with any password replaced by "xxxxx", for messages
// and logs. A string it cannot read is reduced to its scheme.
func Redact(dsn string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return dsn[:strings.Index(dsn, "://")+3] + "…"
		}
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
		q := u.Query()
		if q.Has("password") {
			q.Set("password", "xxxxx")
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	// key=value form: blank the value after password=.
	return keywordPassword.ReplaceAllString(dsn, "${1}xxxxx")
}

var keywordPassword = regexp.MustCompile(`(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`)

// parseProblem keeps the reason of a DSN parse error and drops any echo of
// the DSN itself.
func parseProblem(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return msg
}

// isMissing reports whether err says a table or schema does not exist.
func isMissing(err error) bool {
	code := sqlState(err)
	return code == "42P01" || code == "3F000"
}

func sqlState(err error) string {
	var pe interface{ SQLState() string }
	if errors.As(err, &pe) {
		return pe.SQLState()
	}
	return ""
}

// readTx runs f in a read-only repeatable-read transaction: one snapshot.
func (ix *Index) readTx(ctx context.Context, f func(pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, ix.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, f)
}
