package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/app/localindex"
)

// TestIndexListAndPrune: `index --list` names each local index file's
// library root, size and last use, and which roots are gone; `--prune`
// removes those and says so (`--dry-run` only says so), `--older-than`
// also those unused for longer; --json gives the same as data; misuse is
// refused.
func TestIndexListAndPrune(t *testing.T) {
	ctx := context.Background()
	dir, libs := t.TempDir(), t.TempDir()
	root := func(name string) string {
		p := filepath.Join(libs, name)
		os.MkdirAll(p, 0o755)
		ix, err := sqlitesectionindex.Open(ctx, p, dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		ix.Close()
		real, _ := filepath.EvalSymlinks(p)
		return real
	}
	handbook, old, gone := root("handbook"), root("old"), root("gone")
	os.RemoveAll(gone)
	store, err := sqlitesectionindex.NewFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The clock runs 40 days ahead, except for the handbook's last use:
	// the others look unused for 40 days.
	later := time.Now().Add(40*24*time.Hour + time.Minute)
	handbookFile, _ := sqlitesectionindex.FileFor(dir, handbook)
	for _, f := range []string{handbookFile} {
		if err := os.Chtimes(f, later, later); err != nil {
			t.Fatal(err)
		}
	}
	files := localindex.New(store, func() time.Time { return later })
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := runIndex(ctx, nil, files, args, &out, &errOut)
		return code, out.String(), errOut.String()
	}

	code, out, errOut := run("--list")
	if code != 0 || errOut != "" || !strings.HasPrefix(out, "3 index files in "+dir+", ") {
		t.Fatalf("--list: exit %d, stderr %q\n%s", code, errOut, out)
	}
	for _, want := range []string{" · used less than a minute ago · " + handbook + "\n", " · used 40 days ago · " + old + "\n",
		" · used 40 days ago · " + gone + " (gone)\n", "1 of them belong to library roots that are gone: librarian index --prune removes them.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("--list lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = run("--list", "--json")
	var list indexListJSON
	if err := json.Unmarshal([]byte(out), &list); err != nil || code != 0 || list.Dir != dir || len(list.Files) != 3 {
		t.Fatalf("--list --json: exit %d, %v\n%s", code, err, out)
	}
	for _, f := range list.Files {
		if f.Root == gone && f.RootExists || f.Root == handbook && !f.RootExists || f.Bytes == 0 || len(f.Files) == 0 {
			t.Errorf("--list --json: %+v", f)
		}
	}

	code, out, _ = run("--prune", "--dry-run")
	if code != 0 || !strings.Contains(out, "Would remove (dry run) 1 index file from "+dir) || !strings.Contains(out, " · "+gone+": root gone\n") {
		t.Errorf("--prune --dry-run: exit %d\n%s", code, out)
	}
	if _, out, _ := run("--list"); !strings.HasPrefix(out, "3 index files") {
		t.Errorf("a dry run removed something:\n%s", out)
	}
	code, out, _ = run("--prune")
	if code != 0 || !strings.Contains(out, "Removed 1 index file from "+dir) || !strings.Contains(out, gone+": root gone") || !strings.HasSuffix(out, "Kept 2.\n") {
		t.Errorf("--prune: exit %d\n%s", code, out)
	}
	code, out, _ = run("--prune", "--older-than", "30d", "--json")
	var pruned indexPruneJSON
	if err := json.Unmarshal([]byte(out), &pruned); err != nil || code != 0 || len(pruned.Removed) != 1 || pruned.Removed[0].Root != old ||
		pruned.Removed[0].Why != "unused for 40 days" || len(pruned.Kept) != 1 || pruned.Kept[0].Root != handbook {
		t.Errorf("--prune --older-than 30d --json: exit %d, %v\n%s", code, err, out)
	}
	if _, out, _ := run("--prune"); out != "Nothing to remove in "+dir+": 1 index file kept.\n" {
		t.Errorf("--prune with nothing to remove: %q", out)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--list", "--prune"}, "index: --list and --prune: give one"},
		{[]string{"--list", "--dry-run"}, "index: --older-than and --dry-run go with --prune"},
		{[]string{"--prune", "--older-than", "soon"}, `index: --older-than: want an age such as 30d or 36h, got "soon"`},
		{[]string{"--older-than", "30d"}, "index: --older-than goes with --list or --prune"},
		{[]string{"--json"}, "index: --json goes with --list or --prune"},
	} {
		if code, _, errOut := run(tc.args...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("index %q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}
