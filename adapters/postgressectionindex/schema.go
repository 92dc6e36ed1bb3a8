package postgressectionindex

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// migrations are the schema's versions, in order: migrations[i] takes a
// schema at version i to version i+1. A released migration is never
// edited; a change appends one. {{trgm}} and {{unaccent}} are replaced by
// the schemas that hold those extensions.
var migrations = []string{
	// 1: the first schema.
	`
-- English stemming, with diacritics folded first (Köln is found as koln).
CREATE TEXT SEARCH CONFIGURATION librarian_english (COPY = pg_catalog.english);
ALTER TEXT SEARCH CONFIGURATION librarian_english
	ALTER MAPPING FOR word, hword, hword_part WITH {{unaccent}}.unaccent, pg_catalog.english_stem;
CREATE TABLE meta (
	key   text PRIMARY KEY,
	value jsonb NOT NULL
);
CREATE TABLE docs (
	path        text COLLATE "C" PRIMARY KEY,
	id          text NOT NULL,
	title       text NOT NULL,
	summary     text NOT NULL,
	tokens      integer NOT NULL,
	has_tokens  boolean NOT NULL,
	tags        text[],
	stamp_size  bigint NOT NULL,
	stamp_mtime bigint,
	stamp_inode bigint NOT NULL,
	stamp_ctime bigint,
	content     bytea NOT NULL,
	structure   jsonb NOT NULL,
	-- the text with every character replaced by a representative of its
	-- Unicode simple-folding class (and NUL, invalid UTF-8 by U+FFFD), so
	-- that LIKE on it finds every case-insensitive match.
	folded      text NOT NULL
);
CREATE INDEX docs_folded_trgm ON docs USING gin (folded {{trgm}}.gin_trgm_ops);
CREATE TABLE sections (
	path        text COLLATE "C" NOT NULL REFERENCES docs ON DELETE CASCADE,
	ord         integer NOT NULL,
	section_id  text NOT NULL,
	start_line  integer NOT NULL,
	end_line    integer NOT NULL,
	search      tsvector NOT NULL,
	PRIMARY KEY (path, ord)
);
CREATE INDEX sections_search ON sections USING gin (search);
CREATE TABLE names (
	path      text COLLATE "C" NOT NULL REFERENCES docs ON DELETE CASCADE,
	ord       integer NOT NULL,
	kind      text NOT NULL,
	name      text NOT NULL,
	line      integer NOT NULL,
	signature text NOT NULL,
	folded    text NOT NULL,
	PRIMARY KEY (path, ord)
);
CREATE INDEX names_folded ON names (folded);
CREATE INDEX names_folded_trgm ON names USING gin (folded {{trgm}}.gin_trgm_ops);
CREATE TABLE links (
	path   text COLLATE "C" NOT NULL REFERENCES docs ON DELETE CASCADE,
	ord    integer NOT NULL,
	target text COLLATE "C" NOT NULL,
	PRIMARY KEY (path, ord)
);
CREATE INDEX links_target ON links (target);
CREATE TABLE folders (
	path    text COLLATE "C" PRIMARY KEY,
	title   text NOT NULL,
	summary text NOT NULL,
	tags    text[]
);
`,
}

// SchemaVersion is the schema version this build writes and reads.
var SchemaVersion = len(migrations)

// ErrNewerSchema: the database holds a schema from a newer librarian.
var ErrNewerSchema = errors.New("the index schema is newer than this librarian")

// migrate brings the schema to SchemaVersion. An index already current is
// only read (a read-only role opens it); otherwise everything happens in
// one transaction under an advisory lock, so two servers starting at once
// migrate once and a failed migration leaves the old schema as it was.
func (ix *Index) migrate(ctx context.Context) error {
	v, err := ix.storedVersion(ctx, ix.pool)
	if err == nil && v == SchemaVersion {
		return nil
	}
	if err != nil && !isMissing(err) {
		return ix.fail("read the schema version", err)
	}
	if v > SchemaVersion {
		return ix.newer(v)
	}
	err = pgx.BeginFunc(ctx, ix.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('librarian-migrate:' || $1))`, ix.schema); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{ix.schema}.Sanitize()); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)`); err != nil {
			return err
		}
		v, err := ix.storedVersion(ctx, tx)
		if err != nil {
			return err
		}
		if v > SchemaVersion {
			return ix.newer(v)
		}
		if v == SchemaVersion {
			return nil // another server migrated while we waited
		}
		trgm, err := extensionSchema(ctx, tx, "pg_trgm")
		if err != nil {
			return err
		}
		unaccent, err := extensionSchema(ctx, tx, "unaccent")
		if err != nil {
			return err
		}
		for i := v; i < SchemaVersion; i++ {
			sql := strings.NewReplacer("{{trgm}}", pgx.Identifier{trgm}.Sanitize(), "{{unaccent}}", pgx.Identifier{unaccent}.Sanitize()).Replace(migrations[i])
			if _, err := tx.Exec(ctx, sql); err != nil {
				return fmt.Errorf("migration to version %d: %w", i+1, err)
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM schema_version`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_version VALUES ($1)`, SchemaVersion); err != nil {
			return err
		}
		ix.log.Info("postgres index: schema migrated", "where", ix.where, "from", v, "to", SchemaVersion)
		return nil
	})
	if errors.Is(err, ErrNewerSchema) {
		return err
	}
	if err != nil {
		if sqlState(err) == "42501" { // insufficient_privilege
			return fmt.Errorf("postgres index (%s): the schema is missing or old (version %d, this librarian needs %d) and this role may not create it: run `librarian index --to …` once with a role that owns the database: %w", ix.where, v, SchemaVersion, err)
		}
		return ix.fail("create or migrate the schema", err)
	}
	return nil
}

func (ix *Index) newer(v int) error {
	return fmt.Errorf("postgres index (%s): %w: the database has schema version %d, this librarian knows up to %d; upgrade librarian (or index into another schema)", ix.where, ErrNewerSchema, v, SchemaVersion)
}

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// storedVersion reads the schema's version; 0 when the table is empty.
func (ix *Index) storedVersion(ctx context.Context, q querier) (int, error) {
	var v *int
	err := q.QueryRow(ctx, `SELECT max(version) FROM schema_version`).Scan(&v)
	if err != nil {
		return 0, err
	}
	if v == nil {
		return 0, nil
	}
	return *v, nil
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
