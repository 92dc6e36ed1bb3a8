package postgressectionindex

import (
	"context"
	"io"
	"log/slog"

	"github.com/librarian/librarian/adapters/postgresdb"
)

// MigrateTo brings schema to version n only (an older Librarian's schema),
// for upgrade tests.
func MigrateTo(ctx context.Context, dsn, schemaName string, n int) error {
	pool, where, name, err := postgresdb.Pool(ctx, dsn, schemaName, 2)
	if err != nil {
		return err
	}
	defer pool.Close()
	m := schema
	m.Steps = m.Steps[:n]
	return postgresdb.Migrate(ctx, pool, name, where, m, slog.New(slog.NewTextHandler(io.Discard, nil)))
}
