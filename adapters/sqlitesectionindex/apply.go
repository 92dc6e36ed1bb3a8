package sqlitesectionindex

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/textmatch"
	"github.com/librarian/librarian/ports/sectionindex"
)

// Apply writes u: readers see the state before or after it, never a part.
// The main file's rows are written in one transaction and the side files'
// (sides.go) in one each, on their own connections at the same time; the
// side files commit first, so that no doc the main file holds is ever
// missing from them.
func (ix *Index) Apply(ctx context.Context, u sectionindex.Update) error {
	if err := ix.apply(ctx, u); err != nil {
		return fmt.Errorf("section index update: %w", err)
	}
	if len(u.Put) > 0 || len(u.Remove) > 0 {
		ix.plan.forget()
	}
	return nil
}

func (ix *Index) apply(ctx context.Context, u sectionindex.Update) error {
	ds := deriveAll(u.Put, u.Pause, goroutine(u.Go))
	tx, err := ix.writer.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// The highest ids the main file has committed: side rows above them
	// are a failed Apply's, and new rows are numbered after them.
	var lastDoc, lastSection int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce((SELECT max(id) FROM docs), 0), coalesce((SELECT max(id) FROM sections), 0)`).
		Scan(&lastDoc, &lastSection); err != nil {
		return err
	}
	m, err := prepareMain(ctx, tx)
	if err != nil {
		return err
	}
	defer m.close()
	for _, p := range u.Remove {
		if err := m.remove(ctx, p); err != nil {
			return fmt.Errorf("removing %s: %w", p, err)
		}
	}
	rows := make([]docRows, len(u.Put))
	nextSection := lastSection
	for i, e := range u.Put {
		if err := m.remove(ctx, e.Doc.Path); err != nil {
			return fmt.Errorf("replacing %s: %w", e.Doc.Path, err)
		}
		rows[i] = docRows{entry: e, derived: ds[i], id: lastDoc + int64(i) + 1, firstSection: nextSection + 1}
		nextSection += int64(len(ds[i].sections))
	}
	if len(ix.sides) == 0 {
		// In memory: one database, one transaction, nothing left behind.
		// No pause: the database's one connection is this transaction's,
		// and the calls paused for would wait for it.
		if err := writeGrams(ctx, tx, lastDoc, rows, nil); err != nil {
			return err
		}
		if err := writeRanked(ctx, tx, lastSection, rows, nil); err != nil {
			return err
		}
		if err := m.putAll(ctx, rows, nil); err != nil {
			return err
		}
		if err := buryDead(ctx, tx, tx, tx); err != nil {
			return err
		}
		if err := ix.writeMeta(ctx, tx, u); err != nil {
			return err
		}
		return tx.Commit()
	}
	// The side files: one transaction each, on their own connections.
	side, err := ix.beginSides(ctx)
	if err != nil {
		return err
	}
	defer rollback(side)
	errs := make([]error, len(ix.sides))
	var wg sync.WaitGroup
	wg.Add(2)
	spawn := goroutine(u.Go)
	spawn(func() { defer wg.Done(); errs[0] = writeGrams(ctx, side[0], lastDoc, rows, u.Pause) })
	spawn(func() { defer wg.Done(); errs[1] = writeRanked(ctx, side[1], lastSection, rows, u.Pause) })
	err = m.putAll(ctx, rows, u.Pause)
	wg.Wait()
	if err == nil {
		err = ix.writeMeta(ctx, tx, u)
	}
	for i, e := range errs {
		if e != nil {
			return fmt.Errorf("side file %s: %w", ix.sides[i].name, e)
		}
	}
	if err != nil {
		return err
	}
	if err := ix.commitSides(side); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if len(u.Put) > 0 || len(u.Remove) > 0 {
		return ix.buryCommitted(ctx)
	}
	return nil
}

// buryCommitted deletes from the side files the rows of the ids the main
// file has committed dead, then forgets those ids: after an Apply, and
// again after one that stopped before it.
func (ix *Index) buryCommitted(ctx context.Context) error {
	tx, err := ix.writer.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	side, err := ix.beginSides(ctx)
	if err != nil {
		return err
	}
	defer rollback(side)
	if err := buryDead(ctx, tx, side[0], side[1]); err != nil {
		return err
	}
	if err := ix.commitSides(side); err != nil {
		return err
	}
	return tx.Commit()
}

// beginSides begins a write transaction in each side file, in order.
func (ix *Index) beginSides(ctx context.Context) ([]*sql.Tx, error) {
	side := make([]*sql.Tx, 0, len(ix.sides))
	for _, s := range ix.sides {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			rollback(side)
			return nil, fmt.Errorf("side file %s: %w", s.name, err)
		}
		side = append(side, tx)
	}
	return side, nil
}

// commitSides commits the side files' transactions, before the main file's.
func (ix *Index) commitSides(side []*sql.Tx) error {
	for i, s := range ix.sides {
		if err := side[i].Commit(); err != nil {
			return fmt.Errorf("side file %s: %w", s.name, err)
		}
	}
	return nil
}

// rollback rolls back what was not committed (after a commit, nothing).
func rollback(txs []*sql.Tx) {
	for _, tx := range txs {
		tx.Rollback()
	}
}

// execer is a transaction of any of the three files.
type execer interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
	PrepareContext(ctx context.Context, q string) (*sql.Stmt, error)
}

// buryDead deletes the dead ids' rows from grams and ranked, then the ids.
func buryDead(ctx context.Context, main *sql.Tx, grams, ranked execer) error {
	for _, d := range []struct {
		list, table string
		to          execer
	}{{"dead_docs", "grams", grams}, {"dead_sections", "ranked", ranked}} {
		var ids []byte
		if err := main.QueryRowContext(ctx, `SELECT coalesce(json_group_array(id), '[]') FROM `+d.list).Scan(&ids); err != nil {
			return err
		}
		if string(ids) == "[]" {
			continue
		}
		if _, err := d.to.ExecContext(ctx, `DELETE FROM `+d.table+` WHERE rowid IN (SELECT value FROM json_each(?))`, string(ids)); err != nil {
			return fmt.Errorf("%s: %w", d.table, err)
		}
		if _, err := main.ExecContext(ctx, `DELETE FROM `+d.list); err != nil {
			return err
		}
	}
	return nil
}

// writeMeta stores u's folders, notes and build time, and marks a change.
func (ix *Index) writeMeta(ctx context.Context, tx *sql.Tx, u sectionindex.Update) error {
	if len(u.Put) > 0 || len(u.Remove) > 0 {
		if err := bumpGeneration(ctx, tx); err != nil {
			return err
		}
	}
	meta := map[string]any{}
	if u.Folders != nil {
		meta["folders"] = u.Folders
	}
	if u.Notes != nil {
		meta["notes"] = u.Notes
	}
	if u.BuiltAt != 0 {
		meta["built_at"] = u.BuiltAt
	}
	for k, v := range meta {
		raw, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO main.meta(key, value) VALUES(?, ?)`, k, raw); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	return nil
}

