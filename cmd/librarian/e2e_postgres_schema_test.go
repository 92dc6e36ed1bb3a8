package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPostgresReaderWithoutGrants: a server whose read-only role was not
// granted the schema says, in one line at start-up, which grant it lacks
// and the GRANT statement to run (it said the schema was missing); once
// granted, it serves.
func TestPostgresReaderWithoutGrants(t *testing.T) {
	const schema = "t_e2e_grants"
	owner, reader := postgresDSN(t, schema)
	r, err := url.Parse(os.Getenv("LIBRARIAN_TEST_POSTGRES_READONLY"))
	if err != nil || r.User == nil {
		t.Skip("LIBRARIAN_TEST_POSTGRES_READONLY is not set (see scripts/postgres-test-server)")
	}
	role := r.User.Username()
	indexInto(t, owner, "LIBRARY_ROOT="+filepath.Join(repoRoot(t), "library"))
	code, out, errOut := runCLI(t, map[string]string{"LIBRARY_INDEX": reader}, "ls")
	want := "have the schema's owner run GRANT USAGE ON SCHEMA " + schema + " TO " + role + "; GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + role + ";"
	if code != 2 || out != "" || !strings.Contains(errOut, want) || strings.Contains(errOut, "missing") || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
		t.Errorf("ls as a role without grants: exit %d, stdout %q, stderr %q; want exit 2 and one line saying %q", code, out, errOut, want)
	}
	grantReader(t, schema)
	if code, out, errOut := runCLI(t, map[string]string{"LIBRARY_INDEX": reader}, "ls"); code != 0 || !strings.Contains(out, "auth") {
		t.Errorf("ls once granted: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestPostgresSecondLibraryRefused: indexing a second library into the
// schema that holds a first is refused (it replaced it: "4 parsed, 7
// removed"), saying which library the schema holds and how to give the
// new one its own schema; that advice works; the same library from a
// folder of another name is accepted once LIBRARY_NAME says so.
func TestPostgresSecondLibraryRefused(t *testing.T) {
	const schema, other = "t_e2e_first_library", "t_e2e_second_library"
	first, _ := postgresDSN(t, schema)
	second, _ := postgresDSN(t, other)
	dir := t.TempDir()
	write := func(lib string, n int) string {
		root := filepath.Join(dir, lib)
		for i := range n {
			p := filepath.Join(root, fmt.Sprintf("doc%d.md", i))
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(fmt.Sprintf("# %s %d\n\ntext\n", lib, i)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return root
	}
	handbook, ops := write("handbook", 7), write("ops", 4)
	indexInto(t, first, "LIBRARY_ROOT="+handbook)
	code, out, errOut := runCLI(t, map[string]string{"LIBRARY_ROOT": ops}, "index", "--to", first)
	for _, want := range []string{`the schema holds another library: "handbook" (indexed from ` + handbook, `not "ops" (` + ops + `)`,
		"schema " + schema, "add search_path=ops to the DSN's query", "LIBRARY_NAME=handbook"} {
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("index of a second library: exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, want)
		}
	}
	// Nothing of the first was removed, and a server of the second is refused too.
	if code, out, errOut := runCLI(t, map[string]string{"LIBRARY_ROOT": handbook, "LIBRARY_INDEX": first}, "ls"); code != 0 || strings.Count(out, "doc") < 7 {
		t.Errorf("the first library after the refused ingest: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, map[string]string{"LIBRARY_ROOT": ops, "LIBRARY_INDEX": first}, "ls"); code != 2 || !strings.Contains(errOut, `"handbook"`) {
		t.Errorf("a server of the second library on the first's schema: exit %d, stderr %q", code, errOut)
	}
	// Its own schema, as the sentence says.
	if code, out, errOut := runCLI(t, map[string]string{"LIBRARY_ROOT": ops}, "index", "--to", second); code != 0 || !strings.Contains(out, "indexed 4 docs") {
		t.Errorf("the second library in its own schema: exit %d, %q %q", code, out, errOut)
	}
	// The same library in a folder of another name, named as the schema's.
	copyRoot := filepath.Join(dir, "checkout")
	if err := os.CopyFS(copyRoot, os.DirFS(handbook)); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runCLI(t, map[string]string{"LIBRARY_ROOT": copyRoot}, "index", "--to", first); code != 2 {
		t.Errorf("a copy in a folder of another name, unnamed: exit %d, want 2", code)
	}
	if code, out, errOut := runCLI(t, map[string]string{"LIBRARY_ROOT": copyRoot, "LIBRARY_NAME": "handbook"}, "index", "--to", first); code != 0 || !strings.Contains(out, "indexed 7 docs") || !strings.Contains(out, "0 removed") {
		t.Errorf("the same library named with LIBRARY_NAME: exit %d, %q %q", code, out, errOut)
	}
}
