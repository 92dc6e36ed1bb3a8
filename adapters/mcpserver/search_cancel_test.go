package mcpserver_test

import (
	"context"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/domain"
)

// searchesRunning counts the goroutines inside a search_documents call.
func searchesRunning() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), "search.(*Searcher).SearchDocuments(")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// TestSearchStopsWhenTheSessionEnds (issue 14.3): a search read before
// stdin closes used to run to its end, minutes on a big doc with a costly
// regex, after the session was gone. Now the session's end cancels it and
// the scan stops inside the doc.
func TestSearchStopsWhenTheSessionEnds(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 1))
	var b strings.Builder
	b.WriteString("# Z\n\n")
	for b.Len() < 8<<20 {
		for range 12 {
			for n := 2 + rng.IntN(8); n > 0; n-- {
				b.WriteByte(byte('a' + rng.IntN(26)))
			}
			b.WriteByte(' ')
		}
		b.WriteString("\n\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "z.md"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := frontmatterindex.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	cfg := library.DefaultConfig()
	cfg.SearchTimeout = time.Hour // only the session's end may stop it
	lib := library.New(src, goldmarkmarkdown.New(), nil, cfg)
	// Parse and cache z.md first, so the test times the scan, not goldmark.
	if _, err := search.New(lib).SearchDocuments(context.Background(), search.SearchRequest{Query: "zzzzz", Scope: domain.Scope{Depth: -1}}); err != nil {
		t.Fatal(err)
	}
	srv := mcpserver.NewServer(mcpserver.Options{Name: "librarian", Version: "test"})
	mcpserver.AddLibraryTools(srv, browse.New(lib), search.New(lib), nil, mcpserver.Ceilings{})

	// ~8 µs a byte for RE2, no literal to prefilter with: over a minute on
	// 8 MB, whatever the machine.
	in, w := io.Pipe()
	var out closeBuffer
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(context.Background(), &mcpserver.StdioTransport{In: in, Out: &out, DrainTimeout: 200 * time.Millisecond})
	}()
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_documents","arguments":{"query":"[a-y](?:\\w|\\s){0,200}[^\\w\\s]","mode":"regex"}}}`,
	} {
		if _, err := io.WriteString(w, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for searchesRunning() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the search never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	w.Close() // the client goes away with its search in flight
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not end after its input ended")
	}
	// The search is cancelled with the session and stops within a check of
	// its scan; a search that ran on would still be here.
	deadline = time.Now().Add(20 * time.Second)
	for searchesRunning() > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the search still runs 20 s after its session ended")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
