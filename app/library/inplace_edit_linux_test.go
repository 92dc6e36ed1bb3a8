//go:build linux

package library_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/domain"
)

// TestInPlaceEditKeepingTimesIsSeen: a doc rewritten in place with the
// same size, its modification and access times then put back (as touch -r,
// cp -p and rsync --inplace -t do), keeps its size, modification time and
// inode; only the inode change time, which user space cannot set, tells.
// The next get, list and search, with the real adapters of each
// convention, must show the new text, not the parse cached before. (Linux
// only: elsewhere the stamps carry no change time. The file's times are
// read here with stat(2) itself, not through the adapters under test.)
func TestInPlaceEditKeepingTimesIsSeen(t *testing.T) {
	const (
		before = "# Alpha\n\nold words here\n"
		after  = "# Omega\n\nnew words here\n"
	)
	if len(before) != len(after) {
		t.Fatalf("the test needs texts of one size: %d and %d bytes", len(before), len(after))
	}
	for _, convention := range conventions {
		t.Run(convention, func(t *testing.T) {
			dir := t.TempDir()
			doc := filepath.Join(dir, "a.md")
			old := time.Now().Add(-time.Hour) // far outside the racy window
			write := func(p, text string) {
				t.Helper()
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(p, old, old); err != nil {
					t.Fatal(err)
				}
			}
			write(doc, before)
			if convention == "json" {
				write(filepath.Join(dir, "index.json"), `{"documents": [{"id": "a", "path": "a.md", "title": "A", "summary": "The doc."}]}`)
			}
			lib := openSearchLibrary(t, convention, dir)
			ctx := context.Background()
			sels, err := domain.ParseSelectors([]json.RawMessage{json.RawMessage(`"a"`)})
			if err != nil {
				t.Fatal(err)
			}
			views := func() map[string]string {
				t.Helper()
				got, err := browse.New(lib).GetDocuments(ctx, browse.GetRequest{Select: sels, IncludeCode: true})
				if err != nil {
					t.Fatalf("get: %v", err)
				}
				list, err := browse.New(lib).ListDocuments(ctx, browse.ListRequest{Scope: domain.Scope{Depth: -1}})
				if err != nil {
					t.Fatalf("list: %v", err)
				}
				found, err := search.New(lib).SearchDocuments(ctx, search.SearchRequest{Query: "words", Scope: domain.Scope{Depth: -1}})
				if err != nil {
					t.Fatalf("search: %v", err)
				}
				return map[string]string{"get": got.String(), "list": list, "search": found}
			}
			// What each view shows of the doc: list its outline, get and
			// search its text.
			marks := map[string][2]string{
				"get":    {"old words here", "new words here"},
				"list":   {"Alpha", "Omega"},
				"search": {"old words here", "new words here"},
			}
			for name, text := range views() {
				if !strings.Contains(text, marks[name][0]) {
					t.Fatalf("%s before the edit: got\n%s\nwant it to show %q", name, text, marks[name][0])
				}
			}

			was := statFile(t, doc)
			write(doc, after)
			// The change time comes from the kernel's clock: on a kernel
			// whose timestamps are coarse, the rewrite may fall in the tick
			// of the first write; touching the times again moves it on.
			now := statFile(t, doc)
			for deadline := time.Now().Add(2 * time.Second); now.Ctim == was.Ctim && time.Now().Before(deadline); now = statFile(t, doc) {
				time.Sleep(10 * time.Millisecond)
				if err := os.Chtimes(doc, old, old); err != nil {
					t.Fatal(err)
				}
			}
			if now.Size != was.Size || now.Mtim != was.Mtim || now.Ino != was.Ino || now.Ctim == was.Ctim {
				t.Fatalf("the test needs the same size, modification time and inode and a new change time: got size %d mtime %v inode %d ctime %v, was %d %v %d %v",
					now.Size, now.Mtim, now.Ino, now.Ctim, was.Size, was.Mtim, was.Ino, was.Ctim)
			}

			for name, text := range views() {
				if oldText, newText := marks[name][0], marks[name][1]; !strings.Contains(text, newText) || strings.Contains(text, oldText) {
					t.Errorf("%s after the in-place edit: got\n%s\nwant %q, not %q", name, text, newText, oldText)
				}
			}
		})
	}
}

// statFile is stat(2) of the file at p.
func statFile(t *testing.T, p string) syscall.Stat_t {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Stat(p, &st); err != nil {
		t.Fatal(err)
	}
	return st
}
