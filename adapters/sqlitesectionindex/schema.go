package sqlitesectionindex

import (
	"context"
	"database/sql"
	"fmt"
)

// applicationID marks a file as a Librarian section index ("LIBR"), so a
// foreign database is never mistaken for one and never changed.
const applicationID = 0x4C494252

// schemaVersion is kept in the file's user_version. An older version is
// dropped and rebuilt (the library is the source of truth); a newer one
// (a newer Librarian) is bypassed, never touched. 5: the stored parses
// carry standard markdown images (domain.StructureVersion 1), so an index
// of version 4 is rebuilt rather than parsed again doc by doc. 6: the
// full-text tables moved to the side files (sides.go). 7: a heading's
// explicit anchor (`## Options {#opts}`) is its slug (domain.StructureVersion
// 2), so the sections stored by version 6 have ids the parse no longer
// gives, and the index is rebuilt. 8: a doc's first section is searched
// with its frontmatter's facts (passage.FrontmatterFacts), which the
// ranked rows of version 7 lack. 9: a section is searched with its doc's
// path words (domain.Document.PathWords) beside the title. 10: and with
// its doc's tags; each doc's description hash (described: its title and
// tags, domain.Document.DescriptionHash) is stored with its stamp. 11:
// the title and heading columns hold their camelCase names' parts too
// ("hookTimeout": hook timeout), which the rows of version 10 lack.
const schemaVersion = 11

// rankWeights are the bm25 column weights of the ranked table, in column
// order: title, heading path, body, code identifiers.
const rankWeights = "bm25(2.0, 8.0, 1.0, 2.0)"

var schema = []string{
	`CREATE TABLE meta(key TEXT PRIMARY KEY, value BLOB NOT NULL)`,
	// One row per document: the catalog entry (JSON, stamp included), the
	// bytes, the parse (JSON) and what the indexer derived. The stamp, the
	// description hash (as the int64 of its bits) and the body's first line
	// are columns too, so that Stamps and Texts read no JSON (times in Unix nanoseconds, NULL for the zero time). Small
	// columns come first and the bytes before the JSON: SQLite reads a
	// row's payload up to the last column asked for.
	`CREATE TABLE docs(
		id INTEGER PRIMARY KEY,
		path TEXT NOT NULL UNIQUE,
		stamp_size INTEGER NOT NULL,
		stamp_mtime INTEGER,
		stamp_inode INTEGER NOT NULL,
		stamp_ctime INTEGER,
		described INTEGER NOT NULL,
		frontmatter_end INTEGER NOT NULL,
		sections INTEGER NOT NULL,
		content BLOB NOT NULL,
		doc BLOB NOT NULL,
		structure BLOB NOT NULL,
		names BLOB NOT NULL,
		links BLOB NOT NULL)`,
	// Stamps reads this index alone, not the 200 MB of rows.
	`CREATE INDEX docs_stamps ON docs(path, stamp_size, stamp_mtime, stamp_inode, stamp_ctime, described)`,
	`CREATE TABLE sections(
		id INTEGER PRIMARY KEY,
		doc INTEGER NOT NULL,
		section_id TEXT NOT NULL,
		start INTEGER NOT NULL,
		end INTEGER NOT NULL)`,
	`CREATE INDEX sections_doc ON sections(doc)`,
	// The ids of docs and sections the main file no longer holds whose rows
	// the side files may still hold (see sides.go).
	`CREATE TABLE dead_docs(id INTEGER PRIMARY KEY)`,
	`CREATE TABLE dead_sections(id INTEGER PRIMARY KEY)`,
	`CREATE TABLE names(
		doc INTEGER NOT NULL,
		kind TEXT NOT NULL,
		name TEXT NOT NULL,
		lname TEXT NOT NULL,
		line INTEGER NOT NULL,
		signature TEXT NOT NULL)`,
	`CREATE INDEX names_doc ON names(doc)`,
	`CREATE INDEX names_lname ON names(lname)`,
	`CREATE TABLE links(doc INTEGER NOT NULL, target TEXT NOT NULL)`,
	`CREATE INDEX links_doc ON links(doc)`,
	`CREATE INDEX links_target ON links(target)`,
}

