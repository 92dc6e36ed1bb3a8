package sqlitesectionindex_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
	"github.com/librarian/librarian/ports/sectionindex/sectionindextest"
)

// openLogged opens the index of root in dir, returning the log it wrote.
func openLogged(t *testing.T, root, dir string) (*sqlitesectionindex.Index, string) {
	t.Helper()
	var log bytes.Buffer
	ix, err := sqlitesectionindex.Open(t.Context(), root, dir, slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix, log.String()
}

func put(t *testing.T, ix sectionindex.Index, path string) {
	t.Helper()
	e := sectionindextest.MarkdownEntry(path, "T", nil, "# T\n\nbody of "+path+"\n")
	if err := ix.Apply(t.Context(), sectionindex.Update{Put: []sectionindex.Entry{e}}); err != nil {
		t.Fatalf("Apply: %v", err)
	}
}

func docCount(t *testing.T, ix sectionindex.Index) int {
	t.Helper()
	c, err := ix.Catalog(t.Context())
	if err != nil {
		t.Fatalf("Catalog: %v", err)
	}
	return len(c.Docs)
}

func lines(s string) int { return strings.Count(strings.TrimSpace(s), "\n") + 1 }

func TestOneFilePerRealRootOutsideTheLibrary(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Skip(err)
	}
	a, err := sqlitesectionindex.FileFor(dir, root)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := sqlitesectionindex.FileFor(dir, link)
	other, _ := sqlitesectionindex.FileFor(dir, t.TempDir())
	if a != b || a == other || filepath.Dir(a) != dir {
		t.Errorf("files %s (root), %s (symlink to it), %s (another root); want one per real root, in %s", a, b, other, dir)
	}
	ix, log := openLogged(t, link, dir)
	put(t, ix, "a.md")
	if ix.File() != a || log != "" {
		t.Errorf("index file %q (log %q), want %s and no log", ix.File(), log, a)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("the library got files: %v", entries)
	}
	// An index folder inside the library is refused: memory, one log line.
	inside := filepath.Join(root, ".cache")
	ix2, log := openLogged(t, root, inside)
	if ix2.File() != "" || lines(log) != 1 || !strings.Contains(log, "inside the library") {
		t.Errorf("index folder inside the library: file %q, log %q", ix2.File(), log)
	}
	if _, err := os.Stat(inside); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("something was written into the library: %v", err)
	}
}

func TestCorruptFileIsRebuilt(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	file, _ := sqlitesectionindex.FileFor(dir, root)
	if err := os.WriteFile(file, bytes.Repeat([]byte("not a database, just noise "), 400), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, log := openLogged(t, root, dir)
	if ix.File() != file || lines(log) != 1 || !strings.Contains(log, "corrupt") {
		t.Fatalf("corrupt file: index %q, log %q; want the file rebuilt and one line", ix.File(), log)
	}
	put(t, ix, "a.md")
	if docCount(t, ix) != 1 {
		t.Error("the rebuilt index does not keep what is put")
	}
}

func TestForeignOrNewerSchemaIsBypassedUntouched(t *testing.T) {
	for name, setup := range map[string]string{
		"foreign": `CREATE TABLE invoices(id INTEGER PRIMARY KEY, total REAL)`,
		"newer":   fmt.Sprintf(`PRAGMA application_id = %d; PRAGMA user_version = 999`, 0x4C494252),
	} {
		t.Run(name, func(t *testing.T) {
			root, dir := t.TempDir(), t.TempDir()
			file, _ := sqlitesectionindex.FileFor(dir, root)
			db, err := sql.Open("sqlite", file)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range strings.Split(setup, ";") {
				if _, err := db.Exec(s); err != nil {
					t.Fatal(err)
				}
			}
			db.Close()
			before, _ := os.ReadFile(file)
			ix, log := openLogged(t, root, dir)
			if ix.File() != "" || lines(log) != 1 || !strings.Contains(log, "not a section index") {
				t.Errorf("%s schema: index %q, log %q; want memory and one line", name, ix.File(), log)
			}
			put(t, ix, "a.md")
			if docCount(t, ix) != 1 {
				t.Error("the bypass index does not keep what is put")
			}
			if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
				t.Errorf("the %s file was changed", name)
			}
		})
	}
}

