// Package postgressectionindex is the PostgreSQL adapter of the section-index
// port (ports/sectionindex), for teams: one ingest (`librarian index --to
// postgres://…`) and any number of stateless servers reading the same
// database, a read-only role being enough for them.
//
// Everything lives in one schema (default "librarian"), created and migrated
// by Open itself, in one transaction, under an advisory lock; a schema from
// a newer librarian is refused. A schema holds one library, by name
// (library.go): another library's ingest or server is refused. Documents keep their catalog entry, bytes
// (bytea), parse (jsonb), names and links; sections carry a weighted
// tsvector (doc title and heading path 'A', code 'B', body 'D') with a GIN
// index and their length, ranked by BM25 computed in SQL (ranked.go); a folded copy of each text has a
// pg_trgm GIN index for literal and regex candidates, which the caller
// verifies with its own matcher (CandidateTexts sends the candidates' texts
// with them). A batch's puts are written in parts on parallel connections,
// each part one transaction (put.go);
// writers take turns through an advisory lock.
package postgressectionindex

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/librarian/librarian/adapters/postgresdb"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
)

// DefaultSchema is the schema an index lives in when Options.Schema is "".
const DefaultSchema = postgresdb.DefaultSchema

// Options tune Open.
type Options struct {
	// Schema holds the index's tables; "" means the first schema of the DSN's search_path
	// (`?search_path=team_docs`), else DefaultSchema. It is created
	// when missing (which needs the CREATE privilege on the database).
	Schema string
	// MaxConns caps the pool's connections; 0 means pgxpool's default.
	MaxConns int32
	// Logger gets the adapter's few log lines (a migration); nil: slog.Default.
	Logger *slog.Logger
	// Library is the library the index is opened for: Open refuses a
	// schema that holds another (ErrOtherLibrary), and the first Apply
	// records it as the schema's. Nil (a server with no library root,
	// serving whatever the schema holds) checks and records nothing.
	Library *Library
}

// Index is a section index in one schema of a PostgreSQL database.
type Index struct {
	pool   *pgxpool.Pool
	schema string
	where  string

	library *Library    // Options.Library
	claimed atomic.Bool // the library was recorded by this Index's writes

	catMu  sync.Mutex
	cat    *domain.Catalog // the last catalog read, nil before the first
	catGen int64           // the generation it was read at

	terms termStats // how many sections hold a term, for ranking
}

var (
	_ sectionindex.Index          = (*Index)(nil)
	_ sectionindex.TextCandidates = (*Index)(nil)
)

// Open connects to the database at dsn (a postgres:// URL or a libpq
// key=value string), creates or migrates the index's schema when needed, and
// returns the index. A role that may only read opens an index that is
// already current without writing anything. Errors name the database but
// never its password.
func Open(ctx context.Context, dsn string, o Options) (*Index, error) {
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	pool, where, name, err := postgresdb.Pool(ctx, dsn, o.Schema, o.MaxConns)
	if err != nil {
		return nil, fmt.Errorf("postgres index: %w", err)
	}
	if err := postgresdb.Migrate(ctx, pool, name, where, schema, log); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres index: %w", err)
	}
	// A read-only role granted USAGE but SELECT on only some tables (say,
	// granted before an upgrade added one) fails here with the GRANT to
	// run, not at its first call with "permission denied".
	readable := tables
	if o.Library != nil {
		readable = append(slices.Clone(tables), "library")
	}
	if err := postgresdb.CheckReadable(ctx, pool, name, where, readable); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres index: %w", err)
	}
	ix := &Index{pool: pool, schema: name, where: where, library: o.Library}
	if o.Library != nil {
		if err := ix.checkLibrary(ctx, *o.Library); err != nil {
			pool.Close()
			return nil, err
		}
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

// Redact returns dsn with any password replaced by "xxxxx".
func Redact(dsn string) string { return postgresdb.Redact(dsn) }

// readTx runs f in a read-only repeatable-read transaction: one snapshot.
func (ix *Index) readTx(ctx context.Context, f func(pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, ix.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, f)
}
