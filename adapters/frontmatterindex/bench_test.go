package frontmatterindex

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// generateLibrary writes a library of docs documents spread over
// sections×subsections folders, each folder with an index.md carrying tags,
// every doc with frontmatter (title, summary, tags) and a ~2 KB body. Every
// file is aged by an hour, as in a library nobody is editing right now.
func generateLibrary(tb testing.TB, dir string, sections, subsections, docs int) {
	tb.Helper()
	old := time.Now().Add(-time.Hour)
	write := func(rel, content string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			tb.Fatal(err)
		}
	}
	body := strings.Repeat("Some prose about the topic, with `code` and a [link](https://example.com).\n", 25)
	write("index.md", "---\ntitle: Library\ntags: [library]\n---\n# Library\n")
	folders := make([]string, 0, sections*subsections)
	for s := range sections {
		sec := fmt.Sprintf("section-%02d", s)
		write(sec+"/index.md", fmt.Sprintf("---\ntitle: Section %d\nsummary: Everything about section %d.\ntags: [%s, shared]\n---\n", s, s, sec))
		for u := range subsections {
			f := fmt.Sprintf("%s/topic-%02d", sec, u)
			write(f+"/index.md", fmt.Sprintf("---\ntags: [topic-%02d, shared]\n---\n# Topic %d\n", u, u))
			folders = append(folders, f)
		}
	}
	for i := range docs {
		f := folders[i%len(folders)]
		write(fmt.Sprintf("%s/doc-%05d.md", f, i), fmt.Sprintf(
			"---\ntitle: Document %d\nsummary: What document %d explains, in one line.\ntags: [tag-%d, tag-%d, kind-%d]\nsource: \"https://example.com/%d\"\n---\n\n# Document %d\n\n%s",
			i, i, i%97, i%31, i%7, i, i, body))
	}
}

const (
	benchSections, benchSubsections, benchDocs = 5, 10, 10000
)

// BenchmarkCatalogCold: a new Index's first Catalog over 10,000 docs in 50
// folders with index.md files (the OS page cache is warm after the first
// round; the Index's own cache is always empty).
func BenchmarkCatalogCold(b *testing.B) {
	dir := b.TempDir()
	generateLibrary(b, dir, benchSections, benchSubsections, benchDocs)
	ctx := context.Background()
	defer reportCPU(b)()
	for b.Loop() {
		ix, err := New(dir)
		if err != nil {
			b.Fatal(err)
		}
		cat, err := ix.Catalog(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if n := len(cat.Docs); n != benchDocs+1+benchSections*(1+benchSubsections) {
			b.Fatalf("catalog has %d docs", n)
		}
		ix.Close()
	}
}

// BenchmarkCatalogWarm: Catalog again with nothing changed: a walk and a
// stamp check per file, no file read.
func BenchmarkCatalogWarm(b *testing.B) {
	dir := b.TempDir()
	generateLibrary(b, dir, benchSections, benchSubsections, benchDocs)
	ctx := context.Background()
	ix, err := New(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Catalog(ctx); err != nil {
		b.Fatal(err)
	}
	ix.metaReads.Store(0)
	defer reportCPU(b)()
	for b.Loop() {
		if _, err := ix.Catalog(ctx); err != nil {
			b.Fatal(err)
		}
	}
	if n := ix.metaReads.Load(); n != 0 {
		b.Fatalf("warm Catalog read %d files, want 0", n)
	}
}

// BenchmarkCatalogAfterEdit: Catalog after one doc was edited (a new
// size each time). While watching, only that doc's folder is listed and
// that doc read, but the catalog is built again.
func BenchmarkCatalogAfterEdit(b *testing.B) {
	dir := b.TempDir()
	generateLibrary(b, dir, benchSections, benchSubsections, benchDocs)
	ctx := context.Background()
	ix, err := New(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Catalog(ctx); err != nil {
		b.Fatal(err)
	}
	const editedPath = "section-00/topic-00/doc-00000.md"
	edited := filepath.Join(dir, filepath.FromSlash(editedPath))
	ix.metaReads.Store(0)
	defer reportCPU(b)()
	n := 0
	for b.Loop() {
		n++
		if err := os.WriteFile(edited, []byte(fmt.Sprintf("---\ntitle: Edit %d\n---\n%s", n, strings.Repeat("x", n%100))), 0o644); err != nil {
			b.Fatal(err)
		}
		cat, err := ix.Catalog(ctx)
		if err != nil {
			b.Fatal(err)
		}
		i := sort.Search(len(cat.Docs), func(i int) bool { return cat.Docs[i].Path >= editedPath })
		if got, want := cat.Docs[i].Title, fmt.Sprintf("Edit %d", n); got != want {
			b.Fatalf("title after the edit = %q, want %q", got, want)
		}
	}
}

// reportCPU adds the process's CPU time per op to a benchmark's report
// (cpu-ns/op, all goroutines and the GC included), as the wall clock of a
// shared 2-core machine says little. Call it after the set-up: b.Loop
// resets the timer on its first call but not the CPU clock.
func reportCPU(b *testing.B) func() {
	start, ok := processCPUTime()
	return func() {
		end, _ := processCPUTime()
		if ok && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

// BenchmarkParseMeta: one typical doc's frontmatter and first heading, the
// CPU part of a cold Catalog's per-file cost.
func BenchmarkParseMeta(b *testing.B) {
	src := []byte("---\ntitle: Document 1\nsummary: What document 1 explains, in one line.\ntags: [tag-1, tag-2, kind-3]\nsource: \"https://example.com/1\"\n---\n\n# Document 1\n\n" +
		strings.Repeat("Some prose about the topic, with `code` and a [link](https://example.com).\n", 25))
	for b.Loop() {
		if m := parseMeta(src); m.title != "Document 1" || len(m.tags) != 3 {
			b.Fatalf("parseMeta = %+v", m)
		}
	}
}
