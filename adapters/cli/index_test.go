package cli

import (
	"bytes"
	"context"
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
		code := runIndex(context.Background(), lib, nil, &out, &errOut)
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
	var errOut2 bytes.Buffer
	if code := runIndex(context.Background(), lib, []string{"extra"}, &bytes.Buffer{}, &errOut2); code != 2 {
		t.Errorf("index with an argument: exit %d (%s), want 2", code, errOut2.String())
	}
}
