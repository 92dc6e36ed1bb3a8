package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONErrorsAtStartUp: with --json, a failure before the command runs
// (a bad setting, a missing root) is one JSON object on stderr, with its
// kind and the exit code, and nothing on stdout; a command that runs
// prints one JSON object.
func TestJSONErrorsAtStartUp(t *testing.T) {
	lib := filepath.Join(repoRoot(t), "library")
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		kind string
	}{
		{"missing root", nil, []string{"ls", "--json", "--root", filepath.Join(t.TempDir(), "nope")}, "startup"},
		{"bad setting", map[string]string{"LIBRARY_ROOT": lib}, []string{"--max-answer-tokens", "-1", "search", "x", "--json"}, "usage"},
		{"unknown command flag", map[string]string{"LIBRARY_ROOT": lib}, []string{"tags", "--json", "--fuzzy"}, "usage"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.env, tc.args...)
			var e struct {
				Error struct {
					Message, Kind string
					Exit          int
				}
			}
			if err := json.Unmarshal([]byte(strings.TrimSpace(errOut)), &e); err != nil || code != 2 || out != "" ||
				e.Error.Kind != tc.kind || e.Error.Exit != 2 || e.Error.Message == "" || strings.HasPrefix(e.Error.Message, "librarian:") {
				t.Errorf("exit %d, stdout %q, stderr %q (%v); want exit 2, nothing on stdout, one JSON error of kind %s", code, out, errOut, err, tc.kind)
			}
		})
	}
	code, out, errOut := runCLI(t, map[string]string{"LIBRARY_ROOT": lib}, "ls", "--json")
	if code != 0 || !json.Valid([]byte(out)) || strings.Count(out, "\n") != 1 {
		t.Errorf("ls --json: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

// TestIndexListNeedsNoLibrary: `index --list` and `--prune` run where no
// library is (no ./library, no --root), on LIBRARY_INDEX_DIR.
func TestIndexListNeedsNoLibrary(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(t.TempDir(), "handbook")
	os.MkdirAll(lib, 0o755)
	os.WriteFile(filepath.Join(lib, "a.md"), []byte("# A\n"), 0o644)
	env := map[string]string{"LIBRARY_INDEX_DIR": dir}
	if code, out, errOut := runCLI(t, map[string]string{"LIBRARY_INDEX_DIR": dir, "LIBRARY_ROOT": lib}, "index"); code != 0 {
		t.Fatalf("index: exit %d, %s%s", code, out, errOut)
	}
	os.RemoveAll(lib)
	code, out, errOut := runCLI(t, env, "index", "--list")
	if code != 0 || !strings.Contains(out, "1 index file in "+dir) || !strings.Contains(out, "handbook (gone)") {
		t.Errorf("index --list: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCLI(t, env, "index", "--prune")
	if code != 0 || !strings.Contains(out, "Removed 1 index file from "+dir) || !strings.Contains(out, ": root gone") {
		t.Errorf("index --prune: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files left after --prune: %v", left)
	}
}
