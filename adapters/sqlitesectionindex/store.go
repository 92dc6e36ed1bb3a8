package sqlitesectionindex

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/textmatch"
	"github.com/librarian/librarian/ports/sectionindex"
)

// Catalog returns the stored docs in path order, folders and notes.
func (ix *Index) Catalog(ctx context.Context) (*domain.Catalog, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT doc FROM docs ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("section index catalog: %w", err)
	}
	defer rows.Close()
	c := &domain.Catalog{Folders: map[string]domain.Folder{}}
	for rows.Next() {
		var raw []byte
		if err := rows.Scan(&raw); err != nil {
			return nil, fmt.Errorf("section index catalog: %w", err)
		}
		var d domain.Document
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, fmt.Errorf("section index catalog: a stored doc: %w", err)
		}
		c.Docs = append(c.Docs, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("section index catalog: %w", err)
	}
	rows.Close()
	if err := ix.metaJSON(ctx, "folders", &c.Folders); err != nil {
		return nil, err
	}
	if err := ix.metaJSON(ctx, "notes", &c.Notes); err != nil {
		return nil, err
	}
	return c, nil
}

func (ix *Index) metaJSON(ctx context.Context, key string, v any) error {
	var raw []byte
	err := ix.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err == nil {
		err = json.Unmarshal(raw, v)
	}
	if err != nil {
		return fmt.Errorf("section index %s: %w", key, err)
	}
	return nil
}

// Entry returns the stored doc at path, or an error wrapping ErrNotIndexed.
func (ix *Index) Entry(ctx context.Context, path string) (sectionindex.Entry, error) {
	var doc, structure, names, links []byte
	var e sectionindex.Entry
	err := ix.entry.QueryRowContext(ctx, path).
		Scan(&doc, &e.Content, &structure, &names, &links)
	if errors.Is(err, sql.ErrNoRows) {
		return e, fmt.Errorf("%s: %w", path, sectionindex.ErrNotIndexed)
	}
	if err != nil {
		return e, fmt.Errorf("section index entry %s: %w", path, err)
	}
	if err := decodeEntry(&e, doc, structure, names, links); err != nil {
		return e, fmt.Errorf("section index entry %s: %w", path, err)
	}
	return e, nil
}

