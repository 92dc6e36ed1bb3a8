package sqlitesectionindex

import (
	"context"
	"os"
	"testing"

	"github.com/librarian/librarian/ports/sectionindex"
)

// BenchmarkEntries streams every entry of a built index, whole (Entries)
// and as a server warms its parse cache after a restart (Parses: no names,
// no links). It reads
// LIBRARIAN_ENTRIES_BENCH_INDEX, an index file built by `librarian index`
// (say over gen_library.py's 10,000 docs), and never writes it.
//
//	LIBRARIAN_ENTRIES_BENCH_INDEX=/tmp/idx/lib10k-....sqlite \
//	  go test ./adapters/sqlitesectionindex -run '^$' -bench Entries -benchtime 5x -count 3
func BenchmarkEntries(b *testing.B) {
	file := os.Getenv("LIBRARIAN_ENTRIES_BENCH_INDEX")
	if file == "" {
		b.Skip("set LIBRARIAN_ENTRIES_BENCH_INDEX to an index file built by `librarian index`")
	}
	ctx := context.Background()
	ix, err := OpenFile(ctx, file, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	cat, err := ix.Catalog(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for _, pass := range []struct {
		name   string
		stream func(context.Context, func(sectionindex.Entry) error) error
	}{{"Entries", ix.Entries}, {"Parses", ix.Parses}} {
		b.Run(pass.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n, sections := 0, 0
				err := pass.stream(ctx, func(e sectionindex.Entry) error {
					n++
					sections += len(e.Structure.Sections)
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
				if n != len(cat.Docs) || sections == 0 {
					b.Fatalf("%s streamed %d docs (%d sections), the catalog holds %d", pass.name, n, sections, len(cat.Docs))
				}
			}
		})
	}
}
