// Package postgrestest gives tests the PostgreSQL server that
// scripts/postgres-test-server starts: its DSN (a test skips without one)
// and schemas of their own, made afresh.
package postgrestest

import (
	"context"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// DSN is the test server's owner DSN (LIBRARIAN_TEST_POSTGRES); without
// one the test is skipped, saying how to run it.
func DSN(t testing.TB) string {
	t.Helper()
	d := os.Getenv("LIBRARIAN_TEST_POSTGRES")
	if d == "" {
		t.Skip("LIBRARIAN_TEST_POSTGRES is not set: run the tests through scripts/postgres-test-server run -- go test ./... to test against PostgreSQL")
	}
	return d
}

// DropSchema removes schema and all it holds, if it is there (left by an
// earlier run on a kept cluster), connecting as dsn.
func DropSchema(t testing.TB, dsn, schema string) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), `DROP SCHEMA IF EXISTS `+pgx.Identifier{schema}.Sanitize()+` CASCADE`); err != nil {
		t.Fatal(err)
	}
}

// WithSchema is dsn with its search_path set to schema.
func WithSchema(t testing.TB, dsn, schema string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
