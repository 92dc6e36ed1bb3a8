package sqlitesectionindex_test

import (
	"path/filepath"
	"testing"

	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/ports/sectionindex"
	"github.com/librarian/librarian/ports/sectionindex/sectionindextest"
)

func TestContractFile(t *testing.T) {
	dir := t.TempDir()
	sectionindextest.Run(t, sectionindextest.Opener{
		Open: func(t *testing.T, name string) sectionindex.Index {
			ix, err := sqlitesectionindex.OpenFile(t.Context(), filepath.Join(dir, name+".sqlite"), sqlitesectionindex.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return ix
		},
		Persistent: true,
	})
}

func TestContractMemory(t *testing.T) {
	sectionindextest.Run(t, sectionindextest.Opener{
		Open: func(t *testing.T, name string) sectionindex.Index {
			ix, err := sqlitesectionindex.OpenMemory()
			if err != nil {
				t.Fatal(err)
			}
			return ix
		},
	})
}
