package postgressectionindex

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/librarian/librarian/domain"
)

// Names returns up to limit names equal to query ignoring case (Unicode
// simple folding) first, then those containing it, each group by path and
// line.
func (ix *Index) Names(ctx context.Context, query string, limit int) ([]domain.NameHit, error) {
	if query == "" || limit <= 0 {
		return nil, nil
	}
	f := foldString(query)
	rows, err := ix.pool.Query(ctx, `SELECT path, kind, name, line, signature, folded = $1 AS exact
		FROM names WHERE folded = $1 OR folded LIKE $2
		ORDER BY exact DESC, path, line, ord LIMIT $3`, f, "%"+likeEscape(f)+"%", limit)
	if err != nil {
		return nil, ix.fail("look up names", err)
	}
	hits, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (domain.NameHit, error) {
		var h domain.NameHit
		err := r.Scan(&h.Path, &h.Kind, &h.Name.Name, &h.Line, &h.Signature, &h.Exact)
		return h, err
	})
	if err != nil {
		return nil, ix.fail("look up names", err)
	}
	return hits, nil
}

// LinksTo returns the docs that link to path, in path order.
func (ix *Index) LinksTo(ctx context.Context, path string) ([]string, error) {
	rows, err := ix.pool.Query(ctx, `SELECT DISTINCT path FROM links WHERE target = $1 ORDER BY path`, path)
	if err != nil {
		return nil, ix.fail("look up links", err)
	}
	paths, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, ix.fail("look up links", err)
	}
	return paths, nil
}
