package engineapi_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/engineapi"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/httpretrieval"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/adapters/localretrieval"
	"github.com/librarian/librarian/adapters/memjournal"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/domain/extract"
	"github.com/librarian/librarian/ports/journal"
	"github.com/librarian/librarian/ports/retrieval"
	"github.com/librarian/librarian/ports/retrieval/retrievaltest"
	"github.com/librarian/librarian/ports/sectionindex"
)

// localEngine is the local engine over the bundled library, its index
// built the honest way: the json convention's adapter, goldmark, the
// domain's name and link rules, a real in-memory SQLite section index.
func localEngine(t *testing.T) *localretrieval.Engine {
	t.Helper()
	ix, err := sqlitesectionindex.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return localEngineOn(t, ix, memjournal.New(journal.Limits{}))
}

// localEngineOn is the local engine over the bundled library, indexed into
// ix, with journal j.
func localEngineOn(t *testing.T, ix *sqlitesectionindex.Index, j journal.Journal) *localretrieval.Engine {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "library")
	src, err := jsonindex.New(root, "index.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cat, err := src.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	parser := goldmarkmarkdown.New()
	resolver := extract.NewLinkResolver(cat.Docs)
	u := sectionindex.Update{BuiltAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Unix()}
	for _, d := range cat.Docs {
		content, stamp, err := src.ReadFile(ctx, d.Path)
		if err != nil {
			t.Fatal(err)
		}
		d.Stamp = stamp
		s := parser.Parse(content)
		u.Put = append(u.Put, sectionindex.Entry{Doc: d, Content: content, Structure: s,
			Names: extract.Names(content, s), Links: resolver.Resolve(d.Path, extract.Links(content, s, d.Path))})
	}
	if err := ix.Apply(ctx, u); err != nil {
		t.Fatal(err)
	}
	eng, err := localretrieval.New(localretrieval.Options{Index: ix, Journal: j, Library: src})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// recorder keeps every request the API received, for retrievaltest.Check.
type recorder struct {
	mu   sync.Mutex
	reqs []retrievaltest.Request
	next http.Handler
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	req := retrievaltest.Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: body}
	if m, ok := decodeObject(body); ok {
		req.JSON = m
	}
	rec.mu.Lock()
	rec.reqs = append(rec.reqs, req)
	rec.mu.Unlock()
	rec.next.ServeHTTP(w, r)
}

func client(t *testing.T, url string) *httpretrieval.Engine {
	t.Helper()
	c, err := httpretrieval.New(httpretrieval.Options{URL: url, Waits: []time.Duration{}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestClientAgainstAPI: seed 004's client (adapters/httpretrieval) talking
// to this API over real HTTP, the API serving the local engine, keeps every
// promise of retrievaltest.RunLibrary, and every request the client sent
// fits seed 004's table (retrievaltest.Check): both sides of the contract.
func TestClientAgainstAPI(t *testing.T) {
	var all []*recorder
	var mu sync.Mutex
	retrievaltest.RunLibrary(t, func(t *testing.T) retrieval.Engine {
		rec := &recorder{next: engineapi.New(localEngine(t), engineapi.Options{})}
		mu.Lock()
		all = append(all, rec)
		mu.Unlock()
		srv := httptest.NewServer(rec)
		t.Cleanup(srv.Close)
		return client(t, srv.URL)
	})
	seen := map[string]bool{}
	for _, rec := range all {
		for _, req := range rec.reqs {
			seen[req.Endpoint()] = true
			if problems := retrievaltest.Check(req); len(problems) > 0 {
				t.Errorf("%s breaks seed 004's table: %v", req.Endpoint(), problems)
			}
		}
	}
	for _, ep := range []string{"GET /api/library/locate", "POST /api/library/brief", "POST /api/library/ask", "GET /api/library/depends",
		"GET /api/library/status", "POST /api/library/tell", "POST /api/library/gap", "POST /api/library/guide", "DELETE /api/library/guide",
		"GET /api/library/interactions"} {
		if !seen[ep] {
			t.Errorf("the suite never called %s", ep)
		}
	}
}

func clientOrErr(url string) (*httpretrieval.Engine, error) {
	return httpretrieval.New(httpretrieval.Options{URL: url, Waits: []time.Duration{}})
}