// migrate creates the schema in an empty database, accepts the current
// one, rebuilds an older one and refuses anything else (ErrForeignSchema),
// all in one write transaction so two servers starting together agree.
func (ix *Index) migrate(ctx context.Context) error {
	// Look before writing anything, WAL mode included: a file that is not
	// ours must stay byte for byte as it was.
	if _, _, err := check(ctx, ix.db); err != nil {
		return err
	}
	if _, err := ix.writer.ExecContext(ctx, `PRAGMA journal_mode = WAL`); err != nil {
		return err
	}
	tx, err := ix.writer.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Again inside the write lock: another server may have created it.
	ours, current, err := check(ctx, tx)
	if err != nil {
		return err
	}
	if ours && current {
		// The side files must be this file's: one missing, emptied or
		// from another build would hide docs from searches.
		instance, _, err := stateOf(ctx, tx)
		if err != nil {
			return err
		}
		fits := true
		for _, s := range ix.sides {
			ok, err := s.belongs(ctx, instance)
			if err != nil {
				return fmt.Errorf("side file %s: %w", s.name, err)
			}
			fits = fits && ok
		}
		if fits {
			return tx.Commit()
		}
		ix.log.Info("section index: a side file does not belong to the index; rebuilding it", "file", ix.where)
	}
	if ours {
		// Qualified: a name alone could find an attached side file's table.
		for _, t := range []string{"meta", "docs", "sections", "dead_docs", "dead_sections", "grams_vocab", "grams", "ranked", "names", "links"} {
			if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS main.`+t); err != nil {
				return err
			}
		}
	}
	tables := schema
	if ix.sides == nil { // in memory: one database holds every table
		tables = append(append(append([]string{}, schema...), gramsSchema...), rankedSchema...)
	}
	for _, s := range tables {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("creating the schema: %w", err)
		}
	}
	instance := newInstance()
	// Inside the main file's write lock, before its commit: a side file
	// reset for a main file that then failed to commit names an instance
	// no main file has, and is reset again.
	for _, s := range ix.sides {
		if err := s.reset(ctx, instance); err != nil {
			return fmt.Errorf("side file %s: %w", s.name, err)
		}
	}
	// The file's instance: a text snapshot names it (see snapshot.go).
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('instance', ?)`, instance); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d`, applicationID)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// gramsSchema is the grams side file's (see sides.go).
var gramsSchema = []string{
	// Candidates: trigrams of each doc's text (rowid = docs.id), folded
	// (domain.Fold) so that the trigram tokenizer's own folding and Go's
	// (?i) agree. Contentless: the text is in docs already.
	`CREATE VIRTUAL TABLE grams USING fts5(text, tokenize='trigram case_sensitive 0', content='', contentless_delete=1, detail=none)`,
	// How many docs hold each trigram: Candidates plans with it.
	`CREATE VIRTUAL TABLE grams_vocab USING fts5vocab(grams, 'row')`,
}

// rankedSchema is the ranked side file's.
var rankedSchema = []string{
	// Ranked: one row per section (rowid = sections.id). The body is kept
	// so highlight() can tell which lines matched.
	`CREATE VIRTUAL TABLE ranked USING fts5(title, heading, body, code, tokenize='porter unicode61')`,
	`INSERT INTO ranked(ranked, rank) VALUES('rank', '` + rankWeights + `')`,
}

type querier interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// check tells whether the database is a section index (ours) of this
// version (current); an empty database is neither. Anything else that is
// not ours, or ours but newer, is ErrForeignSchema.
func check(ctx context.Context, db querier) (ours, current bool, err error) {
	var app, version, tables int
	if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&app); err != nil {
		return false, false, err
	}
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return false, false, err
	}
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master`).Scan(&tables); err != nil {
		return false, false, err
	}
	switch {
	case app == applicationID && version > schemaVersion:
		return false, false, fmt.Errorf("%w: schema version %d is newer than this server's %d", ErrForeignSchema, version, schemaVersion)
	case app == applicationID:
		return true, version == schemaVersion, nil
	case app != 0 || tables > 0:
		return false, false, fmt.Errorf("%w: application id %#x with %d schema objects", ErrForeignSchema, app, tables)
	}
	return false, false, nil
}
