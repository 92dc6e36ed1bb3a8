package browse_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/app/library"
)

// conventions are the two index conventions every library test runs under.
var conventions = []string{"json", "frontmatter"}

// searchLibRoot is the search tests' library, in both conventions.
const searchLibRoot = "../testdata/search/lib"

// openSearchLibrary opens root with the real adapters of a convention.
func openSearchLibrary(t testing.TB, convention, root string) *library.Library {
	t.Helper()
	switch convention {
	case "json":
		src, err := jsonindex.New(root, "index.json")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { src.Close() })
		return library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
	case "frontmatter":
		src, err := frontmatterindex.New(root)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { src.Close() })
		return library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
	}
	t.Fatalf("unknown convention %q", convention)
	return nil
}

// writeFile writes text to p, making its folders.
func writeFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// checkSearchGolden compares got with the golden file of a search or tags
// answer, which ends with a line break the answer does not have; -update
// rewrites it.
func checkSearchGolden(t *testing.T, file, got string) {
	t.Helper()
	if updating() {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./app/browse -run %s -update to create it)", err, t.Name())
	}
	if got+"\n" != string(want) {
		t.Errorf("%s: got\n%s\nwant\n%s", file, got, want)
	}
}
