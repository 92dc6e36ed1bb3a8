package postgressectionindex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
)

const docColumns = `path, id, title, summary, tokens, has_tokens, tags, stamp_size, stamp_mtime, stamp_inode, stamp_ctime`

// scanDoc reads the docColumns of one row, then extra.
func scanDoc(row pgx.Row, extra ...any) (domain.Document, error) {
	var d domain.Document
	var mtime, ctime *int64
	var inode int64
	dest := append([]any{&d.Path, &d.ID, &d.Title, &d.Summary, &d.Tokens, &d.HasTokens, &d.Tags, &d.Stamp.Size, &mtime, &inode, &ctime}, extra...)
	if err := row.Scan(dest...); err != nil {
		return d, err
	}
	d.Stamp.ModTime = fromNanos(mtime)
	d.Stamp.Changed = fromNanos(ctime)
	d.Stamp.Inode = uint64(inode)
	return d, nil
}

// Times are stored as Unix nanoseconds, NULL for the zero time.
func nanos(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	n := t.UnixNano()
	return &n
}

func fromNanos(n *int64) time.Time {
	if n == nil {
		return time.Time{}
	}
	return time.Unix(0, *n)
}

// generationSQL reads the stored generation: every write transaction
// bumps it, so an unchanged generation proves the catalog unchanged.
const generationSQL = `SELECT coalesce((SELECT (value #>> '{}')::bigint FROM meta WHERE key = 'generation'), 0)`

// bumpGeneration counts one more change, in the writing transaction.
func bumpGeneration(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `INSERT INTO meta (key, value) VALUES ('generation', '1')
		ON CONFLICT (key) DO UPDATE SET value = to_jsonb((meta.value #>> '{}')::bigint + 1)`)
	return err
}

// Catalog returns the stored catalog, from one snapshot. The last catalog
// read is kept with its generation: while no writer has bumped it, a call
// costs one small query, whatever the library's size, and returns the same
// catalog (shared, as the port allows: a copy of 100,000 docs per call cost
// a server 10 ms); every server sees a writer's change on its next call.
func (ix *Index) Catalog(ctx context.Context) (*domain.Catalog, error) {
	var gen int64
	if err := ix.pool.QueryRow(ctx, generationSQL).Scan(&gen); err != nil {
		return nil, ix.fail("read the catalog", err)
	}
	ix.catMu.Lock()
	if ix.cat != nil && ix.catGen == gen {
		c := ix.cat
		ix.catMu.Unlock()
		return c, nil
	}
	ix.catMu.Unlock()
	c, gen, err := ix.readCatalog(ctx)
	if err != nil {
		return nil, ix.fail("read the catalog", err)
	}
	ix.catMu.Lock()
	ix.cat, ix.catGen = c, gen
	ix.catMu.Unlock()
	return c, nil
}

