package library_test

import (
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
