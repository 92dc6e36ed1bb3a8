package sqlitesectionindex

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"modernc.org/sqlite"
)

// The side files: the two full-text tables live each in a database file of
// its own beside the main one ("<file>-grams", "<file>-ranked"), because
// SQLite has one writer per file and a first build was that one writer's
// work (26 s of CPU for 10,000 docs, a third of it each table's
// tokenizer): with three files an Apply writes the three on three
// connections at once, one core each. Readers see one database: every
// connection to the main file has the side files attached (schemas
// "grams_file" and "ranked_file"), and a table's name alone finds it there.
//
// Three transactions cannot commit as one, so their order keeps every
// answer right: the side files commit first, then the main file. A side row
// whose doc or section the main file does not hold (an Apply that failed
// before its main commit) is never seen, since every query joins the main
// file's rows; its id is above the main file's highest, and the next Apply
// deletes such rows before it writes. A row is deleted from a side file
// only once the main file has committed that its doc is gone (its id is in
// the dead table): deleting it before could lose a doc a failed Apply left
// in place.

// side is one side file: its suffix and attached schema name, its tables,
// and its own connection for writing (nil in memory, where the tables are
// in the main database).
type side struct {
	name   string // "grams" or "ranked": file suffix, schema name_file
	schema []string
	db     *sql.DB
}

func (s *side) schemaName() string { return s.name + "_file" }

func sideFile(file, name string) string { return file + "-" + name }

// sideNames are the side files, in the order Open removes and opens them.
var sideNames = []string{"grams", "ranked"}

func newSides() []*side {
	return []*side{{name: "grams", schema: gramsSchema}, {name: "ranked", schema: rankedSchema}}
}

// openSides opens (creating them when missing) the side files of file, for
// writing: one connection each.
func openSides(file string, o Options) ([]*side, error) {
	sides := newSides()
	for _, s := range sides {
		db, err := sql.Open("sqlite", fmt.Sprintf("file:%s?_pragma=busy_timeout(%d)&_pragma=synchronous(NORMAL)&_pragma=journal_mode(WAL)&_txlock=immediate",
			uriPath(sideFile(file, s.name)), o.BusyTimeout.Milliseconds()))
		if err == nil {
			db.SetMaxOpenConns(1)
			err = db.Ping()
		}
		if err != nil {
			closeSides(sides)
			return nil, fmt.Errorf("side file %s: %w", sideFile(file, s.name), err)
		}
		s.db = db
	}
	return sides, nil
}

func closeSides(sides []*side) {
	for _, s := range sides {
		if s.db != nil {
			s.db.Close()
		}
	}
}

// belongs tells whether the side file holds this version's tables of the
// main file whose instance is given.
func (s *side) belongs(ctx context.Context, instance string) (bool, error) {
	var version, tables int
	if err := s.db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return false, err
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name = 'meta'`).Scan(&tables); err != nil {
		return false, err
	}
	if version != schemaVersion || tables == 0 {
		return false, nil
	}
	var got string
	err := s.db.QueryRowContext(ctx, `SELECT CAST(value AS TEXT) FROM meta WHERE key = 'instance'`).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return got == instance, err
}

// reset empties the side file and makes it the main file's of instance:
// its tables dropped and created again, in one transaction.
func (s *side) reset(ctx context.Context, instance string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'
		UNION ALL SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'`)
	if err != nil {
		return err
	}
	var drop []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		drop = append(drop, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	// A vocabulary table names its table: dropped first.
	for _, n := range drop {
		if strings.HasSuffix(n, "_vocab") {
			if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS "`+n+`"`); err != nil {
				return err
			}
		}
	}
	for _, n := range drop {
		if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS "`+n+`"`); err != nil {
			return err
		}
	}
	for _, q := range append([]string{`CREATE TABLE meta(key TEXT PRIMARY KEY, value BLOB NOT NULL)`}, s.schema...) {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("creating the %s side file's schema: %w", s.name, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('instance', ?)`, instance); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// bytes is the side file's size in pages.
func (s *side) bytes(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT page_count FROM pragma_page_count()) * (SELECT page_size FROM pragma_page_size())`).Scan(&n)
	return n, err
}

// attachingDriver names the driver of the main file's connections: each
// opens with the side files attached, so that readers see one database.
const attachingDriver = "librarian-section-index"

func init() {
	d := &sqlite.Driver{}
	d.RegisterConnectionHook(func(conn sqlite.ExecQuerierContext, dsn string) error {
		file, err := pathOfURI(dsn)
		if err != nil {
			return err
		}
		for _, name := range sideNames {
			if _, err := conn.ExecContext(context.Background(), `ATTACH DATABASE ? AS `+name+`_file`,
				[]driver.NamedValue{{Ordinal: 1, Value: sideFile(file, name)}}); err != nil {
				return fmt.Errorf("attaching %s: %w", sideFile(file, name), err)
			}
		}
		return nil
	})
	sql.Register(attachingDriver, d)
}

// uriPath is file as the path of a SQLite URI filename ("file:PATH?..."):
// '%', '?' and '#' escaped, so that a folder named "docs#2" or "a?b" is
// that folder, not the start of a query or a fragment.
func uriPath(file string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(file)
}

// pathOfURI is the file a URI filename made with uriPath names.
func pathOfURI(dsn string) (string, error) {
	p, _, _ := strings.Cut(strings.TrimPrefix(dsn, "file:"), "?")
	return url.PathUnescape(p)
}