// readCatalog reads the whole catalog and its generation in one snapshot.
func (ix *Index) readCatalog(ctx context.Context) (*domain.Catalog, int64, error) {
	c := &domain.Catalog{}
	var gen int64
	err := ix.readTx(ctx, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, generationSQL).Scan(&gen); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT `+docColumns+` FROM docs ORDER BY path`)
		if err != nil {
			return err
		}
		for rows.Next() {
			d, err := scanDoc(rows)
			if err != nil {
				rows.Close()
				return err
			}
			c.Docs = append(c.Docs, d)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows, err = tx.Query(ctx, `SELECT path, title, summary, tags FROM folders ORDER BY path`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var f domain.Folder
			if err := rows.Scan(&f.Path, &f.Title, &f.Summary, &f.Tags); err != nil {
				rows.Close()
				return err
			}
			if c.Folders == nil {
				c.Folders = map[string]domain.Folder{}
			}
			c.Folders[f.Path] = f
		}
		if err := rows.Err(); err != nil {
			return err
		}
		var notes []byte
		err = tx.QueryRow(ctx, `SELECT value FROM meta WHERE key = 'notes'`).Scan(&notes)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		return json.Unmarshal(notes, &c.Notes)
	})
	return c, gen, err
}

// Entry returns the stored document at path, read in one statement (one
// snapshot: never half of an update).
func (ix *Index) Entry(ctx context.Context, path string) (sectionindex.Entry, error) {
	e, err := ix.scanEntry(ix.pool.QueryRow(ctx, entrySelect+` WHERE d.path = $1`, path))
	if errors.Is(err, pgx.ErrNoRows) {
		return e, fmt.Errorf("%s: %w", path, sectionindex.ErrNotIndexed)
	}
	return e, err
}

// Entries calls fn with every stored doc in path order, from one query.
func (ix *Index) Entries(ctx context.Context, fn func(sectionindex.Entry) error) error {
	return ix.stream(ctx, entrySelect, fn)
}

// Parses is Entries without the names and links (nil), so the database
// neither aggregates nor sends them.
func (ix *Index) Parses(ctx context.Context, fn func(sectionindex.Entry) error) error {
	return ix.stream(ctx, parseSelect, fn)
}

// parseSelect is entrySelect with null names and links.
const parseSelect = `SELECT ` + docColumns + `, content, structure, NULL::json, NULL::text[] FROM docs d`

// stream calls fn with each row of query (entrySelect's columns) in path order.
func (ix *Index) stream(ctx context.Context, query string, fn func(sectionindex.Entry) error) error {
	rows, err := ix.pool.Query(ctx, query+` ORDER BY d.path`)
	if err != nil {
		return ix.fail("read every doc", err)
	}
	defer rows.Close()
	for rows.Next() {
		e, err := ix.scanEntry(rows)
		if err != nil {
			return err
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return ix.fail("read every doc", err)
	}
	return nil
}

// entrySelect reads a doc with its bytes, parse, names and links.
const entrySelect = `SELECT ` + docColumns + `, content, structure,
		(SELECT json_agg(json_build_array(n.kind, n.name, n.line, n.signature) ORDER BY n.ord) FROM names n WHERE n.path = d.path),
		(SELECT array_agg(l.target ORDER BY l.ord) FROM links l WHERE l.path = d.path)
		FROM docs d`

// scanEntry decodes one row of entrySelect. pgx.ErrNoRows is returned as it is.
func (ix *Index) scanEntry(row pgx.Row) (sectionindex.Entry, error) {
	var e sectionindex.Entry
	var structure, names []byte
	d, err := scanDoc(row, &e.Content, &structure, &names, &e.Links)
	if errors.Is(err, pgx.ErrNoRows) {
		return e, err
	}
	if err != nil {
		return e, ix.fail("read a doc", err)
	}
	e.Doc = d
	path := d.Path
	if e.Content == nil {
		e.Content = []byte{}
	}
	if err := json.Unmarshal(structure, &e.Structure); err != nil {
		return e, ix.fail("read the structure of "+path, err)
	}
	if names != nil {
		var rows [][4]json.RawMessage
		if err := json.Unmarshal(names, &rows); err != nil {
			return e, ix.fail("read the names of "+path, err)
		}
		for _, r := range rows {
			var n domain.Name
			if err := errors.Join(json.Unmarshal(r[0], &n.Kind), json.Unmarshal(r[1], &n.Name), json.Unmarshal(r[2], &n.Line), json.Unmarshal(r[3], &n.Signature)); err != nil {
				return e, ix.fail("read the names of "+path, err)
			}
			e.Names = append(e.Names, n)
		}
	}
	return e, nil
}

// Apply writes u: removals, then the puts (putAll: a transaction per part
// of the batch, the parts written in parallel), then folders, notes and the
// build time together. The whole batch holds the
// writer's advisory lock, so two writers (two `librarian index` runs, or a
// server and an index run) take turns instead of interleaving.
func (ix *Index) Apply(ctx context.Context, u sectionindex.Update) error {
	conn, err := ix.pool.Acquire(ctx)
	if err != nil {
		return ix.fail("connect to write", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(hashtext('librarian-writer:' || $1))`, ix.schema); err != nil {
		return ix.fail("take the writer's lock", err)
	}
	defer func() {
		// A lost connection releases the lock on the server by itself.
		_, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(hashtext('librarian-writer:' || $1))`, ix.schema)
	}()
	if ix.library != nil && !ix.claimed.Load() {
		// Before the first write: a schema of another library is refused
		// whole, never partly replaced.
		if err := ix.claimLibrary(ctx, conn); err != nil {
			return err
		}
		ix.claimed.Store(true)
	}
	if len(u.Remove) > 0 {
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `DELETE FROM docs WHERE path = ANY($1)`, u.Remove); err != nil {
				return err
			}
			return bumpGeneration(ctx, tx)
		})
		if err != nil {
			return ix.fail("remove documents", err)
		}
	}
	if err := ix.putAll(ctx, conn, u.Put); err != nil {
		return err
	}
	if u.Folders == nil && u.Notes == nil && u.BuiltAt == 0 {
		return nil
	}
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if err := bumpGeneration(ctx, tx); err != nil {
			return err
		}
		if u.Folders != nil {
			if _, err := tx.Exec(ctx, `DELETE FROM folders`); err != nil {
				return err
			}
			for _, f := range u.Folders {
				if _, err := tx.Exec(ctx, `INSERT INTO folders (path, title, summary, tags) VALUES ($1, $2, $3, $4)`,
					clean(f.Path), clean(f.Title), clean(f.Summary), cleanAll(f.Tags)); err != nil {
					return err
				}
			}
		}
		if u.Notes != nil {
			notes, err := json.Marshal(u.Notes)
			if err != nil {
				return err
			}
			if err := setMeta(ctx, tx, "notes", notes); err != nil {
				return err
			}
		}
		if u.BuiltAt != 0 {
			if err := setMeta(ctx, tx, "built_at", []byte(fmt.Sprint(u.BuiltAt))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return ix.fail("store folders and notes", err)
	}
	return nil
}

func setMeta(ctx context.Context, tx pgx.Tx, key string, value []byte) error {
	_, err := tx.Exec(ctx, `INSERT INTO meta (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, string(value))
	return err
}

// cleanAll cleans every string of a list, keeping nil as nil.
func cleanAll(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clean(s)
	}
	return out
}

// Status reports the index's size and build time.
func (ix *Index) Status(ctx context.Context) (domain.IndexStatus, error) {
	st := domain.IndexStatus{Where: ix.where}
	var builtAt *int64
	err := ix.pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM docs),
		(SELECT count(*) FROM sections),
		(SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
			WHERE c.relnamespace = $1::regnamespace AND c.relkind = 'r'),
		(SELECT (value #>> '{}')::bigint FROM meta WHERE key = 'built_at')`, ix.schema).
		Scan(&st.Docs, &st.Sections, &st.Bytes, &builtAt)
	if err != nil {
		return st, ix.fail("read the status", err)
	}
	if builtAt != nil {
		st.BuiltAt = *builtAt
	}
	return st, nil
}
