package sqlitesectionindex

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
)

// Texts streams every stored doc's bytes, stamp and body start in path
// order: from the text snapshot when it is current (see snapshot.go), else
// from a snapshot it writes first from the database's columns (no JSON is
// decoded), so that the texts served are the mapped file's, not the heap's.
// Where no snapshot can be had (in memory, or the file cannot be written)
// they come from the rows.
func (ix *Index) Texts(ctx context.Context, fn func(sectionindex.Text) error) error {
	instance, gen, err := ix.state(ctx)
	if err != nil {
		return fmt.Errorf("section index texts: %w", err)
	}
	snap := ix.mapSnapshot(instance, gen)
	if snap == nil && ix.file != "" && instance != "" {
		if err := ix.snapshotRows(ctx, instance, gen); err != nil {
			ix.log.Warn("section index: text snapshot not written; the texts are read from the database", "reason", err.Error())
		} else {
			snap = ix.mapSnapshot(instance, gen)
		}
	}
	if snap == nil {
		return ix.textRows(ctx, fn)
	}
	for _, t := range snap {
		if err := fn(t); err != nil {
			return err
		}
	}
	return nil
}

// mapSnapshot returns the texts of the current snapshot, its mapping kept
// for Evict; nil when there is none.
func (ix *Index) mapSnapshot(instance string, gen int64) []sectionindex.Text {
	texts, mapping := readSnapshot(ix.snapshotFile(), instance, gen)
	if mapping != nil {
		ix.mapMu.Lock()
		var all [][]byte
		if old := ix.mappings.Load(); old != nil {
			all = append(all, *old...)
		}
		all = append(all, mapping)
		ix.mappings.Store(&all)
		ix.mapMu.Unlock()
	}
	return texts
}

// snapshotRows writes the snapshot of the database's texts, only if
// nothing changed while the rows were read: a snapshot is of one state.
func (ix *Index) snapshotRows(ctx context.Context, instance string, gen int64) error {
	w, err := createSnapshot(ix.snapshotFile(), instance, gen)
	if err != nil {
		return err
	}
	if err := ix.textRows(ctx, func(t sectionindex.Text) error { w.add(t); return nil }); err != nil {
		w.abort()
		return err
	}
	i2, g2, err := ix.state(ctx)
	if err == nil && (i2 != instance || g2 != gen) {
		err = errors.New("the index changed while its texts were read")
	}
	if err != nil {
		w.abort()
		return err
	}
	return w.commit()
}

// Evict tells the index that contents, texts Texts gave, will not be read
// again soon: the pages of the mapped snapshot they span leave the
// process's memory (read again, they come back from the file). Texts not of
// a mapping are left alone. A scan evicts the texts it has read in groups
// (see evictPages).
func (ix *Index) Evict(contents ...[]byte) {
	all := ix.mappings.Load()
	if all == nil {
		return
	}
	for _, m := range *all {
		evictPages(m, contents)
	}
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

// Stamps returns every stored doc's stamp and description hash by path.
func (ix *Index) Stamps(ctx context.Context) (map[string]sectionindex.Stored, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT path, described, `+stampColumns+` FROM docs`)
	if err != nil {
		return nil, fmt.Errorf("section index stamps: %w", err)
	}
	defer rows.Close()
	out := map[string]sectionindex.Stored{}
	for rows.Next() {
		var p string
		var described int64
		var sc stampCols
		if err := rows.Scan(append([]any{&p, &described}, sc.targets()...)...); err != nil {
			return nil, fmt.Errorf("section index stamps: %w", err)
		}
		out[p] = sectionindex.Stored{Stamp: sc.stamp(), DescriptionHash: uint64(described)}
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
