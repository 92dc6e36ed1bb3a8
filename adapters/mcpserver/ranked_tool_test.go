package mcpserver_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/search"
)

// TestRankedSearchReportsTheFirstBuild: a ranked search_documents call on
// a library whose index was never built waits for the build, sending MCP
// progress notifications to a client that gave a progress token, then
// answers with sections (5 by default).
func TestRankedSearchReportsTheFirstBuild(t *testing.T) {
	src, err := frontmatterindex.New(filepath.Join(tsExamples(t), "docs"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	ix, err := sqlitesectionindex.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	lib := library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
	lib.UseIndex(ix, nil)
	srv := mcpserver.NewServer(mcpserver.Options{Name: "librarian", Version: "test"})
	mcpserver.AddLibraryTools(srv, browse.New(lib), search.New(lib), nil, mcpserver.Ceilings{})

	ctx := context.Background()
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var progress []*mcp.ProgressNotificationParams
	client := mcp.NewClient(&mcp.Implementation{Name: "ranked", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, req.Params)
			mu.Unlock()
		},
	})
	cs, err := client.Connect(ctx, clientSide, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })

	params := &mcp.CallToolParams{Name: "search_documents", Arguments: map[string]any{"query": "how to set a signed cookie", "mode": "ranked"}}
	params.SetProgressToken("build-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("ranked call: %v %+v", err, res)
	}
	out := res.Content[0].(*mcp.TextContent).Text
	// Five sections, and a sixth and seventh when they score close to the
	// best.
	var n int
	if _, err := fmt.Sscanf(out, "%d sections of 150 docs, ranked, best first", &n); err != nil || n < 5 || n > 7 ||
		!strings.Contains(out, "\n\nhono/helpers/cookie (hono/helpers/cookie.md) ~") || strings.Count(out, "\n§ ") != n {
		t.Errorf("ranked answer:\n%s", out)
	}
	// The client hands notifications to its handler on their own
	// goroutines: the last may be handled after the call's result.
	var last *mcp.ProgressNotificationParams
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		for _, p := range progress {
			if p.Total > 0 {
				last = p
			}
		}
		n := len(progress)
		mu.Unlock()
		if last != nil || time.Now().After(deadline) {
			if n == 0 {
				t.Fatal("no progress notification during the first build")
			}
			break
		}
	}
	if last == nil || last.ProgressToken != "build-1" || !strings.Contains(last.Message, "indexing the library") {
		t.Errorf("no progress of the build with its total: %+v", progress)
	}
}
