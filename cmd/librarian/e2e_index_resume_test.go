package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// TestKilledIndexBuildResumes: `librarian index` killed (SIGKILL) once it
// has committed at least one batch of docs loses none of them: the next run
// parses only the docs the killed one had not committed, and then every doc
// is stored and found.
func TestKilledIndexBuildResumes(t *testing.T) {
	const n = 3000
	lib := filepath.Join(t.TempDir(), "resume")
	old := time.Now().Add(-time.Hour) // outside the racy window: every read is stored as settled
	for i := range n {
		p := filepath.Join(lib, fmt.Sprintf("part-%02d", i/100), fmt.Sprintf("doc-%04d.md", i))
		body := fmt.Sprintf("# Doc %d\n\nNotes on item %d: its setup, its limits and its care.\n\n## Details\n\nItem %d is checked weekly by %s.\n", i, i, i, resumeWord(i))
		switch i {
		case 0:
			body += "\nThe first doc says quillfirstmarker.\n"
		case n - 1:
			body += "\nThe last doc says quilllastmarker.\n"
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	idx := t.TempDir()
	env := append(os.Environ(), "LIBRARY_INDEX_DIR="+idx, "LIBRARY_CONVENTION=frontmatter")

	// The first build, killed once the index file holds a batch.
	cmd := exec.Command(binary, "index", "--root", lib)
	cmd.Env = env
	var out1, err1 bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out1, &err1
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	seen := 0
	var poll docsPoller
	defer poll.close()
	deadline := time.Now().Add(60 * time.Second)
	for seen < 256 {
		select {
		case err := <-exited:
			t.Fatalf("the first build ended (%v) before it was killed, having committed %d docs: make the library larger\nstdout %s\nstderr %s", err, seen, out1.String(), err1.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no batch committed in 60 s; stderr %s", err1.String())
		}
		seen = poll.count(t, idx)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := <-exited; err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the first build was not killed: %v, stdout %q", err, out1.String())
	}
	if out1.Len() != 0 {
		t.Fatalf("the killed build printed its summary: it had finished (%q)", out1.String())
	}
	committed := storedDocs(t, idx)
	if committed < seen || committed >= n {
		t.Fatalf("after the kill the index holds %d docs; %d were seen before it, %d make the library", committed, seen, n)
	}
	t.Logf("killed with %d of %d docs committed (%d seen before the kill)", committed, n, seen)

	// The next run resumes: it parses exactly the docs not committed.
	docs, parsed := indexRun(t, env, lib)
	if docs != n || parsed != n-committed {
		t.Errorf("the run after the kill indexed %d docs, parsed %d; want %d docs and %d parsed (the %d committed kept)", docs, parsed, n, n-committed, committed)
	}
	if got := storedDocs(t, idx); got != n {
		t.Errorf("the index holds %d docs, want %d", got, n)
	}
	if docs, parsed := indexRun(t, env, lib); docs != n || parsed != 0 {
		t.Errorf("a third run indexed %d docs, parsed %d; want %d and none", docs, parsed, n)
	}
	// A ranked search of a word only one doc holds answers that doc alone:
	// the doc just after the committed ones (in the batch the kill cut
	// short, whose side-file rows may have been written) and the last.
	docPath := regexp.MustCompile(`part-\d\d/doc-\d{4}\.md`)
	for _, i := range []int{committed, committed + 1, n - 1} {
		want := fmt.Sprintf("part-%02d/doc-%04d.md", i/100, i)
		search := exec.Command(binary, "search", "--ranked", resumeWord(i), "--root", lib)
		search.Env = env
		got, err := search.CombinedOutput()
		paths := docPath.FindAllString(string(got), -1)
		slices.Sort(paths)
		if err != nil || !slices.Equal(slices.Compact(paths), []string{want}) {
			t.Errorf("ranked search %s after the resumed build: %v; want %s alone\n%s", resumeWord(i), err, want, got)
		}
	}
	for _, q := range []struct{ literal, doc string }{
		{"quillfirstmarker", "part-00/doc-0000.md"},
		{"quilllastmarker", fmt.Sprintf("part-%02d/doc-%04d.md", (n-1)/100, n-1)},
	} {
		search := exec.Command(binary, "search", q.literal, "--root", lib)
		search.Env = env
		got, err := search.CombinedOutput()
		if err != nil || !strings.Contains(string(got), q.doc) {
			t.Errorf("search %s after the resumed build: %v\n%s", q.literal, err, got)
		}
	}
}

// resumeWord is a word only doc i holds: letters alone, so that the ranked
// index's stemmer keeps it whole.
func resumeWord(i int) string {
	return fmt.Sprintf("zq%c%c%cx", 'a'+i/676%26, 'a'+i/26%26, 'a'+i%26)
}

// summaryLine is `librarian index`'s summary: "indexed N docs (S sections)
// in T: P parsed, …".
var summaryLine = regexp.MustCompile(`^indexed (\d+) docs \(\d+ sections\) in [^:]+: (\d+) parsed, `)

// indexRun runs `librarian index --root lib` to its end and returns the
// docs its summary line counts and how many it parsed.
func indexRun(t *testing.T, env []string, lib string) (docs, parsed int) {
	t.Helper()
	cmd := exec.Command(binary, "index", "--root", lib)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	m := summaryLine.FindStringSubmatch(string(out))
	if err != nil || m == nil {
		t.Fatalf("librarian index: %v\nstdout %s\nstderr %s", err, out, stderr.String())
	}
	docs, _ = strconv.Atoi(m[1])
	parsed, _ = strconv.Atoi(m[2])
	return docs, parsed
}

// storedDocs counts the docs the index file in dir has committed, read
// only (0 while there is no file or no table yet).
func storedDocs(t *testing.T, dir string) int {
	t.Helper()
	var p docsPoller
	defer p.close()
	return p.count(t, dir)
}

// docsPoller counts the docs of the index file in dir, read only, on one
// connection kept between counts (a poll costs one query, not an open).
type docsPoller struct{ db *sql.DB }

func (p *docsPoller) count(t *testing.T, dir string) int {
	t.Helper()
	if p.db == nil {
		files, _ := filepath.Glob(filepath.Join(dir, "*.sqlite"))
		if len(files) != 1 {
			return 0
		}
		db, err := sql.Open("sqlite", "file:"+files[0]+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		p.db = db
	}
	var n int
	if err := p.db.QueryRow("SELECT count(*) FROM docs").Scan(&n); err != nil {
		return 0
	}
	return n
}

func (p *docsPoller) close() {
	if p.db != nil {
		p.db.Close()
	}
}
