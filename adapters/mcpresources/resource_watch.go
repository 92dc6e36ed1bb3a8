package mcpresources

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/domain"
)

// DefaultWatchEvery is how often a ResourceWatcher reads the catalog.
const DefaultWatchEvery = 2 * time.Second

// ResourceWatcher tells clients when the library changes: every watch
// period it reads the catalog, and sends notifications/resources/updated
// for each doc whose file changed (to the sessions subscribed to it: the
// SDK keeps the subscriptions) and notifications/resources/list_changed
// when docs appeared or went (debounced by the SDK), to every session of
// every server it watches: the stdio server, or each HTTP session's. One
// watcher serves the process; a server no longer used is dropped when it
// is collected. Safe for concurrent use.
type ResourceWatcher struct {
	lib    *browse.Browser
	every  time.Duration
	logger *slog.Logger

	mu      sync.Mutex
	servers []weak.Pointer[mcp.Server]
	stamps  map[string]domain.Stamp // by doc id, at the last reading
}

// NewResourceWatcher watches lib's catalog every period (0:
// DefaultWatchEvery); Run starts it.
func NewResourceWatcher(lib *browse.Browser, every time.Duration, logger *slog.Logger) *ResourceWatcher {
	if every <= 0 {
		every = DefaultWatchEvery
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &ResourceWatcher{lib: lib, every: every, logger: logger}
}

// Watch adds srv to the servers told of changes.
func (w *ResourceWatcher) Watch(srv *mcp.Server) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.servers = append(w.servers, weak.Make(srv))
}

// Run reads the catalog every period until ctx ends.
func (w *ResourceWatcher) Run(ctx context.Context) {
	// The first reading, a period after the start (the first calls of a
	// session come first) or at the first subscription, whichever comes
	// first, only sets what later ones compare with.
	t := time.NewTicker(w.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			w.check(ctx)
		}
	}
}

// check reads the catalog once and notifies what changed since the last
// reading.
func (w *ResourceWatcher) check(ctx context.Context) {
	docs, err := w.lib.Docs(ctx)
	if err != nil {
		if ctx.Err() == nil {
			w.logger.Warn("resources: reading the catalog failed", "err", err.Error())
		}
		return
	}
	now := make(map[string]domain.Stamp, len(docs))
	for _, d := range docs {
		stamp := d.Stamp
		if stamp == (domain.Stamp{}) { // a convention whose catalog does not stamp (json)
			if stamp, err = w.lib.Stat(ctx, d); err != nil {
				continue // unreadable now: its next reading tells
			}
		}
		now[d.ID] = stamp
	}
	w.mu.Lock()
	before := w.stamps
	w.stamps = now
	var servers []*mcp.Server
	kept := w.servers[:0]
	for _, p := range w.servers {
		if srv := p.Value(); srv != nil {
			servers = append(servers, srv)
			kept = append(kept, p)
		}
	}
	w.servers = kept
	w.mu.Unlock()
	if before == nil || len(servers) == 0 {
		return
	}
	listChanged := len(before) != len(now)
	var updated []string
	for id, stamp := range now {
		old, ok := before[id]
		switch {
		case !ok && len(before) > 0:
			listChanged = true
		case !old.Equal(stamp):
			updated = append(updated, id)
		}
	}
	for _, srv := range servers {
		for _, id := range updated {
			srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: DocURI(id)})
		}
		if listChanged {
			// The SDK sends list_changed when a resource or template is
			// added: the doc template again is the change.
			srv.AddResourceTemplate(resourceTemplates[0], resourceReader(w.lib))
		}
	}
}

// Subscriptions are the subscribe and unsubscribe handlers of a server
// whose docs are resources: a subscription is to a doc; the SDK keeps
// them, the watcher notifies them (and reads the catalog it compares with
// now, if it has not yet).
func (w *ResourceWatcher) Subscriptions() (subscribe func(context.Context, *mcp.SubscribeRequest) error, unsubscribe func(context.Context, *mcp.UnsubscribeRequest) error) {
	subscribe = func(ctx context.Context, req *mcp.SubscribeRequest) error {
		uri := req.Params.URI
		if !strings.HasPrefix(uri, docURIPrefix) {
			return errors.New("only a doc can be subscribed to: " + docTemplate)
		}
		if _, _, ok, err := resourceText(ctx, w.lib, uri); err != nil || !ok {
			return mcp.ResourceNotFoundError(uri)
		}
		w.mu.Lock()
		read := w.stamps != nil
		w.mu.Unlock()
		if !read {
			w.check(ctx)
		}
		return nil
	}
	unsubscribe = func(context.Context, *mcp.UnsubscribeRequest) error { return nil }
	return subscribe, unsubscribe
}
