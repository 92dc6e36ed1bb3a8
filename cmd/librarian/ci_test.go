package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCIRunsTheReadmeCommandAndListsSkips: .ci/run runs exactly the
// README's test command (its verbosity from GOFLAGS, not a flag of its
// own) through scripts/skipped-tests, and prints that list at the end.
func TestCIRunsTheReadmeCommandAndListsSkips(t *testing.T) {
	ci := readRepoFile(t, ".ci/run")
	var line string
	for _, l := range strings.Split(ci, "\n") {
		if strings.Contains(l, "go test ") && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			if line != "" {
				t.Fatalf(".ci/run runs go test twice:\n%s\n%s", line, l)
			}
			line = l
		}
	}
	if !strings.Contains(line, " go test -race ./... ") || !strings.Contains(line, "| scripts/skipped-tests ") || !strings.Contains(line, "GOFLAGS=") {
		t.Errorf(".ci/run's test line %q: want GOFLAGS=… go test -race ./... piped to scripts/skipped-tests", line)
	}
	if !strings.Contains(ci, `cat "$report"`) {
		t.Error(".ci/run does not print the list of skipped tests at the end")
	}
}

// TestSkippedTestsScript: scripts/skipped-tests reads `go test -v` output
// (a recorded run: parallel tests, a subtest, a bare t.Skip, a failure)
// and lists each skipped test with its package and the reason it gave;
// with --filter the log keeps what a plain run shows.
func TestSkippedTestsScript(t *testing.T) {
	root := repoRoot(t)
	in, err := os.Open(filepath.Join("testdata", "skipped-tests", "verbose.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	report := filepath.Join(t.TempDir(), "report")
	cmd := exec.Command(filepath.Join(root, "scripts", "skipped-tests"), "--filter", "--report", report)
	cmd.Stdin = in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scripts/skipped-tests: %v\n%s", err, stderrOf(err))
	}
	got, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	want := `Skipped tests (4), and why:
  adapters/demo/a TestSub/one: a_test.go:13: sub skipped: 1
  adapters/demo/a TestBare: a_test.go:16: (no reason given)
  adapters/demo/a TestParallelSkip: a_test.go:9: the tool is not installed
  adapters/demo/b TestSkipB: b_test.go:6: no database
`
	if string(got) != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
	log := string(out)
	for _, gone := range []string{"=== RUN", "=== PAUSE", "=== CONT", "--- PASS"} {
		if strings.Contains(log, gone) {
			t.Errorf("the filtered log still has %q lines:\n%s", gone, log)
		}
	}
	for _, kept := range []string{"--- FAIL: TestFails", "b_test.go:5: got 1, want 2", "FAIL\tgithub.com/librarian/librarian/adapters/demo/b", "ok  \tgithub.com/librarian/librarian/adapters/demo/a"} {
		if !strings.Contains(log, kept) {
			t.Errorf("the filtered log lost %q:\n%s", kept, log)
		}
	}
}
