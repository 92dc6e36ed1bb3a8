package mcpserver_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/domain"
)

// failingSource is a docindex.Source whose every read fails with err.
type failingSource struct{ err error }

func (f failingSource) Catalog(context.Context) (*domain.Catalog, error) { return nil, f.err }
func (f failingSource) Stat(context.Context, string) (domain.Stamp, error) {
	return domain.Stamp{}, f.err
}
func (f failingSource) ReadFile(context.Context, string) ([]byte, domain.Stamp, error) {
	return nil, domain.Stamp{}, f.err
}

// TestToolErrorsShowNoInternals (issue 20.7): with PostgreSQL down every
// tool error named `user=… database=… host:port`. An unexpected error is
// logged whole and answered by what failed and what to do.
func TestToolErrorsShowNoInternals(t *testing.T) {
	secret := "failed to connect to `user=alice database=team_docs`: 10.1.2.3:5432 (/home/alice/.cache/librarian/idx.sqlite)"
	for _, tc := range []struct {
		err  error
		want string
	}{
		{errors.New(secret), "an unexpected error on the server (its log has the detail)"},
		{fmt.Errorf("%s: %w", secret, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}), "the index database did not answer; try again in a moment"},
	} {
		lib := library.New(failingSource{tc.err}, goldmarkmarkdown.New(), nil, library.DefaultConfig())
		srv := mcpserver.NewServer(mcpserver.Options{Name: "librarian", Version: "test"})
		logged := &syncWriter{}
		mcpserver.AddLibraryTools(srv, browse.New(lib), search.New(lib), slog.New(slog.NewTextHandler(logged, nil)), mcpserver.Ceilings{})
		cs := connectClient(t, srv, "internals", "")
		for tool, args := range map[string]map[string]any{
			"list_documents":   {},
			"get_documents":    {"select": []any{"auth"}},
			"search_documents": {"query": "token"},
		} {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			got := allText(res)
			if !res.IsError || !strings.Contains(got, tool+" failed: "+tc.want) {
				t.Errorf("%s: %q, want a tool error saying %q", tool, got, tc.want)
			}
			for _, internal := range []string{"user=", "team_docs", "10.1.2.3", "5432", "/home/alice"} {
				if strings.Contains(got, internal) {
					t.Errorf("%s: the answer shows %q: %s", tool, internal, got)
				}
			}
		}
		if !strings.Contains(logged.String(), "10.1.2.3:5432") {
			t.Errorf("the log lacks the error's detail:\n%s", logged.String())
		}
	}
}

// syncWriter collects log lines; handlers run on the server's goroutines.
type syncWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
