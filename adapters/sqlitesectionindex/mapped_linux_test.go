package sqlitesectionindex

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/librarian/librarian/ports/sectionindex"
	"github.com/librarian/librarian/ports/sectionindex/sectionindextest"
)

// residentKB is the process's resident memory of the mapping that starts
// at addr, from /proc/self/smaps.
func residentKB(t *testing.T, addr uintptr) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		if start, _, ok := strings.Cut(line, "-"); ok && !strings.Contains(start, " ") {
			if a, err := strconv.ParseUint(start, 16, 64); err == nil {
				in = uintptr(a) == addr
				continue
			}
		}
		if in && strings.HasPrefix(line, "Rss:") {
			n, _ := strconv.Atoi(strings.Fields(line)[1])
			return n
		}
	}
	t.Fatalf("no mapping at %#x in /proc/self/smaps", addr)
	return 0
}

// Matched texts leave the process's memory: a scan of every text holds
// only what it reads, however big the library.
func TestEvictedTextsLeaveMemory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "lib.sqlite")
	ix := openFile(t, file)
	defer ix.Close()
	var put []sectionindex.Entry
	for i := range 2000 {
		body := strings.Repeat(fmt.Sprintf("line of doc %d, long enough to fill pages\n", i), 200)
		put = append(put, sectionindextest.MarkdownEntry(fmt.Sprintf("d%04d.md", i), "D", nil, "# D\n\n"+body))
	}
	if err := ix.Apply(context.Background(), sectionindex.Update{Put: put}); err != nil {
		t.Fatal(err)
	}
	got := texts(t, ix)
	m := (*ix.mappings.Load())[0]
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(m)))
	sum := 0
	for _, tx := range got {
		for _, b := range tx.Content {
			sum += int(b)
		}
	}
	if sum == 0 {
		t.Fatal("no bytes read")
	}
	touched := residentKB(t, addr)
	if touched < len(m)/1024/2 {
		t.Fatalf("after reading every text, %d KB of the %d KB mapping resident; want most of it", touched, len(m)/1024)
	}
	// As a scan does: a group at a time, each group's first page faulted
	// in again (shared with the group before) before that one is evicted.
	for i := 0; i < len(got); i += 256 {
		var group [][]byte
		for _, tx := range got[i:min(i+256, len(got))] {
			sum += int(tx.Content[0])
			group = append(group, tx.Content)
		}
		ix.Evict(group...)
	}
	if left := residentKB(t, addr); left > touched/4 {
		t.Errorf("after evicting every text, %d KB resident (%d before); want almost none", left, touched)
	}
	if sum == 0 {
		t.Fatal("no bytes read")
	}
}
