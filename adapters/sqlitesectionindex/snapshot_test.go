package sqlitesectionindex

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/librarian/librarian/ports/sectionindex"
	"github.com/librarian/librarian/ports/sectionindex/sectionindextest"
)

func texts(t *testing.T, ix *Index) []sectionindex.Text {
	t.Helper()
	var out []sectionindex.Text
	if err := ix.Texts(context.Background(), func(tx sectionindex.Text) error { out = append(out, tx); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func openFile(t *testing.T, file string) *Index {
	t.Helper()
	ix, err := OpenFile(context.Background(), file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestTextSnapshot: Texts writes a snapshot, a restart reads its texts from
// it, and a snapshot of another state (a later Apply, another file, a cut
// file) is never read.
func TestTextSnapshot(t *testing.T) {
	file := filepath.Join(t.TempDir(), "lib.sqlite")
	ix := openFile(t, file)
	put := []sectionindex.Entry{
		sectionindextest.MarkdownEntry("a.md", "A", nil, "# A\n\nalpha\n"),
		sectionindextest.MarkdownEntry("b/c.md", "C", []string{"t"}, "# C\n\ngamma\n"),
	}
	if err := ix.Apply(context.Background(), sectionindex.Update{Put: put}); err != nil {
		t.Fatal(err)
	}
	want := texts(t, ix) // from the database: writes the snapshot
	ix.Close()
	if _, err := os.Stat(file + "-texts"); err != nil {
		t.Fatalf("no snapshot after Texts: %v", err)
	}

	// A restart reads the snapshot: one written with other bytes for the
	// same state is what Texts answers.
	ix = openFile(t, file)
	defer ix.Close()
	instance, gen, err := ix.state(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(t, ix); !reflect.DeepEqual(got, want) {
		t.Fatalf("texts after a restart:\n got %+v\nwant %+v", got, want)
	}
	marked := append([]sectionindex.Text(nil), want...)
	marked[0].Content = []byte("from the snapshot\n")
	if err := writeSnapshot(file+"-texts", instance, gen, marked); err != nil {
		t.Fatal(err)
	}
	if got := texts(t, ix); string(got[0].Content) != "from the snapshot\n" {
		t.Fatalf("Texts did not read the current snapshot: %q", got[0].Content)
	}

	// Another state's snapshot is not read.
	for name, snap := range map[string]func() error{
		"another file":   func() error { return writeSnapshot(file+"-texts", "other", gen, marked) },
		"an older state": func() error { return writeSnapshot(file+"-texts", instance, gen-1, marked) },
		"a cut file": func() error {
			if err := writeSnapshot(file+"-texts", instance, gen, marked); err != nil {
				return err
			}
			raw, _ := os.ReadFile(file + "-texts")
			return os.WriteFile(file+"-texts", raw[:len(raw)-3], 0o644)
		},
	} {
		if err := snap(); err != nil {
			t.Fatal(err)
		}
		if got := texts(t, ix); !reflect.DeepEqual(got, want) {
			t.Errorf("with %s's snapshot Texts = %+v, want the database's", name, got)
		}
	}
	// An Apply changes the state: the snapshot written before is stale.
	if err := writeSnapshot(file+"-texts", instance, gen, marked); err != nil {
		t.Fatal(err)
	}
	more := sectionindextest.MarkdownEntry("d.md", "D", nil, "delta\n")
	if err := ix.Apply(context.Background(), sectionindex.Update{Put: []sectionindex.Entry{more}}); err != nil {
		t.Fatal(err)
	}
	got := texts(t, ix)
	if len(got) != 3 || string(got[0].Content) == "from the snapshot\n" {
		t.Errorf("after an Apply Texts = %+v, want the database's three docs", got)
	}
}

// The texts a file index serves are slices of its mapped snapshot, also
// right after a build (the snapshot is written first, then mapped), and an
// evicted text reads the same bytes again.
func TestTextsAreMappedAndEvictable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "lib.sqlite")
	ix := openFile(t, file)
	defer ix.Close()
	var put []sectionindex.Entry
	for i := range 50 {
		body := strings.Repeat(fmt.Sprintf("line %d of doc %d\n", i, i), 300) // several pages each
		put = append(put, sectionindextest.MarkdownEntry(fmt.Sprintf("d%02d.md", i), "D", nil, "# D\n\n"+body))
	}
	if err := ix.Apply(context.Background(), sectionindex.Update{Put: put}); err != nil {
		t.Fatal(err)
	}
	got := texts(t, ix)
	all := ix.mappings.Load()
	if all == nil || len(*all) != 1 {
		t.Fatalf("after Texts: %v mappings; want the snapshot's one", all)
	}
	m := (*all)[0]
	base := uintptr(unsafe.Pointer(unsafe.SliceData(m)))
	var want []string
	for _, tx := range got {
		p := uintptr(unsafe.Pointer(unsafe.SliceData(tx.Content)))
		if p < base || p+uintptr(len(tx.Content)) > base+uintptr(len(m)) {
			t.Fatalf("%s: its text is not a slice of the mapped snapshot", tx.Path)
		}
		want = append(want, string(tx.Content))
	}
	for _, tx := range got {
		ix.Evict(tx.Content, []byte("not of the mapping")) // the second left alone
	}
	for i, tx := range got {
		if string(tx.Content) != want[i] {
			t.Fatalf("%s: an evicted text reads other bytes", tx.Path)
		}
		if !strings.Contains(want[i], fmt.Sprintf("of doc %d\n", i)) {
			t.Fatalf("%s: text %q…", tx.Path, want[i][:40])
		}
	}
}
