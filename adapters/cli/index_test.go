package cli

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/sqlitesectionindex"
)

func TestIndexCommandBuildsThenRefreshes(t *testing.T) {
	lib := getCLILibrary(t)
	file := filepath.Join(t.TempDir(), "lib.sqlite")
	ix, err := sqlitesectionindex.OpenFile(context.Background(), file, sqlitesectionindex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	lib.UseIndex(ix, nil)
	run := func() (int, string, string) {
		var out, errOut bytes.Buffer
		code := runIndex(context.Background(), lib, nil, nil, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	code, out, errOut := run()
	if code != 0 || !strings.HasPrefix(out, "indexed ") || !strings.Contains(out, file) || errOut != "" {
		t.Fatalf("first index: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	st, _ := ix.Status(context.Background())
	if st.Docs == 0 {
		t.Fatalf("nothing indexed: %+v", st)
	}
	// Not a terminal: no progress line, and a second run parses nothing new.
	if code, out, _ := run(); code != 0 || !strings.Contains(out, ": 0 parsed, 0 removed") {
		t.Errorf("second index: exit %d, %q; want nothing parsed", code, out)
	}
	var rankedOut, rankedErr bytes.Buffer
	if code := RunSearch(context.Background(), lib, []string{"--ranked", "refresh tokens"}, &rankedOut, &rankedErr); code != 0 ||
		!strings.Contains(rankedOut.String(), ", ranked, best first") || !strings.Contains(rankedOut.String(), "\n§ refresh-tokens L") {
		t.Errorf("search --ranked: exit %d\n%s%s", code, rankedOut.String(), rankedErr.String())
	}
	var errOut2 bytes.Buffer
	if code := runIndex(context.Background(), lib, nil, []string{"extra"}, &bytes.Buffer{}, &errOut2); code != 2 {
		t.Errorf("index with an argument: exit %d (%s), want 2", code, errOut2.String())
	}
}

func TestIndexTo(t *testing.T) {
	for _, args := range [][]string{
		{"index", "--to", "postgres://u:pw@db/docs"},
		{"index", "--to=postgres://u:pw@db/docs"},
		{"--index", "on", "index", "--to", "postgres://u:pw@db/docs"},
	} {
		inv, err := Parse(args, func(string) string { return "" }, io.Discard)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if inv.Settings.Index != "postgres://u:pw@db/docs" || !inv.Settings.PostgresIndex() || len(inv.Args) != 0 {
			t.Errorf("%q: index %q, args %q", args, inv.Settings.Index, inv.Args)
		}
	}
	if _, err := Parse([]string{"index", "--to"}, func(string) string { return "" }, io.Discard); err == nil {
		t.Error("index --to without a value was accepted")
	}
}
