package main

import (
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
