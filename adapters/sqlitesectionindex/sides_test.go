package sqlitesectionindex_test

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
	"github.com/librarian/librarian/ports/sectionindex/sectionindextest"
)

// A side file that is not the main file's (missing, emptied, another
// index's, corrupt) would hide docs from searches: the index is rebuilt.
func TestSideFileThatIsNotTheIndexsRebuildsIt(t *testing.T) {
	for name, spoil := range map[string]func(t *testing.T, file, other string){
		"missing": func(t *testing.T, file, _ string) {
			for _, s := range []string{"", "-wal", "-shm"} {
				os.Remove(file + "-grams" + s)
			}
		},
		"another index's": func(t *testing.T, file, other string) {
			raw, err := os.ReadFile(other + "-ranked")
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{"-wal", "-shm"} {
				os.Remove(file + "-ranked" + s)
			}
			if err := os.WriteFile(file+"-ranked", raw, 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"corrupt": func(t *testing.T, file, _ string) {
			for _, s := range []string{"-wal", "-shm"} {
				os.Remove(file + "-grams" + s)
			}
			if err := os.WriteFile(file+"-grams", bytes.Repeat([]byte("noise, not a database "), 400), 0o644); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			root, dir := t.TempDir(), t.TempDir()
			otherRoot, otherDir := t.TempDir(), t.TempDir()
			file, _ := sqlitesectionindex.FileFor(dir, root)
			other, _ := sqlitesectionindex.FileFor(otherDir, otherRoot)
			ix, _ := openLogged(t, root, dir)
			put(t, ix, "a.md")
			ix.Close()
			ox, _ := openLogged(t, otherRoot, otherDir)
			put(t, ox, "b.md")
			ox.Close()
			spoil(t, file, other)
			ix, log := openLogged(t, root, dir)
			if ix.File() != file || docCount(t, ix) != 0 || lines(log) != 1 {
				t.Fatalf("file %q, %d docs, log %q; want the index rebuilt empty in its file, one line logged", ix.File(), docCount(t, ix), log)
			}
			putFillers(t, ix)
			put(t, ix, "c.md")
			if got := candidates(t, ix, "body of c"); !slices.Equal(got, []string{"c.md"}) {
				t.Errorf("after the rebuild, candidates %v; want [c.md]", got)
			}
			if got := ranked(t, ix, "c.md"); !slices.Equal(got, []string{"c.md"}) {
				t.Errorf("after the rebuild, ranked %v; want [c.md]", got)
			}
		})
	}
}

// An Apply that stops after the side files committed, before the main
// file did, leaves side rows of docs the main file does not hold: they are
// never found, and the next Apply deletes them; a removed doc's side rows
// go with it.
func TestSideRowsOfNoDocAreNeverFound(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	file, _ := sqlitesectionindex.FileFor(dir, root)
	ix, _ := openLogged(t, root, dir)
	putFillers(t, ix)
	put(t, ix, "a.md")
	// What a stopped Apply of the next doc and section leaves.
	side := func(name string) *sql.DB {
		db, err := sql.Open("sqlite", file+"-"+name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	grams, rankedDB := side("grams"), side("ranked")
	if _, err := grams.Exec(`INSERT INTO grams(rowid, text) VALUES(12, 'a unicorn of a stopped apply')`); err != nil {
		t.Fatal(err)
	}
	if _, err := rankedDB.Exec(`INSERT INTO ranked(rowid, title, heading, body, code) VALUES(12, 'T', 'T', 'a unicorn of a stopped apply', '')`); err != nil {
		t.Fatal(err)
	}
	if got := candidates(t, ix, "unicorn"); len(got) != 0 {
		t.Errorf("candidates of a stopped apply's row: %v; want none", got)
	}
	if got := ranked(t, ix, "unicorn"); len(got) != 0 {
		t.Errorf("ranked of a stopped apply's row: %v; want none", got)
	}
	put(t, ix, "b.md")
	if got := candidates(t, ix, "unicorn"); len(got) != 0 {
		t.Errorf("after the next apply, candidates %v; want none", got)
	}
	rowids := func(db *sql.DB, table string) []int64 {
		rows, err := db.Query(`SELECT rowid FROM ` + table + ` ORDER BY rowid`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var ids []int64
		for rows.Next() {
			var id int64
			rows.Scan(&id)
			ids = append(ids, id)
		}
		return ids
	}
	if g, r := rowids(grams, "grams"), rowids(rankedDB, "ranked"); len(g) != 12 || len(r) != 12 {
		t.Errorf("side rows after the next apply: grams %v, ranked %v; want the two docs' rows only", g, r)
	}
	if err := ix.Apply(t.Context(), sectionindex.Update{Remove: []string{"a.md"}}); err != nil {
		t.Fatal(err)
	}
	if g, r := rowids(grams, "grams"), rowids(rankedDB, "ranked"); len(g) != 11 || len(r) != 11 {
		t.Errorf("side rows after a.md is removed: grams %v, ranked %v; want the other docs' only", g, r)
	}
	if got := candidates(t, ix, "body of a"); len(got) != 0 {
		t.Errorf("candidates of a.md once removed: %v; want none", got)
	}
	if got := candidates(t, ix, "body of b"); !slices.Equal(got, []string{"b.md"}) {
		t.Errorf("candidates after a.md is removed: %v; want [b.md]", got)
	}
}

// putFillers puts ten docs, so that a rare literal's lookup is planned.
func putFillers(t *testing.T, ix sectionindex.Index) {
	t.Helper()
	for i := range 10 {
		put(t, ix, fmt.Sprintf("f%d.md", i))
	}
}

func candidates(t *testing.T, ix sectionindex.Index, lit string) []string {
	t.Helper()
	got, all, err := ix.Candidates(t.Context(), domain.CandidateQuery{AnyOf: []string{lit}})
	if err != nil || all {
		t.Fatalf("Candidates(%q): %v, all %v", lit, err, all)
	}
	return got
}

func ranked(t *testing.T, ix sectionindex.Index, q string) []string {
	t.Helper()
	got, err := ix.Ranked(t.Context(), domain.RankedQuery{Text: q})
	if err != nil {
		t.Fatalf("Ranked(%q): %v", q, err)
	}
	var paths []string
	for _, s := range got {
		paths = append(paths, s.Path)
	}
	return paths
}

// Each writer of a file index pauses between docs when asked (a build
// yielding to calls), and so does deriving the rows before any transaction;
// an in-memory index never pauses inside its one connection's transaction,
// which the calls would wait for.
func TestApplyPausesBetweenDocs(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	file, _ := openLogged(t, root, dir)
	mem, err := sqlitesectionindex.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	for _, c := range []struct {
		name  string
		ix    sectionindex.Index
		least int
		most  int
	}{{"file", file, 4 * 4, 1 << 30}, {"memory", mem, 4, 4}} {
		var pauses atomic.Int64
		u := sectionindex.Update{Pause: func() { pauses.Add(1) }}
		for i := range 4 {
			u.Put = append(u.Put, sectionindextest.MarkdownEntry(fmt.Sprintf("d%d.md", i), "T", nil, "# T\n\nbody\n"))
		}
		if err := c.ix.Apply(t.Context(), u); err != nil {
			t.Fatal(err)
		}
		if got := int(pauses.Load()); got < c.least || got > c.most {
			t.Errorf("%s: %d pauses for 4 docs; want %d to %d", c.name, got, c.least, c.most)
		}
	}
}

// An index folder whose path holds '#', '?' or '%' is that folder: the
// index persists there (it was bypassed for memory, or made a stray file
// where the path was cut).
func TestIndexFolderWithURICharacters(t *testing.T) {
	base := t.TempDir()
	root, dir := t.TempDir(), filepath.Join(base, "idx#2?x=%41")
	ix, log := openLogged(t, root, dir)
	if filepath.Dir(ix.File()) != dir || log != "" {
		t.Fatalf("index file %q, log %q; want a file in %q and nothing logged", ix.File(), log, dir)
	}
	putFillers(t, ix)
	put(t, ix, "a.md")
	ix.Close()
	ix, log = openLogged(t, root, dir)
	if docCount(t, ix) != 11 || log != "" {
		t.Fatalf("reopened: %d docs, log %q; want the 11 put", docCount(t, ix), log)
	}
	if got := candidates(t, ix, "body of a"); !slices.Equal(got, []string{"a.md"}) {
		t.Errorf("candidates through the attached side file: %v; want [a.md]", got)
	}
	entries, _ := os.ReadDir(base)
	if len(entries) != 1 {
		t.Errorf("the folder above the index holds %d entries; want the index folder alone", len(entries))
	}
}