// Entries streams every stored doc in path order.
func (ix *Index) Entries(ctx context.Context, fn func(sectionindex.Entry) error) error {
	rows, err := ix.db.QueryContext(ctx, `SELECT doc, content, structure, names, links FROM docs ORDER BY path`)
	if err != nil {
		return fmt.Errorf("section index entries: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var doc, structure, names, links []byte
		var e sectionindex.Entry
		if err := rows.Scan(&doc, &e.Content, &structure, &names, &links); err != nil {
			return fmt.Errorf("section index entries: %w", err)
		}
		if err := decodeEntry(&e, doc, structure, names, links); err != nil {
			return fmt.Errorf("section index entries: %w", err)
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Parses streams every stored doc in path order, without names and links.
// The rows are read on one goroutine and their JSON (most of the cost:
// 22 MB for 10,000 docs) decoded on GOMAXPROCS others; fn still sees them
// one at a time, in order, on the caller's goroutine.
func (ix *Index) Parses(ctx context.Context, fn func(sectionindex.Entry) error) error {
	rows, err := ix.db.QueryContext(ctx, `SELECT doc, content, structure FROM docs ORDER BY path`)
	if err != nil {
		return fmt.Errorf("section index parses: %w", err)
	}
	// A row in flight: scanned, then decoded by a worker (done closed).
	type row struct {
		e              sectionindex.Entry
		doc, structure []byte
		err            error
		done           chan struct{}
	}
	const ahead = 64 // rows read ahead of fn
	ordered := make(chan *row, ahead)
	work := make(chan *row, ahead)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the reader: rows belong to this goroutine
		defer wg.Done()
		defer close(ordered)
		defer close(work)
		defer rows.Close()
		for {
			r := &row{done: make(chan struct{})}
			more := rows.Next()
			if !more {
				r.err = rows.Err()
			} else if err := rows.Scan(&r.doc, &r.e.Content, &r.structure); err != nil {
				r.err = fmt.Errorf("section index parses: %w", err)
			}
			if r.err != nil {
				close(r.done)
				select {
				case ordered <- r:
				case <-stop:
				}
				return
			}
			if !more {
				return
			}
			select {
			case ordered <- r:
			case <-stop:
				return
			}
			select {
			case work <- r:
			case <-stop:
				close(r.done)
				return
			}
		}
	}()
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range work {
				if r.e.Content == nil {
					r.e.Content = []byte{}
				}
				if err := json.Unmarshal(r.doc, &r.e.Doc); err != nil {
					r.err = fmt.Errorf("section index parses: %w", err)
				} else if err := json.Unmarshal(r.structure, &r.e.Structure); err != nil {
					r.err = fmt.Errorf("section index parses: %s: %w", r.e.Doc.Path, err)
				}
				r.doc, r.structure = nil, nil
				close(r.done)
			}
		}()
	}
	defer wg.Wait()
	defer close(stop)
	for r := range ordered {
		<-r.done
		if r.err != nil {
			return r.err
		}
		if err := fn(r.e); err != nil {
			return err
		}
	}
	return nil
}

func decodeEntry(e *sectionindex.Entry, doc, structure, names, links []byte) error {
	if e.Content == nil {
		e.Content = []byte{}
	}
	for _, f := range []struct {
		raw []byte
		v   any
	}{{doc, &e.Doc}, {structure, &e.Structure}, {names, &e.Names}, {links, &e.Links}} {
		if err := json.Unmarshal(f.raw, f.v); err != nil {
			return fmt.Errorf("%s: %w", e.Doc.Path, err)
		}
	}
	return nil
}

// Apply writes u in one transaction: readers see the state before or after
// it, never a part.
func (ix *Index) Apply(ctx context.Context, u sectionindex.Update) error {
	ds := deriveAll(u.Put)
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("section index update: %w", err)
	}
	defer tx.Rollback()
	w, err := prepareWriter(ctx, tx)
	if err != nil {
		return fmt.Errorf("section index update: %w", err)
	}
	defer w.close()
	for _, p := range u.Remove {
		if err := w.remove(ctx, p); err != nil {
			return fmt.Errorf("section index update: removing %s: %w", p, err)
		}
	}
	for i, e := range u.Put {
		if err := w.remove(ctx, e.Doc.Path); err != nil {
			return fmt.Errorf("section index update: replacing %s: %w", e.Doc.Path, err)
		}
		if err := w.put(ctx, e, ds[i]); err != nil {
			return fmt.Errorf("section index update: storing %s: %w", e.Doc.Path, err)
		}
	}
	if len(u.Put) > 0 || len(u.Remove) > 0 {
		if err := bumpGeneration(ctx, tx); err != nil {
			return fmt.Errorf("section index update: %w", err)
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
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)`, k, raw); err != nil {
			return fmt.Errorf("section index update: %s: %w", k, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("section index update: %w", err)
	}
	if len(u.Put) > 0 || len(u.Remove) > 0 {
		ix.plan.forget()
	}
	return nil
}

// writer holds the statements of one Apply.
type writer struct {
	stmts map[string]*sql.Stmt
}

var writerSQL = map[string]string{
	"find":        `SELECT id FROM docs WHERE path = ?`,
	"delGrams":    `DELETE FROM grams WHERE rowid = ?`,
	"delRanked":   `DELETE FROM ranked WHERE rowid IN (SELECT id FROM sections WHERE doc = ?)`,
	"delSections": `DELETE FROM sections WHERE doc = ?`,
	"delNames":    `DELETE FROM names WHERE doc = ?`,
	"delLinks":    `DELETE FROM links WHERE doc = ?`,
	"delDoc":      `DELETE FROM docs WHERE id = ?`,
	"doc": `INSERT INTO docs(path, doc, content, structure, names, links, sections,
		stamp_size, stamp_mtime, stamp_inode, stamp_ctime, frontmatter_end) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	"grams":   `INSERT INTO grams(rowid, text) VALUES(?, ?)`,
	"section": `INSERT INTO sections(doc, section_id, start, end) VALUES(?, ?, ?, ?)`,
	"ranked":  `INSERT INTO ranked(rowid, title, heading, body, code) VALUES(?, ?, ?, ?, ?)`,
	"name":    `INSERT INTO names(doc, kind, name, lname, line, signature) VALUES(?, ?, ?, ?, ?, ?)`,
	"link":    `INSERT INTO links(doc, target) VALUES(?, ?)`,
}

func prepareWriter(ctx context.Context, tx *sql.Tx) (*writer, error) {
	w := &writer{stmts: map[string]*sql.Stmt{}}
	for k, q := range writerSQL {
		s, err := tx.PrepareContext(ctx, q)
		if err != nil {
			w.close()
			return nil, err
		}
		w.stmts[k] = s
	}
	return w, nil
}

func (w *writer) close() {
	for _, s := range w.stmts {
		s.Close()
	}
}

func (w *writer) remove(ctx context.Context, path string) error {
	var id int64
	err := w.stmts["find"].QueryRowContext(ctx, path).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, k := range []string{"delGrams", "delRanked", "delSections", "delNames", "delLinks", "delDoc"} {
		if _, err := w.stmts[k].ExecContext(ctx, id); err != nil {
			return fmt.Errorf("%s: %w", k, err)
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

// deriveAll derives es on every CPU.
func deriveAll(es []sectionindex.Entry) []derived {
	out := make([]derived, len(es))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := min(runtime.GOMAXPROCS(0), len(es)); w > 0; w-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(es); i = int(next.Add(1)) - 1 {
				out[i] = derive(es[i])
			}
		}()
	}
	wg.Wait()
	return out
}

func (w *writer) put(ctx context.Context, e sectionindex.Entry, d derived) error {
	st := e.Doc.Stamp
	res, err := w.stmts["doc"].ExecContext(ctx, e.Doc.Path, d.doc, d.content, d.structure, d.names, d.links, len(e.Structure.Sections),
		st.Size, unixNano(st.ModTime), int64(st.Inode), unixNano(st.Changed), e.Structure.FrontmatterEnd)
	if err != nil {
		return err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return err
	}
	if _, err := w.stmts["grams"].ExecContext(ctx, id, d.folded); err != nil {
		return fmt.Errorf("trigrams: %w", err)
	}
	for _, s := range d.sections {
		res, err := w.stmts["section"].ExecContext(ctx, id, s.id, s.start, s.end)
		if err != nil {
			return err
		}
		sid, err := res.LastInsertId()
		if err != nil {
			return err
		}
		if _, err := w.stmts["ranked"].ExecContext(ctx, sid, e.Doc.Title, s.heading, s.body, s.code); err != nil {
			return fmt.Errorf("ranked text: %w", err)
		}
	}
	for _, n := range e.Names {
		if _, err := w.stmts["name"].ExecContext(ctx, id, n.Kind, n.Name, strings.ToLower(n.Name), n.Line, n.Signature); err != nil {
			return err
		}
	}
	for _, l := range e.Links {
		if _, err := w.stmts["link"].ExecContext(ctx, id, l); err != nil {
			return err
		}
	}
	return nil
}

// Status counts docs and sections and reports the file's size.
func (ix *Index) Status(ctx context.Context) (domain.IndexStatus, error) {
	st := domain.IndexStatus{Where: ix.where}
	var pages, pageSize int64
	err := ix.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM docs), (SELECT coalesce(sum(sections), 0) FROM docs), `+
		`(SELECT page_count FROM pragma_page_count()), (SELECT page_size FROM pragma_page_size())`).
		Scan(&st.Docs, &st.Sections, &pages, &pageSize)
	if err != nil {
		return st, fmt.Errorf("section index status: %w", err)
	}
	st.Bytes = pages * pageSize
	var built string
	err = ix.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'built_at'`).Scan(&built)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return st, fmt.Errorf("section index status: %w", err)
	}
	if built != "" {
		st.BuiltAt, _ = strconv.ParseInt(built, 10, 64)
	}
	return st, nil
}
