package postgresdb

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/jackc/pgx/v5"
)

// ErrNoPrivilege: the role lacks a grant the schema's tables need (USAGE
// on the schema, SELECT on its tables); the error says which and the GRANT
// statement that gives it.
var ErrNoPrivilege = errors.New("privilege not granted")

// privileges are what the connected role may do with a schema. They are
// read from the catalogs (pg_namespace, pg_class, has_*_privilege), which
// every role may read, so that a role without any grant still learns
// which grant it lacks rather than "relation does not exist".
type privileges struct {
	role       string
	exists     bool     // the schema exists
	usage      bool     // USAGE on it
	unreadable []string // its tables (of those asked about) the role may not SELECT
}

// readPrivileges reads the role's privileges on schema and on its tables:
// those named in tables, or every table of the schema when tables is empty.
func readPrivileges(ctx context.Context, q querier, schema string, tables []string) (privileges, error) {
	var p privileges
	if tables == nil {
		tables = []string{}
	}
	err := q.QueryRow(ctx, `SELECT current_user::text, n.oid IS NOT NULL,
		coalesce(has_schema_privilege(n.oid, 'USAGE'), false),
		coalesce((SELECT array_agg(c.relname::text ORDER BY c.relname) FROM pg_class c
			WHERE c.relnamespace = n.oid AND c.relkind IN ('r', 'p')
			AND (cardinality($2::text[]) = 0 OR c.relname = ANY($2::text[]))
			AND NOT has_table_privilege(c.oid, 'SELECT')), '{}')
		FROM (SELECT 1) AS one LEFT JOIN pg_namespace n ON n.nspname = $1`, schema, tables).
		Scan(&p.role, &p.exists, &p.usage, &p.unreadable)
	return p, err
}

// grantProblem is the error for a role that may not use schema or read
// its tables, naming the grant it lacks and the statement that gives it;
// nil when it lacks none (or the schema does not exist: the caller says
// so).
func (p privileges) grantProblem(where, schema string) error {
	s, r := ident(schema), ident(p.role)
	switch {
	case !p.exists:
		return nil
	case !p.usage:
		return fmt.Errorf("%s: %w: role %s may not use schema %s (it has no USAGE privilege on it, so none of its tables can be seen): "+
			"have the schema's owner run GRANT USAGE ON SCHEMA %s TO %s; GRANT SELECT ON ALL TABLES IN SCHEMA %s TO %s;",
			where, ErrNoPrivilege, r, s, s, r, s, r)
	case len(p.unreadable) > 0:
		noun := "table"
		if len(p.unreadable) > 1 {
			noun = "tables"
		}
		return fmt.Errorf("%s: %w: role %s may not read the %s %s of schema %s (no SELECT privilege): "+
			"have the schema's owner run GRANT SELECT ON ALL TABLES IN SCHEMA %s TO %s; (again after each schema upgrade, which may add tables)",
			where, ErrNoPrivilege, r, noun, strings.Join(p.unreadable, ", "), s, s, r)
	}
	return nil
}

// CheckReadable returns an error wrapping ErrNoPrivilege when the
// connected role may not use schema or SELECT from one of tables (all its
// tables when tables is empty), naming the missing grant and the GRANT
// statement to run; nil when it may (or the schema does not exist).
// Adapters call it after Migrate, so that a read-only role granted too
// little fails at start-up with the grant to ask for, not at its first
// query with "permission denied".
func CheckReadable(ctx context.Context, pool querier, schema, where string, tables []string) error {
	p, err := readPrivileges(ctx, pool, schema, tables)
	if err != nil {
		return fmt.Errorf("%s: read the role's privileges: %w", where, err)
	}
	return p.grantProblem(where, schema)
}

var plainIdent = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// ident writes a name as SQL would need it in a statement to copy: bare
// when it is a plain lower-case name, else quoted.
func ident(name string) string {
	if plainIdent.MatchString(name) {
		return name
	}
	return pgx.Identifier{name}.Sanitize()
}
