package postgressectionindex

import (
	"context"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
)

// Texts streams every stored doc's bytes, stamp and body start in path
// order, from one query; the body start is read out of the stored parse by
// the database, so the parse itself is never sent.
func (ix *Index) Texts(ctx context.Context, fn func(sectionindex.Text) error) error {
	return ix.streamTexts(ctx, "read every doc's text", "", nil, fn)
}

// streamTexts calls fn with the text of each doc the condition where (""
// or " WHERE …", with args) selects, in path order, from one query; what
// names the read in an error.
func (ix *Index) streamTexts(ctx context.Context, what, where string, args []any, fn func(sectionindex.Text) error) error {
	rows, err := ix.pool.Query(ctx, `SELECT path, content, coalesce((structure->>'FrontmatterEnd')::int, 0),
		stamp_size, stamp_mtime, stamp_inode, stamp_ctime FROM docs`+where+` ORDER BY path`, args...)
	if err != nil {
		return ix.fail(what, err)
	}
	defer rows.Close()
	for rows.Next() {
		var t sectionindex.Text
		var mtime, ctime *int64
		var inode int64
		if err := rows.Scan(&t.Path, &t.Content, &t.FrontmatterEnd, &t.Stamp.Size, &mtime, &inode, &ctime); err != nil {
			return ix.fail(what, err)
		}
		if t.Content == nil {
			t.Content = []byte{}
		}
		t.Stamp.ModTime, t.Stamp.Changed, t.Stamp.Inode = fromNanos(mtime), fromNanos(ctime), uint64(inode)
		if err := fn(t); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return ix.fail(what, err)
	}
	return nil
}

// Stamps returns every stored doc's stamp and description hash by path.
func (ix *Index) Stamps(ctx context.Context) (map[string]sectionindex.Stored, error) {
	rows, err := ix.pool.Query(ctx, `SELECT path, stamp_size, stamp_mtime, stamp_inode, stamp_ctime, described FROM docs`)
	if err != nil {
		return nil, ix.fail("read the stamps", err)
	}
	defer rows.Close()
	out := map[string]sectionindex.Stored{}
	for rows.Next() {
		var p string
		var s domain.Stamp
		var mtime, ctime *int64
		var inode, described int64
		if err := rows.Scan(&p, &s.Size, &mtime, &inode, &ctime, &described); err != nil {
			return nil, ix.fail("read the stamps", err)
		}
		s.ModTime, s.Changed, s.Inode = fromNanos(mtime), fromNanos(ctime), uint64(inode)
		out[p] = sectionindex.Stored{Stamp: s, DescriptionHash: uint64(described)}
	}
	if err := rows.Err(); err != nil {
		return nil, ix.fail("read the stamps", err)
	}
	return out, nil
}
