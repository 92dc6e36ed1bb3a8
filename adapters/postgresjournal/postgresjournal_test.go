package postgresjournal_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/librarian/librarian/adapters/postgresdb"
	"github.com/librarian/librarian/adapters/postgresdb/postgrestest"
	"github.com/librarian/librarian/adapters/postgresjournal"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/journal"
	"github.com/librarian/librarian/ports/journal/journaltest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func exec(t *testing.T, dsn, sql string) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// Each journal the suite asks for gets a schema of its own.
var counter atomic.Int64

func TestContract(t *testing.T) {
	d := postgrestest.DSN(t)
	schemas := map[journal.Journal]string{}
	open := func(t *testing.T, schema string, l journal.Limits) journal.Journal {
		j, err := postgresjournal.Open(context.Background(), d, postgresjournal.Options{Schema: schema, Logger: quiet, Limits: l})
		if err != nil {
			t.Fatal(err)
		}
		schemas[j] = schema
		return j
	}
	journaltest.Run(t, journaltest.Factory{
		New: func(t *testing.T, l journal.Limits) journal.Journal {
			schema := fmt.Sprintf("t_journal_%d_%d", os.Getpid(), counter.Add(1))
			exec(t, d, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`)
			return open(t, schema, l)
		},
		Reopen: func(t *testing.T, j journal.Journal) journal.Journal {
			schema := schemas[j]
			j.Close()
			return open(t, schema, journal.Limits{})
		},
	})
}

func TestNewerSchemaIsRefused(t *testing.T) {
	d := postgrestest.DSN(t)
	schema := fmt.Sprintf("t_journal_newer_%d", os.Getpid())
	exec(t, d, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`)
	j, err := postgresjournal.Open(context.Background(), d, postgresjournal.Options{Schema: schema, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	exec(t, d, `UPDATE `+schema+`.schema_versions SET version = 5 WHERE component = 'journal'`)
	_, err = postgresjournal.Open(context.Background(), d, postgresjournal.Options{Schema: schema, Logger: quiet})
	if !errors.Is(err, postgresdb.ErrNewerSchema) {
		t.Fatalf("Open on journal schema version 5: %v, want ErrNewerSchema", err)
	}
}

// Two servers on one database share the journal: versions never repeat.
func TestTwoServersShareGuidanceVersions(t *testing.T) {
	d := postgrestest.DSN(t)
	schema := fmt.Sprintf("t_journal_two_%d", os.Getpid())
	exec(t, d, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`)
	ctx := context.Background()
	var js [2]*postgresjournal.Journal
	for i := range js {
		j, err := postgresjournal.Open(ctx, d, postgresjournal.Options{Schema: schema, Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		js[i] = j
	}
	done := make(chan error, 20)
	for i := range 20 {
		go func() {
			_, err := js[i%2].SetGuidance(ctx, guidance(i))
			done <- err
		}()
	}
	for range 20 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	g, ok, err := js[0].CurrentGuidance(ctx, "shared", time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	if err != nil || !ok || g.Version != 20 {
		t.Errorf("after 20 sets through two servers: %+v %v %v, want version 20", g, ok, err)
	}
}

func guidance(i int) knowledge.SessionGuidance {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	return knowledge.SessionGuidance{Session: "shared", Caller: "lead", Text: fmt.Sprint("text ", i), SetAt: at, ExpiresAt: at.Add(12 * time.Hour)}
}

func TestReadOnlyRoleIsNotWritable(t *testing.T) {
	d := postgrestest.DSN(t)
	r := os.Getenv("LIBRARIAN_TEST_POSTGRES_READONLY")
	if r == "" {
		t.Skip("LIBRARIAN_TEST_POSTGRES_READONLY is not set (see scripts/postgres-test-server)")
	}
	schema := fmt.Sprintf("t_journal_ro_%d", os.Getpid())
	exec(t, d, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`)
	ctx := context.Background()
	owner, err := postgresjournal.Open(ctx, d, postgresjournal.Options{Schema: schema, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	if ok, err := owner.Writable(ctx); err != nil || !ok {
		t.Errorf("the owner's journal: writable %v, %v", ok, err)
	}
	reader := strings.SplitN(strings.TrimPrefix(r, "postgres://"), ":", 2)[0]
	exec(t, d, `GRANT USAGE ON SCHEMA `+schema+` TO `+reader+`; GRANT SELECT ON ALL TABLES IN SCHEMA `+schema+` TO `+reader)
	ro, err := postgresjournal.Open(ctx, r, postgresjournal.Options{Schema: schema, Logger: quiet})
	if err != nil {
		t.Fatalf("a read-only role cannot open a current journal: %v", err)
	}
	defer ro.Close()
	if ok, err := ro.Writable(ctx); err != nil || ok {
		t.Errorf("the read-only role's journal: writable %v, %v; want false", ok, err)
	}
}

// TestMigratesVersion1: a journal of the first release keeps its records,
// with no owner, and gains sessions.
func TestMigratesVersion1(t *testing.T) {
	d := postgrestest.DSN(t)
	schema := fmt.Sprintf("t_journal_v1_%d", os.Getpid())
	exec(t, d, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`)
	ctx := context.Background()
	pool, where, name, err := postgresdb.Pool(ctx, d, schema, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := postgresdb.Migrate(ctx, pool, name, where, postgresjournal.Version1, quiet); err != nil {
		t.Fatal(err)
	}
	pool.Close()
	exec(t, d, `INSERT INTO `+schema+`.journal_knowledge (kind, subject, text, session, project, caller, at) VALUES ('tell', 'old', 'kept', 's', '', 'w', now())`)
	j, err := postgresjournal.Open(ctx, d, postgresjournal.Options{Schema: schema, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	told, err := j.Knowledge(ctx, knowledge.KnowledgeTold, 0)
	if err != nil || len(told) != 1 || told[0].Text != "kept" || told[0].Owner != "" {
		t.Errorf("after migrating: %+v %v", told, err)
	}
	if ok, err := j.Claim(ctx, "s", "alice", time.Now()); err != nil || !ok {
		t.Errorf("claiming a session after migrating: %v %v", ok, err)
	}
}

// Two servers on one database share one quota per owner: together they
// never let an owner past it.
func TestTwoServersShareAQuota(t *testing.T) {
	d := postgrestest.DSN(t)
	schema := fmt.Sprintf("t_journal_quota_%d", os.Getpid())
	exec(t, d, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`)
	ctx := context.Background()
	var js [2]*postgresjournal.Journal
	for i := range js {
		j, err := postgresjournal.Open(ctx, d, postgresjournal.Options{Schema: schema, Logger: quiet, Limits: journal.Limits{OwnerRecords: 5}})
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		js[i] = j
	}
	done := make(chan error, 20)
	for i := range 20 {
		go func() {
			_, err := js[i%2].Learn(ctx, knowledge.Knowledge{Kind: knowledge.KnowledgeTold, Subject: fmt.Sprint("s", i), Text: "t", Owner: "alice"})
			done <- err
		}()
	}
	stored := 0
	for range 20 {
		switch err := <-done; {
		case err == nil:
			stored++
		case !errors.Is(err, knowledge.ErrQuota):
			t.Fatal(err)
		}
	}
	if stored != 5 {
		t.Errorf("20 tells at once through two servers stored %d, want the quota of 5", stored)
	}
}
