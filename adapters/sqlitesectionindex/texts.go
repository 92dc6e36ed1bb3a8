package sqlitesectionindex

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
)

// Texts streams every stored doc's bytes, stamp and body start in path
// order: from the text snapshot when it is current (see snapshot.go), else
// from the database's columns (no JSON is decoded), writing a snapshot for
// the next time.
func (ix *Index) Texts(ctx context.Context, fn func(sectionindex.Text) error) error {
	instance, gen, err := ix.state(ctx)
	if err != nil {
		return fmt.Errorf("section index texts: %w", err)
	}
	if snap := readSnapshot(ix.snapshotFile(), instance, gen); snap != nil {
		for _, t := range snap {
			if err := fn(t); err != nil {
				return err
			}
		}
		return nil
	}
	var all []sectionindex.Text
	if err := ix.textRows(ctx, func(t sectionindex.Text) error {
		if ix.file != "" {
			all = append(all, t)
		}
		return fn(t)
	}); err != nil {
		return err
	}
	if ix.file != "" && instance != "" {
		// Only if nothing changed while the rows were read: a snapshot must
		// be of one state.
		if i2, g2, err := ix.state(ctx); err == nil && i2 == instance && g2 == gen {
			ix.snapshots.Add(1)
			go func() {
				defer ix.snapshots.Done()
				if err := writeSnapshot(ix.snapshotFile(), instance, gen, all); err != nil {
					ix.log.Warn("section index: text snapshot not written; the next start reads the texts from the database", "reason", err.Error())
				}
			}()
		}
	}
	return nil
}

// textRows streams Texts from the database.
func (ix *Index) textRows(ctx context.Context, fn func(sectionindex.Text) error) error {
	rows, err := ix.db.QueryContext(ctx, `SELECT path, content, frontmatter_end, `+stampColumns+` FROM docs ORDER BY path`)
	if err != nil {
		return fmt.Errorf("section index texts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t sectionindex.Text
		var sc stampCols
		if err := rows.Scan(append([]any{&t.Path, &t.Content, &t.FrontmatterEnd}, sc.targets()...)...); err != nil {
			return fmt.Errorf("section index texts: %w", err)
		}
		if t.Content == nil {
			t.Content = []byte{}
		}
		t.Stamp = sc.stamp()
		if err := fn(t); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Stamps returns every stored doc's stamp by path.
func (ix *Index) Stamps(ctx context.Context) (map[string]domain.Stamp, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT path, `+stampColumns+` FROM docs`)
	if err != nil {
		return nil, fmt.Errorf("section index stamps: %w", err)
	}
	defer rows.Close()
	out := map[string]domain.Stamp{}
	for rows.Next() {
		var p string
		var sc stampCols
		if err := rows.Scan(append([]any{&p}, sc.targets()...)...); err != nil {
			return nil, fmt.Errorf("section index stamps: %w", err)
		}
		out[p] = sc.stamp()
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("section index stamps: %w", err)
	}
	return out, nil
}

// stampColumns are a stamp's columns in the docs table.
const stampColumns = `stamp_size, stamp_mtime, stamp_inode, stamp_ctime`

// stampCols scans stampColumns.
type stampCols struct {
	size, inode    int64
	mtime, changed sql.NullInt64
}

func (c *stampCols) targets() []any { return []any{&c.size, &c.mtime, &c.inode, &c.changed} }

func (c *stampCols) stamp() domain.Stamp {
	return domain.Stamp{Size: c.size, ModTime: fromUnixNano(c.mtime), Inode: uint64(c.inode), Changed: fromUnixNano(c.changed)}
}

// unixNano is t as a column: Unix nanoseconds, NULL for the zero time
// (outside int64's range of nanoseconds).
func unixNano(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}

func fromUnixNano(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.Unix(0, n.Int64)
}