// docRows is one doc to store with the ids its rows take.
type docRows struct {
	entry        sectionindex.Entry
	derived      derived
	id           int64 // the doc's row
	firstSection int64 // its first section's row; the others follow
}

// writeGrams deletes the grams rows above lastDoc (a failed Apply's) and
// inserts rows' trigrams.
func writeGrams(ctx context.Context, tx execer, lastDoc int64, rows []docRows, pause func()) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM grams WHERE rowid > ?`, lastDoc); err != nil {
		return fmt.Errorf("trigrams: %w", err)
	}
	if len(rows) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO grams(rowid, text) VALUES(?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, r := range rows {
		paused(pause)
		if _, err := st.ExecContext(ctx, r.id, r.derived.folded); err != nil {
			return fmt.Errorf("trigrams of %s: %w", r.entry.Doc.Path, err)
		}
	}
	return nil
}

// writeRanked deletes the ranked rows above lastSection and inserts rows'
// sections.
func writeRanked(ctx context.Context, tx execer, lastSection int64, rows []docRows, pause func()) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM ranked WHERE rowid > ?`, lastSection); err != nil {
		return fmt.Errorf("ranked text: %w", err)
	}
	if len(rows) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO ranked(rowid, title, heading, body, code) VALUES(?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, r := range rows {
		paused(pause)
		for j, s := range r.derived.sections {
			if _, err := st.ExecContext(ctx, r.firstSection+int64(j), s.title, s.heading, s.body, s.code); err != nil {
				return fmt.Errorf("ranked text of %s: %w", r.entry.Doc.Path, err)
			}
		}
	}
	return nil
}

// goroutine is the update's Go, or the go statement.
func goroutine(spawn func(func())) func(func()) {
	if spawn != nil {
		return spawn
	}
	return func(fn func()) { go fn() }
}

// paused calls the update's Pause, when it has one (sectionindex.Update).
func paused(pause func()) {
	if pause != nil {
		pause()
	}
}

// mainWriter holds the main file's statements of one Apply.
type mainWriter struct {
	stmts map[string]*sql.Stmt
}

