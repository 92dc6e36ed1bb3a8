package postgressectionindex_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/librarian/librarian/adapters/postgresdb/postgrestest"
	"github.com/librarian/librarian/adapters/postgressectionindex"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
	"github.com/librarian/librarian/ports/sectionindex/sectionindextest"
)

// fresh opens an empty index in a schema named for the test.
func fresh(t *testing.T, dsn string) *postgressectionindex.Index {
	t.Helper()
	schema := schemaFor(t.Name())
	postgrestest.DropSchema(t, dsn, schema)
	ix, err := postgressectionindex.Open(context.Background(), dsn, postgressectionindex.Options{Schema: schema, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

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

func TestNewerSchemaIsRefused(t *testing.T) {
	d := postgrestest.DSN(t)
	fresh(t, d).Close()
	schema := schemaFor(t.Name())
	exec(t, d, `UPDATE `+schema+`.schema_versions SET version = 99 WHERE component = 'sectionindex'`)
	_, err := postgressectionindex.Open(context.Background(), d, postgressectionindex.Options{Schema: schema, Logger: quiet})
	if !errors.Is(err, postgressectionindex.ErrNewerSchema) {
		t.Fatalf("Open on a schema at version 99: %v, want ErrNewerSchema", err)
	}
	for _, want := range []string{"sectionindex schema version 99", "upgrade librarian", schema} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

func TestOpenTwiceMigratesOnce(t *testing.T) {
	d := postgrestest.DSN(t)
	ix := fresh(t, d)
	apply := sectionindex.Update{Put: []sectionindex.Entry{sectionindextest.MarkdownEntry("a.md", "A", nil, "# A\n\nkept\n")}}
	if err := ix.Apply(context.Background(), apply); err != nil {
		t.Fatal(err)
	}
	again, err := postgressectionindex.Open(context.Background(), d, postgressectionindex.Options{Schema: schemaFor(t.Name()), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if st, err := again.Status(context.Background()); err != nil || st.Docs != 1 {
		t.Errorf("a second Open sees %+v, %v; want the stored doc", st, err)
	}
}

// readerDSN is the read-only role's DSN, from scripts/postgres-test-server.
func readerDSN(t *testing.T) string {
	r := os.Getenv("LIBRARIAN_TEST_POSTGRES_READONLY")
	if r == "" {
		t.Skip("LIBRARIAN_TEST_POSTGRES_READONLY is not set (see scripts/postgres-test-server)")
	}
	return r
}

func TestReadOnlyRoleServes(t *testing.T) {
	d, r := postgrestest.DSN(t), readerDSN(t)
	ix := fresh(t, d)
	schema := schemaFor(t.Name())
	if err := ix.Apply(context.Background(), sectionindex.Update{Put: []sectionindex.Entry{
		sectionindextest.MarkdownEntry("guide.md", "Guide", nil, "# Guide\n\nRotate the signing keys monthly.\n"),
	}, BuiltAt: 7}); err != nil {
		t.Fatal(err)
	}
	reader := strings.SplitN(strings.TrimPrefix(r, "postgres://"), ":", 2)[0]
	exec(t, d, `GRANT USAGE ON SCHEMA `+schema+` TO `+reader+`; GRANT SELECT ON ALL TABLES IN SCHEMA `+schema+` TO `+reader)

	ro, err := postgressectionindex.Open(context.Background(), r, postgressectionindex.Options{Schema: schema, Logger: quiet})
	if err != nil {
		t.Fatalf("a read-only role cannot open a current index: %v", err)
	}
	defer ro.Close()
	ctx := context.Background()
	if c, err := ro.Catalog(ctx); err != nil || len(c.Docs) != 1 {
		t.Errorf("read-only Catalog: %v, %v", c, err)
	}
	if e, err := ro.Entry(ctx, "guide.md"); err != nil || !strings.Contains(string(e.Content), "signing keys") {
		t.Errorf("read-only Entry: %v", err)
	}
	if rs, err := ro.Ranked(ctx, domainQuery("signing keys")); err != nil || len(rs) != 1 {
		t.Errorf("read-only Ranked: %+v, %v", rs, err)
	}
	if p, all, err := ro.Candidates(ctx, candidateQuery("signing")); err != nil || all || len(p) != 1 {
		t.Errorf("read-only Candidates: %q %v %v", p, all, err)
	}
	if st, err := ro.Status(ctx); err != nil || st.BuiltAt != 7 {
		t.Errorf("read-only Status: %+v, %v", st, err)
	}
	err = ro.Apply(ctx, sectionindex.Update{Remove: []string{"guide.md"}})
	if err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("read-only Apply: %v, want permission denied", err)
	}

	// A schema the role may not create is a clear error, not a crash.
	_, err = postgressectionindex.Open(ctx, r, postgressectionindex.Options{Schema: "t_never_created_here", Logger: quiet})
	if err == nil || !strings.Contains(err.Error(), "may not create it") {
		t.Errorf("read-only Open of a missing schema: %v, want it to say the role may not create it", err)
	}
}

// secret returns the password of dsn.
func secret(t *testing.T, dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	pw, ok := u.User.Password()
	if !ok || pw == "" {
		t.Fatal("the test DSN has no password")
	}
	return pw
}

func TestPasswordNeverInErrorsOrLogs(t *testing.T) {
	d := postgrestest.DSN(t)
	pw := secret(t, d)
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx := context.Background()

	// A server that is down: a port nobody listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	u, _ := url.Parse(d)
	u.Host = net.JoinHostPort("127.0.0.1", itoa(port))
	down := u.String()
	short, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, errDown := postgressectionindex.Open(short, down, postgressectionindex.Options{Schema: "t_down", Logger: logger})
	if errDown == nil {
		t.Fatal("Open of a server that is down succeeded")
	}
	if !errors.Is(errDown, postgressectionindex.ErrUnreachable) {
		t.Errorf("down: %v, want ErrUnreachable", errDown)
	}
	if !strings.Contains(errDown.Error(), "connect") || !strings.Contains(errDown.Error(), itoa(port)) {
		t.Errorf("down: %q does not say it could not connect, and where", errDown)
	}

	// A wrong password.
	u, _ = url.Parse(d)
	u.User = url.UserPassword(u.User.Username(), pw+"-wrong")
	_, errAuth := postgressectionindex.Open(ctx, u.String(), postgressectionindex.Options{Schema: "t_auth", Logger: logger})
	if errAuth == nil {
		t.Fatal("Open with a wrong password succeeded")
	}
	if errors.Is(errAuth, postgressectionindex.ErrUnreachable) {
		t.Errorf("a refused login is not a server that is down: %v", errAuth)
	}

	// A DSN that cannot be parsed, with the password in it.
	_, errParse := postgressectionindex.Open(ctx, strings.Replace(d, "sslmode=disable", "sslmode=bogus", 1), postgressectionindex.Options{Logger: logger})
	if errParse == nil {
		t.Fatal("Open of a DSN with sslmode=bogus succeeded")
	}

	// A good open logs its migration.
	schema := schemaFor(t.Name())
	postgrestest.DropSchema(t, d, schema)
	ix, err := postgressectionindex.Open(ctx, d, postgressectionindex.Options{Schema: schema, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := ix.Status(ctx)
	ix.Close()

	t.Logf("down: %v\nauth: %v\nparse: %v", errDown, errAuth, errParse)
	for what, text := range map[string]string{"down": errDown.Error(), "auth": errAuth.Error(), "parse": errParse.Error(), "logs": logs.String(), "Where": st.Where} {
		if strings.Contains(text, pw) {
			t.Errorf("%s shows the password: %s", what, text)
		}
	}
	if !strings.Contains(logs.String(), "schema migrated") {
		t.Errorf("the migration was not logged (so this test saw no log): %q", logs.String())
	}
	if got := postgressectionindex.Redact(d); strings.Contains(got, pw) || !strings.Contains(got, "xxxxx") {
		t.Errorf("Redact(%q) = %q", "the DSN", got)
	}
	if got := postgressectionindex.Redact("host=h user=u password='a b' dbname=d"); strings.Contains(got, "a b") {
		t.Errorf("Redact of a key=value DSN = %q", got)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func domainQuery(text string) domain.RankedQuery { return domain.RankedQuery{Text: text} }

func candidateQuery(lit string) domain.CandidateQuery {
	return domain.CandidateQuery{AnyOf: []string{lit}, Fold: true}
}

// TestLostConnection kills the index's connections while a call waits and
// between calls: the call fails with a clear error, the next ones work.
func TestLostConnection(t *testing.T) {
	d := postgrestest.DSN(t)
	u, _ := url.Parse(d)
	q := u.Query()
	app := "librarian_lost_" + itoa(int(time.Now().UnixNano()%1e6))
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	schema := schemaFor(t.Name())
	postgrestest.DropSchema(t, d, schema)
	ctx := context.Background()
	ix, err := postgressectionindex.Open(ctx, u.String(), postgressectionindex.Options{Schema: schema, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := ix.Apply(ctx, sectionindex.Update{Put: []sectionindex.Entry{sectionindextest.MarkdownEntry("a.md", "A", nil, "# A\n")}}); err != nil {
		t.Fatal(err)
	}

	// Hold a lock that makes Catalog wait, then kill its backend.
	locker, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer locker.Close(ctx)
	tx, err := locker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `LOCK TABLE `+schema+`.docs IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ix.Catalog(ctx); done <- err }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		if err := locker.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, app).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Catalog never waited for the lock")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := locker.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, app); err != nil {
		t.Fatal(err)
	}
	err = <-done
	if err == nil {
		t.Fatal("Catalog whose connection was killed succeeded")
	}
	if !strings.Contains(err.Error(), "postgres index") || !strings.Contains(err.Error(), "read the catalog") {
		t.Errorf("the lost call's error %q does not say what failed", err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	// The pool reconnects: the next calls work (a dead idle connection may
	// fail one call before the pool drops it).
	var last error
	for i := 0; i < 3; i++ {
		if _, last = ix.Catalog(ctx); last == nil {
			break
		}
	}
	if last != nil {
		t.Fatalf("after a lost connection the index does not recover: %v", last)
	}
}
