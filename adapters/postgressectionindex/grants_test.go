package postgressectionindex_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/postgresdb/postgrestest"
	"github.com/librarian/librarian/adapters/postgressectionindex"
	"github.com/librarian/librarian/ports/sectionindex"
	"github.com/librarian/librarian/ports/sectionindex/sectionindextest"
)

// TestReadOnlyRoleGrantsNamed: a read-only role granted too little fails
// to open with the grant it lacks and the GRANT statement to run, never
// with "the schema is missing": no USAGE on the schema, no SELECT on its
// tables, no SELECT on one of them; and once granted, it opens.
func TestReadOnlyRoleGrantsNamed(t *testing.T) {
	d, r := postgrestest.DSN(t), readerDSN(t)
	u, err := url.Parse(r)
	if err != nil {
		t.Fatal(err)
	}
	role := u.User.Username()
	schema := schemaFor(t.Name())
	ix := fresh(t, d)
	if err := ix.Apply(context.Background(), sectionindex.Update{Put: []sectionindex.Entry{
		sectionindextest.MarkdownEntry("guide.md", "Guide", nil, "# Guide\n\nRotate the keys.\n"),
	}}); err != nil {
		t.Fatal(err)
	}
	open := func() error {
		ro, err := postgressectionindex.Open(context.Background(), r, postgressectionindex.Options{Schema: schema, Logger: quiet})
		if err == nil {
			ro.Close()
		}
		return err
	}
	steps := []struct {
		name, grant string
		want        []string
	}{
		{"no grant at all", "",
			[]string{"role " + role + " may not use schema " + schema + " (it has no USAGE privilege on it, so none of its tables can be seen)",
				"GRANT USAGE ON SCHEMA " + schema + " TO " + role + "; GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + role + ";"}},
		{"USAGE only", "GRANT USAGE ON SCHEMA " + schema + " TO " + role,
			[]string{"role " + role + " may not read the tables docs, folders, library, links, meta, names, schema_versions, sections of schema " + schema + " (no SELECT privilege)",
				"GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + role + ";"}},
		{"SELECT on all tables but one", "GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + role + "; REVOKE SELECT ON " + schema + ".docs FROM " + role,
			[]string{"role " + role + " may not read the table docs of schema " + schema, "GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + role + ";"}},
	}
	for _, st := range steps {
		if st.grant != "" {
			exec(t, d, st.grant)
		}
		err := open()
		if !errors.Is(err, postgressectionindex.ErrNoPrivilege) {
			t.Fatalf("%s: Open = %v, want ErrNoPrivilege", st.name, err)
		}
		for _, w := range st.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q\ndoes not say %q", st.name, err, w)
			}
		}
		for _, wrong := range []string{"missing", "does not exist", "may not create"} {
			if strings.Contains(err.Error(), wrong) {
				t.Errorf("%s: error %q says %q, but the schema is there", st.name, err, wrong)
			}
		}
	}
	exec(t, d, "GRANT SELECT ON "+schema+".docs TO "+role)
	if err := open(); err != nil {
		t.Errorf("Open once granted: %v", err)
	}

	// A schema that does not exist is said to be missing, with who may create it.
	err = func() error {
		_, err := postgressectionindex.Open(context.Background(), r, postgressectionindex.Options{Schema: "t_never_created_here", Logger: quiet})
		return err
	}()
	if err == nil || !strings.Contains(err.Error(), "schema t_never_created_here does not exist and role "+role+" may not create it") {
		t.Errorf("Open of a missing schema: %v", err)
	}
}
