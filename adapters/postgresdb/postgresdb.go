// Package postgresdb is not an adapter: it is the PostgreSQL toolkit the
// postgres adapters (postgressectionindex, postgresjournal) share, as
// rootfs is for the file adapters: opening a pgx pool on one schema,
// naming a database for people without its password, and versioned
// migrations run in one transaction under an advisory lock.
package postgresdb

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrUnreachable: no server answered at the DSN's address (down, or the
// network is): worth trying again later, unlike a refused login.
var ErrUnreachable = errors.New("cannot reach the database")

// unreachableError says which database no server answered for, and what to
// check; the driver's detail (each address dialled, the user and database
// it logged in as) is its cause, for the debug log, not the message.
type unreachableError struct {
	where string
	cause error
}

func (e *unreachableError) Error() string {
	return e.where + ": " + ErrUnreachable.Error() + ": no server took the connection (is PostgreSQL running there, and are the host and port right?)"
}

func (e *unreachableError) Unwrap() []error { return []error{ErrUnreachable, e.cause} }

// DefaultSchema is the schema the postgres adapters use when none is given.
const DefaultSchema = "librarian"

var schemaName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// Pool opens a connection pool to dsn (a postgres:// URL or a libpq
// key=value string) whose connections work in schema (search_path; ""
// takes the first schema of the DSN's own search_path, else
// DefaultSchema, as it returns), and
// checks that the server answers. where names the database for messages
// and logs, without the password; so do the errors.
func Pool(ctx context.Context, dsn, schema string, maxConns int32) (pool *pgxpool.Pool, where, inSchema string, err error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgconn's parse errors may quote the DSN; give the reason alone.
		return nil, "", "", fmt.Errorf("postgres %s: the connection string cannot be parsed (%s)", Redact(dsn), parseProblem(err))
	}
	if schema == "" {
		schema = SchemaOf(cfg.ConnConfig.RuntimeParams["search_path"])
	}
	if !schemaName.MatchString(schema) {
		return nil, "", "", fmt.Errorf("postgres: schema name %q: use lower-case letters, digits and '_' (at most 63)", schema)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	if cfg.ConnConfig.RuntimeParams["application_name"] == "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = "librarian"
	}
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	where = fmt.Sprintf("postgres database %s on %s:%d, schema %s", cfg.ConnConfig.Database, cfg.ConnConfig.Host, cfg.ConnConfig.Port, schema)
	pool, err = pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, where, schema, fmt.Errorf("%s: connect: %w", where, err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		// pgx's connect errors name host, user and database, never the
		// password.
		if SQLState(err) == "" {
			return nil, where, schema, &unreachableError{where: where, cause: err}
		}
		return nil, where, schema, fmt.Errorf("%s: connect: %w", where, err)
	}
	return pool, where, schema, nil
}

// SchemaOf picks the schema named first in a search_path setting (a DSN's
// `?search_path=team_docs`), DefaultSchema when there is none.
func SchemaOf(searchPath string) string {
	first, _, _ := strings.Cut(searchPath, ",")
	first = strings.Trim(strings.TrimSpace(first), `"`)
	if first == "" || first == "$user" {
		return DefaultSchema
	}
	return first
}

// Redact returns dsn with any password replaced by "xxxxx", for messages
// and logs. A URL it cannot read is reduced to its scheme.
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
	return keywordPassword.ReplaceAllString(dsn, "${1}xxxxx")
}

var keywordPassword = regexp.MustCompile(`(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`)

// parseProblem keeps the reason of a DSN parse error, never the DSN.
func parseProblem(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return msg
}

// SQLState is err's PostgreSQL error code, "" for other errors.
func SQLState(err error) string {
	var pe interface{ SQLState() string }
	if errors.As(err, &pe) {
		return pe.SQLState()
	}
	return ""
}

// IsMissing reports whether err says a table or schema does not exist.
func IsMissing(err error) bool {
	code := SQLState(err)
	return code == "42P01" || code == "3F000"
}