func TestOlderSchemaIsRebuilt(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	file, _ := sqlitesectionindex.FileFor(dir, root)
	ix, _ := openLogged(t, root, dir)
	put(t, ix, "a.md")
	ix.Close()
	db, _ := sql.Open("sqlite", file)
	if _, err := db.Exec(`PRAGMA user_version = 0`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ix, log := openLogged(t, root, dir)
	if ix.File() != file || log != "" || docCount(t, ix) != 0 {
		t.Errorf("older schema: file %q, log %q, %d docs; want the file rebuilt empty", ix.File(), log, docCount(t, ix))
	}
}

func TestUnwritableFolderFallsBackToMemory(t *testing.T) {
	root := t.TempDir()
	notADir := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notADir, []byte("x"), 0o644)
	ix, log := openLogged(t, root, notADir)
	if ix.File() != "" || lines(log) != 1 {
		t.Errorf("index folder is a file: index %q, log %q; want memory and one line", ix.File(), log)
	}
	put(t, ix, "a.md")
	if st, _ := ix.Status(t.Context()); st.Where != "memory" || st.Docs != 1 {
		t.Errorf("status %+v", st)
	}
	if os.Geteuid() == 0 {
		return // root writes read-only files: the rest cannot be shown
	}
	dir := t.TempDir()
	file, _ := sqlitesectionindex.FileFor(dir, root)
	first, _ := openLogged(t, root, dir)
	first.Close()
	os.Chmod(file, 0o444)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	ix, log = openLogged(t, root, dir)
	if ix.File() != "" || lines(log) != 1 {
		t.Errorf("read-only file: index %q, log %q; want memory and one line", ix.File(), log)
	}
}

func TestLockedFileFallsBackToMemory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "locked.sqlite")
	ix, err := sqlitesectionindex.OpenFile(t.Context(), file, sqlitesectionindex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	// Another process holds an exclusive lock for longer than we wait.
	db, _ := sql.Open("sqlite", file)
	defer db.Close()
	conn, _ := db.Conn(t.Context())
	defer conn.Close()
	if _, err := conn.ExecContext(t.Context(), `PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE`); err != nil {
		t.Fatal(err)
	}
	_, err = sqlitesectionindex.OpenFile(t.Context(), file, sqlitesectionindex.Options{BusyTimeout: 50 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "locked") {
		t.Errorf("opening a locked file: %v, want a locked error (Open then uses memory)", err)
	}
}

func TestTwoServersShareOneFile(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	a, _ := openLogged(t, root, dir)
	b, log := openLogged(t, root, dir)
	if a.File() != b.File() || log != "" {
		t.Fatalf("second server: %q vs %q, log %q", a.File(), b.File(), log)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for i, ix := range []*sqlitesectionindex.Index{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 20; n++ {
				p := fmt.Sprintf("s%d/%02d.md", i, n)
				e := sectionindextest.MarkdownEntry(p, "T", nil, "# T\n\nshared body text\n")
				if err := ix.Apply(context.Background(), sectionindex.Update{Put: []sectionindex.Entry{e}}); err != nil {
					errs <- err
					return
				}
				if _, _, err := ix.Candidates(context.Background(), domain.CandidateQuery{AnyOf: []string{"shared"}, Fold: true}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if _, err := os.Stat(a.File() + "-wal"); err != nil {
		t.Errorf("no write-ahead log beside the file: %v (WAL mode lets servers read while one writes)", err)
	}
	if docCount(t, a) != 40 || docCount(t, b) != 40 {
		t.Errorf("servers see %d and %d docs, want 40 each", docCount(t, a), docCount(t, b))
	}
}