var mainSQL = map[string]string{
	"find":        `SELECT id FROM docs WHERE path = ?`,
	"deadDoc":     `INSERT OR IGNORE INTO dead_docs(id) VALUES(?)`,
	"deadSection": `INSERT OR IGNORE INTO dead_sections(id) SELECT id FROM sections WHERE doc = ?`,
	"delSections": `DELETE FROM sections WHERE doc = ?`,
	"delNames":    `DELETE FROM names WHERE doc = ?`,
	"delLinks":    `DELETE FROM links WHERE doc = ?`,
	"delDoc":      `DELETE FROM docs WHERE id = ?`,
	"doc": `INSERT INTO docs(id, path, doc, content, structure, names, links, sections,
		stamp_size, stamp_mtime, stamp_inode, stamp_ctime, described, frontmatter_end) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	"section": `INSERT INTO sections(id, doc, section_id, start, end) VALUES(?, ?, ?, ?, ?)`,
	"name":    `INSERT INTO names(doc, kind, name, lname, line, signature) VALUES(?, ?, ?, ?, ?, ?)`,
	"link":    `INSERT INTO links(doc, target) VALUES(?, ?)`,
}

func prepareMain(ctx context.Context, tx *sql.Tx) (*mainWriter, error) {
	w := &mainWriter{stmts: map[string]*sql.Stmt{}}
	for k, q := range mainSQL {
		s, err := tx.PrepareContext(ctx, q)
		if err != nil {
			w.close()
			return nil, err
		}
		w.stmts[k] = s
	}
	return w, nil
}

func (w *mainWriter) close() {
	for _, s := range w.stmts {
		s.Close()
	}
}

// remove deletes the doc at path from the main file, its ids put on the
// dead lists for the side files.
func (w *mainWriter) remove(ctx context.Context, path string) error {
	var id int64
	err := w.stmts["find"].QueryRowContext(ctx, path).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, k := range []string{"deadDoc", "deadSection", "delSections", "delNames", "delLinks", "delDoc"} {
		if _, err := w.stmts[k].ExecContext(ctx, id); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	return nil
}

func (w *mainWriter) putAll(ctx context.Context, rows []docRows, pause func()) error {
	for _, r := range rows {
		paused(pause)
		if err := w.put(ctx, r); err != nil {
			return fmt.Errorf("storing %s: %w", r.entry.Doc.Path, err)
		}
	}
	return nil
}

func (w *mainWriter) put(ctx context.Context, r docRows) error {
	e, d := r.entry, r.derived
	st := e.Doc.Stamp
	if _, err := w.stmts["doc"].ExecContext(ctx, r.id, e.Doc.Path, d.doc, d.content, d.structure, d.names, d.links, len(e.Structure.Sections),
		st.Size, unixNano(st.ModTime), int64(st.Inode), unixNano(st.Changed), int64(e.Doc.DescriptionHash()), e.Structure.FrontmatterEnd); err != nil {
		return err
	}
	for j, s := range d.sections {
		if _, err := w.stmts["section"].ExecContext(ctx, r.firstSection+int64(j), r.id, s.id, s.start, s.end); err != nil {
			return err
		}
	}
	for _, n := range e.Names {
		if _, err := w.stmts["name"].ExecContext(ctx, r.id, n.Kind, n.Name, strings.ToLower(n.Name), n.Line, n.Signature); err != nil {
			return err
		}
	}
	for _, l := range e.Links {
		if _, err := w.stmts["link"].ExecContext(ctx, r.id, l); err != nil {
			return err
		}
	}
	return nil
}

// derived is what an entry's rows hold beyond the entry itself, computed
// before the write transaction, in parallel (the writer is single).
type derived struct {
	doc, structure, names, links []byte // JSON
	content                      []byte
	folded                       string
	sections                     []sectionText
}

func derive(e sectionindex.Entry) derived {
	enc := func(v any) []byte {
		raw, _ := json.Marshal(v) // plain data: cannot fail
		return raw
	}
	names, links := e.Names, e.Links
	if names == nil {
		names = []domain.Name{}
	}
	if links == nil {
		links = []string{}
	}
	content := e.Content
	if content == nil {
		content = []byte{}
	}
	return derived{doc: enc(e.Doc), structure: enc(e.Structure), names: enc(names), links: enc(links),
		content: content, folded: textmatch.Fold(content), sections: sectionTexts(e)}
}

// deriveAll derives es on every CPU; a build yielding to calls pauses
// before each doc here too (it is half a batch's CPU).
// pause, when not nil, is called before each (the update's Pause).
func deriveAll(es []sectionindex.Entry, pause func(), spawn func(func())) []derived {
	out := make([]derived, len(es))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := min(runtime.NumCPU(), len(es)); w > 0; w-- {
		wg.Add(1)
		spawn(func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(es); i = int(next.Add(1)) - 1 {
				paused(pause)
				out[i] = derive(es[i])
			}
		})
	}
	wg.Wait()
	return out
}
