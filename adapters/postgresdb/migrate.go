package postgresdb

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrNewerSchema: the database holds a schema from a newer librarian.
var ErrNewerSchema = errors.New("the schema is newer than this librarian")

// Migrations are one component's schema versions in order: Steps[i] takes
// the component from version i to i+1. A released step is never edited; a
// change appends one. In a step, {{EXT}} (e.g. {{pg_trgm}}) is replaced by
// the quoted schema holding that extension, created first when missing.
type Migrations struct {
	Component  string   // its row in schema_versions: "sectionindex", "journal"
	Extensions []string // extensions its steps use
	Steps      []string
}

// Migrate brings the component to len(m.Steps). A component already current
// is only read, so a read-only role opens it; otherwise everything happens
// in one transaction under an advisory lock (two servers starting at once
// migrate once; a failed step leaves the old schema as it was). A stored
// version above len(m.Steps) wraps ErrNewerSchema.
func Migrate(ctx context.Context, pool *pgxpool.Pool, schema, where string, m Migrations, log *slog.Logger) error {
	want := len(m.Steps)
	v, err := version(ctx, pool, m.Component)
	if err == nil && v == want {
		return nil
	}
	if err != nil && (IsMissing(err) || SQLState(err) == "42501") {
		// A role without USAGE on the schema sees none of its tables
		// ("does not exist"), one without SELECT is refused: either way
		// say which grant it lacks, not that the schema is missing.
		if p, perr := readPrivileges(ctx, pool, schema, nil); perr == nil {
			if gerr := p.grantProblem(where, schema); gerr != nil {
				return gerr
			}
		}
	}
	if err != nil && !IsMissing(err) {
		return fmt.Errorf("%s: read the %s schema version: %w", where, m.Component, err)
	}
	if v > want {
		return newer(where, m.Component, v, want)
	}
	from := v
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		// One lock for the whole database, not per schema: migrations of
		// two schemas may both create the extensions they share.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('librarian-migrate'))`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{schema}.Sanitize()); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_versions (component text PRIMARY KEY, version integer NOT NULL)`); err != nil {
			return err
		}
		v, err := version(ctx, tx, m.Component)
		if err != nil {
			return err
		}
		from = v
		if v > want {
			return newer(where, m.Component, v, want)
		}
		if v == want {
			return nil // another server migrated while this one waited
		}
		var pairs []string
		for _, ext := range m.Extensions {
			s, err := extensionSchema(ctx, tx, ext)
			if err != nil {
				return err
			}
			pairs = append(pairs, "{{"+ext+"}}", pgx.Identifier{s}.Sanitize())
		}
		r := strings.NewReplacer(pairs...)
		for i := v; i < want; i++ {
			if _, err := tx.Exec(ctx, r.Replace(m.Steps[i])); err != nil {
				return fmt.Errorf("%s schema version %d: %w", m.Component, i+1, err)
			}
		}
		_, err = tx.Exec(ctx, `INSERT INTO schema_versions (component, version) VALUES ($1, $2)
			ON CONFLICT (component) DO UPDATE SET version = excluded.version`, m.Component, want)
		if err == nil {
			log.Info("postgres: schema migrated", "where", where, "component", m.Component, "from", v, "to", want)
		}
		return err
	})
	switch {
	case errors.Is(err, ErrNewerSchema):
		return err
	case SQLState(err) == "42501": // insufficient_privilege
		return cannotMigrate(ctx, pool, schema, where, m.Component, from, want, err)
	case err != nil:
		return fmt.Errorf("%s: create or migrate the %s schema: %w", where, m.Component, err)
	}
	return nil
}

// cannotMigrate words a migration the role had no privilege for: a schema
// that does not exist and that the role may not create, or one at an
// older version that it may not change.
func cannotMigrate(ctx context.Context, pool querier, schema, where, component string, from, want int, err error) error {
	p, perr := readPrivileges(ctx, pool, schema, nil)
	role := "this role"
	if perr == nil {
		role = "role " + ident(p.role)
	}
	if perr != nil || !p.exists {
		return fmt.Errorf("%s: schema %s does not exist and %s may not create it (no CREATE privilege on the database): "+
			"run `librarian index --to …` once with a role that owns the database, which creates it: %w", where, ident(schema), role, err)
	}
	if from == 0 {
		return fmt.Errorf("%s: schema %s holds no %s tables yet and %s may not create them: "+
			"run `librarian index --to …` once with the role that owns schema %s: %w", where, ident(schema), component, role, ident(schema), err)
	}
	return fmt.Errorf("%s: the %s schema is at version %d, this librarian needs %d, and %s may not migrate it: "+
		"run `librarian index --to …` once with the role that owns schema %s: %w", where, component, from, want, role, ident(schema), err)
}

func newer(where, component string, v, want int) error {
	return fmt.Errorf("%s: %w: the database has %s schema version %d, this librarian knows up to %d; upgrade librarian (or use another schema)", where, ErrNewerSchema, component, v, want)
}

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// version reads the component's stored version; 0 when it has none.
func version(ctx context.Context, q querier, component string) (int, error) {
	var v int
	err := q.QueryRow(ctx, `SELECT version FROM schema_versions WHERE component = $1`, component).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	return v, err
}

// extensionSchema makes sure the extension is installed (pg_trgm and
// unaccent are trusted extensions: a database owner may create them) and
// returns the schema it lives in.
func extensionSchema(ctx context.Context, tx pgx.Tx, name string) (string, error) {
	const find = `SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = $1`
	var s string
	err := tx.QueryRow(ctx, find, name).Scan(&s)
	if err == nil {
		return s, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", err
	}
	if _, err := tx.Exec(ctx, `CREATE EXTENSION `+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", fmt.Errorf("the %s extension is not installed and cannot be created (install postgresql-contrib, or have a superuser run CREATE EXTENSION %s): %w", name, name, err)
	}
	err = tx.QueryRow(ctx, find, name).Scan(&s)
	return s, err
}
