package frontmatterindex

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/ports/docindex"
	"github.com/librarian/librarian/ports/docindex/docindextest"
)

// TestContract runs the docindex contract suite with the corpus written as
// frontmatter files, without any index.md, so each doc's tags are exactly
// its own.
func TestContract(t *testing.T) {
	docindextest.Run(t, docindextest.Convention{
		Write: writeFrontmatterLibrary,
		Open: func(t *testing.T, dir string) docindex.Source {
			ix, err := New(dir)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ix.Close() })
			return ix
		},
	})
}

// writeFrontmatterLibrary writes each doc as frontmatter plus body, editing
// files in place (as an editor that does not rename would), and removes the
// *.md files of docs no longer listed.
func writeFrontmatterLibrary(t *testing.T, dir string, docs []docindextest.Doc) {
	t.Helper()
	keep := map[string]bool{}
	for _, d := range docs {
		keep[d.Path] = true
		p := filepath.Join(dir, filepath.FromSlash(d.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(encodeDoc(t, d)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if !keep[filepath.ToSlash(rel)] {
			return os.Remove(p)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
}

// encodeDoc writes the frontmatter fields in YAML flow style; a JSON string
// is a valid YAML double-quoted scalar, whatever the text holds.
func encodeDoc(t *testing.T, d docindextest.Doc) string {
	t.Helper()
	quote := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var b strings.Builder
	b.WriteString("---\n")
	if d.Title != "" {
		b.WriteString("title: " + quote(d.Title) + "\n")
	}
	if d.Summary != "" {
		b.WriteString("summary: " + quote(d.Summary) + "\n")
	}
	if len(d.Tags) > 0 {
		b.WriteString("tags: " + quote(d.Tags) + "\n")
	}
	if d.Tokens != 0 {
		b.WriteString("tokens: " + quote(d.Tokens) + "\n")
	}
	b.WriteString("---\n")
	b.WriteString(d.Body)
	return b.String()
}
