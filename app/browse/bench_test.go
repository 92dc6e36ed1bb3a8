package browse_test

import (
	"context"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/fileimages"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/library/librarytest"
	"github.com/librarian/librarian/domain"
)

// Benchmarks over a generated json library of 10,000 docs (GenLibrary).
// "cold" builds a new Library (index source, parser, image store) every
// iteration, so nothing is cached but the operating system's file cache;
// "warm" reuses one whose cache holds every doc the call touches.
//
//	go test ./app/browse -run='^$' -bench='GetDocuments|ListDocuments|UnchangedCall' -benchmem

const benchDocs = 10000

// benchLibrary opens the generated library with the real adapters.
func benchLibrary(b *testing.B, root string) *library.Library {
	b.Helper()
	return jsonLibrary(b, root)
}

// mixedSelectors is the 50-selector call of the benchmarks: 20 whole docs
// (ids and paths), 15 section selectors, 10 line ranges and 5 roots of 10
// docs each, spread over the library, some with their own settings.
func mixedSelectors(l librarytest.GenLayout) []domain.Selector {
	var sels []domain.Selector
	yes, no := true, false
	for k := 0; k < 20; k++ {
		i := (k*487 + 13) % len(l.IDs)
		s := domain.Selector{Doc: l.IDs[i]}
		if k%4 == 1 {
			s.Doc = l.Paths[i]
		}
		if k%5 == 2 {
			s.IncludeImages = &yes
		}
		sels = append(sels, s)
	}
	for k := 0; k < 15; k++ {
		i := (k*659 + 101) % len(l.IDs)
		s := domain.Selector{Doc: l.IDs[i], Sections: []string{l.Sections[k%len(l.Sections)]}}
		if k%3 == 0 {
			s.Sections = append(s.Sections, "limits") // a unique leaf
		}
		if k%4 == 3 {
			s.IncludeCode = &no
		}
		sels = append(sels, s)
	}
	for k := 0; k < 10; k++ {
		i := (k*733 + 57) % len(l.IDs)
		from := 1 + (k*7)%(l.Lines-10)
		sels = append(sels, domain.Selector{Doc: l.IDs[i], Lines: &domain.LineRange{From: from, To: from + 12}})
	}
	for k := 0; k < 5; k++ {
		sels = append(sels, domain.Selector{Root: l.Folders[(k*211+7)%len(l.Folders)], IsRoot: true})
	}
	return sels
}

func BenchmarkGetDocuments(b *testing.B) {
	layout := librarytest.GenLibrary(b, b.TempDir(), benchDocs)
	req := browse.GetRequest{Select: mixedSelectors(layout), IncludeCode: true, MaxTokens: intPtr(0)}
	ctx := context.Background()
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			lib := benchLibrary(b, layout.Root)
			if _, err := browse.New(lib).GetDocuments(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		lib := benchLibrary(b, layout.Root)
		ans, err := browse.New(lib).GetDocuments(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := browse.New(lib).GetDocuments(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(ans.String())), "answer-bytes")
	})
}

func BenchmarkListDocuments(b *testing.B) {
	layout := librarytest.GenLibrary(b, b.TempDir(), benchDocs)
	ctx := context.Background()
	noLimit := 0
	for _, tc := range []struct {
		name string
		req  browse.ListRequest
	}{
		// The whole listing: every doc read and parsed.
		{"max_tokens=0", browse.ListRequest{Scope: domain.Scope{Root: ".", Depth: -1}, MaxTokens: &noLimit}},
		// The default budget: only the docs shown are read and parsed.
		{"default-budget", browse.ListRequest{Scope: domain.Scope{Root: ".", Depth: -1}}},
	} {
		b.Run(tc.name+"/cold", func(b *testing.B) {
			for b.Loop() {
				lib := benchLibrary(b, layout.Root)
				if _, err := browse.New(lib).ListDocuments(ctx, tc.req); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/warm", func(b *testing.B) {
			lib := benchLibrary(b, layout.Root)
			if _, err := browse.New(lib).ListDocuments(ctx, tc.req); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := browse.New(lib).ListDocuments(ctx, tc.req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkUnchangedCall is the fixed cost of a call on a warm 10,000-doc
// library when nothing changed: one small doc, so the time is the index
// check and the stat of the doc, not rendering.
func BenchmarkUnchangedCall(b *testing.B) {
	layout := librarytest.GenLibrary(b, b.TempDir(), benchDocs)
	ctx := context.Background()
	lib := benchLibrary(b, layout.Root)
	req := browse.GetRequest{Select: []domain.Selector{{Doc: layout.IDs[4242], Sections: []string{"overview"}}}, IncludeCode: true}
	if _, err := browse.New(lib).GetDocuments(ctx, req); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := browse.New(lib).GetDocuments(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMixedSelectorsResolve checks the benchmark's call on a smaller
// generated library: every selector resolves, nothing is noted or cut.
func TestMixedSelectorsResolve(t *testing.T) {
	layout := librarytest.GenLibrary(t, t.TempDir(), 1000)
	src, err := jsonindex.New(layout.Root, "index.json")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	images, err := fileimages.New(layout.Root, "images/index.json")
	if err != nil {
		t.Fatal(err)
	}
	defer images.Close()
	lib := library.New(src, goldmarkmarkdown.New(), images, library.DefaultConfig())
	sels := mixedSelectors(layout)
	if len(sels) != 50 {
		t.Fatalf("got %d selectors, want 50", len(sels))
	}
	ans, err := browse.New(lib).GetDocuments(context.Background(), browse.GetRequest{Select: sels, IncludeCode: true, MaxTokens: intPtr(0)})
	if err != nil {
		t.Fatal(err)
	}
	text := ans.String()
	if strings.Contains(text, "\nNotes:\n") || strings.Contains(text, "\nLeft out") {
		t.Errorf("the benchmark's selectors do not all resolve:\n%s", tail(text, 2000))
	}
	if got := strings.Count(text, "\n=== "); got < 90 {
		t.Errorf("got %d chunks, want about 100", got+1)
	}
	if countImages(ans) == 0 {
		t.Error("no image sent: the include_images selectors found none")
	}
}
