package mcpresources_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/mcpresources"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
)

// TestResourceNotifications: a client subscribed to a doc hears
// notifications/resources/updated when its file changes, and every client
// hears notifications/resources/list_changed when a doc appears.
func TestResourceNotifications(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	write := func(name, text string, at time.Time) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	write("a.md", "# A\n\nfirst\n", old)
	write("b.md", "# B\n\nother\n", old)
	src, err := frontmatterindex.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	b := browse.New(library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig()))
	w := mcpresources.NewResourceWatcher(b, 20*time.Millisecond, nil)
	sub, unsub := w.Subscriptions()
	srv := mcpserver.NewServer(mcpserver.Options{Name: "librarian", Version: "test", Subscribe: sub, Unsubscribe: unsub})
	mcpresources.AddLibraryResources(srv, b)
	w.Watch(srv)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go w.Run(ctx)

	updated := make(chan string, 16)
	listChanged := make(chan struct{}, 16)
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "watch", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler:     func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { updated <- r.Params.URI },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { listChanged <- struct{}{} },
	})
	cs, err := client.Connect(ctx, clientSide, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	uri := mcpresources.DocURI("a")
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: mcpresources.DocURI("nope")}); err == nil {
		t.Error("a subscription to a doc the library does not hold was accepted")
	}
	write("a.md", "# A\n\nsecond, longer\n", old.Add(time.Minute))
	select {
	case got := <-updated:
		if got != uri {
			t.Errorf("updated %s, want %s", got, uri)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no notifications/resources/updated after the subscribed doc changed")
	}
	write("c.md", "# C\n\nnew\n", old)
	select {
	case <-listChanged:
	case <-time.After(5 * time.Second):
		t.Fatal("no notifications/resources/list_changed after a doc appeared")
	}
	write("b.md", "# B\n\nchanged, not subscribed\n", old.Add(2*time.Minute))
	select {
	case got := <-updated:
		t.Errorf("updated %s, which nobody subscribed to", got)
	case <-time.After(300 * time.Millisecond):
	}
}
