//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHardLinkedDocIsRefused: a doc that is a hard link to a file outside
// the library is the same file under another name, which no path check can
// see; the server refuses it unless LIBRARY_ALLOW_HARDLINKS=1.
func TestHardLinkedDocIsRefused(t *testing.T) {
	lib := t.TempDir()
	if err := os.WriteFile(filepath.Join(lib, "ok.md"), []byte("# OK\n\nfine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("# Secret\n\nthe password is swordfish\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, filepath.Join(lib, "secret.md")); err != nil {
		t.Skipf("cannot make hard links here: %v", err)
	}
	env := []string{"LIBRARY_ROOT=" + lib, "LIBRARY_CONVENTION=frontmatter"}

	cs := connect(t, "", env...)
	got, isErr := callText(t, cs, "get_documents", map[string]any{"select": []any{"secret.md"}})
	if strings.Contains(got, "swordfish") {
		t.Errorf("the hard-linked file was served: %q", got)
	}
	if list, _ := callText(t, cs, "list_documents", map[string]any{}); !strings.Contains(list, "2 hard links") || strings.Contains(list, "- secret") {
		t.Errorf("list_documents should leave secret.md out with a note, got %q (get_documents: %q, isError %v)", list, got, isErr)
	}

	allowed := connect(t, "", append(env, "LIBRARY_ALLOW_HARDLINKS=1")...)
	if got, isErr := callText(t, allowed, "get_documents", map[string]any{"select": []any{"secret.md"}}); isErr || !strings.Contains(got, "swordfish") {
		t.Errorf("with LIBRARY_ALLOW_HARDLINKS=1: %q (isError %v), want the file", got, isErr)
	}
}
