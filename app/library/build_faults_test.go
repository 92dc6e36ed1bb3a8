package library_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/docindex"
	"github.com/librarian/librarian/ports/sectionindex"
)

// hookSource runs onFirst when trigger is first read (later reads, a
// search's while onFirst runs, do not wait for it).
type hookSource struct {
	docindex.Source
	trigger string
	fired   atomic.Bool
	onFirst func()
}

func (h *hookSource) ReadFile(ctx context.Context, p string) ([]byte, domain.Stamp, error) {
	if p == h.trigger && h.fired.CompareAndSwap(false, true) {
		h.onFirst()
	}
	return h.Source.ReadFile(ctx, p)
}

// manyFiles is how many docs the one big folder holds: 5,000 by default
// (1,000 under the race detector; the test takes about 10 s on a loaded
// two-core machine), or
// LIBRARIAN_TEST_MANY_FILES=50000 for the figure (about 36 s
// there: too slow for every run of the suite).
func manyFiles(t *testing.T) int {
	if v := os.Getenv("LIBRARIAN_TEST_MANY_FILES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("LIBRARIAN_TEST_MANY_FILES=%q: want a count of files", v)
		}
		return n
	}
	if raceDetector {
		return 1000
	}
	return 5000
}

// TestBuildSurvivesBadInput: a first build of a folder library, through
// the real frontmatter source and SQLite index, while files change under
// it: one doc deleted after it was stored, one deleted before it was read,
// one rewritten after it was stored, one rewritten before it was read; the
// library also holds a doc of exactly the 16 MiB limit, one a byte over it,
// and a folder of many files. Calls made during the build answer. The
// build fails nothing and loses nothing: every doc is stored and found, the
// doc over the limit is left out with a note naming it, and the next
// refresh stores the rewritten docs' new text and drops the deleted ones.
func TestBuildSurvivesBadInput(t *testing.T) {
	root := t.TempDir()
	ctx := t.Context()
	old := time.Now().Add(-time.Hour) // outside the racy window
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	keep := func(i int) string { return fmt.Sprintf("keep/doc-%04d.md", i) }
	many := func(i int) string { return fmt.Sprintf("many/file-%05d.md", i) }
	marker := map[string]string{} // a literal only this doc holds
	const keepDocs = 600
	for i := range keepDocs {
		marker[keep(i)] = fmt.Sprintf("keepmark%04d", i)
		write(keep(i), fmt.Sprintf("# Keep %d\n\nKeep doc %d holds keepmark%04d and commonquarry.\n", i, i, i))
	}
	nMany := manyFiles(t)
	for i := range nMany {
		marker[many(i)] = fmt.Sprintf("manymark%05d", i)
		write(many(i), fmt.Sprintf("# Many %d\n\nFile %d of one folder holds manymark%05d and commonquarry.\n", i, i, i))
	}
	big := func(size int, marker string) string {
		var b strings.Builder
		b.Grow(size)
		for i := 0; b.Len() < size-200; i++ {
			if i%2000 == 0 {
				fmt.Fprintf(&b, "\n## Part %d\n\n", i/2000)
			}
			fmt.Fprintf(&b, "Line %07d of the long doc says nothing new.\n", i)
		}
		b.WriteString("\nThe end holds " + marker + " and commonquarry.\n")
		for b.Len() < size {
			b.WriteByte('.')
		}
		return b.String()
	}
	// The default limit, 16 MiB; under the race detector (every Go line,
	// the pure-Go SQLite's too, many times slower: minutes for this test)
	// 1 MiB, the same rule at a smaller size.
	cfg := library.DefaultConfig()
	limit := int(domain.DefaultMaxDocBytes)
	if raceDetector {
		limit = 1 << 20
		cfg.MaxDocBytes = int64(limit)
	}
	const atLimit, overLimit = "big/at-limit.md", "big/over-limit.md"
	marker[atLimit] = "bigatlimitmarker"
	write(atLimit, "# At the limit\n"+big(limit-len("# At the limit\n"), "bigatlimitmarker"))
	write(overLimit, "# Over the limit\n"+big(limit+1-len("# Over the limit\n"), "bigoverlimitmarker"))

	// In path order the build reads big/, then keep/ (batches of 256), then
	// many/. When it first reads keep/doc-0300.md (the second batch), the
	// first batch is stored.
	const (
		goneStored  = 100 // deleted after the build stored it
		goneUnread  = 550 // deleted before the build read it
		newStored   = 50  // rewritten after the build stored it
		newUnread   = 580 // rewritten before the build read it
		triggerRead = 300
	)
	fm, err := frontmatterindex.New(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fm.Close() })
	src := &hookSource{Source: fm, trigger: keep(triggerRead)}
	l := library.New(src, goldmarkmarkdown.New(), nil, cfg)
	ix, err := sqlitesectionindex.OpenFile(ctx, filepath.Join(t.TempDir(), "index.sqlite"), sqlitesectionindex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	l.UseIndex(ix, nil)
	searchFor := func(q string) (string, error) {
		return search.New(l).SearchDocuments(ctx, search.SearchRequest{Query: q, Scope: domain.Scope{Depth: -1}})
	}

	var duringErrs []string
	var rewrittenAt time.Time
	ranked := make(chan error, 1)
	src.onFirst = func() {
		for _, i := range []int{goneStored, goneUnread} {
			if err := os.Remove(filepath.Join(root, filepath.FromSlash(keep(i)))); err != nil {
				t.Error(err)
			}
		}
		for _, i := range []int{newStored, newUnread} {
			marker[keep(i)] = fmt.Sprintf("rewrittenmark%04d", i)
			p := filepath.Join(root, filepath.FromSlash(keep(i)))
			if err := os.WriteFile(p, fmt.Appendf(nil, "# Keep %d\n\nRewritten: rewrittenmark%04d and commonquarry.\n", i, i), 0o644); err != nil {
				t.Error(err)
			}
		}
		rewrittenAt = time.Now()
		// Calls while the build runs (it waits here until they answer): a
		// catalog, a listing, a search of a stored doc and one of a doc not
		// yet read.
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer l.Serving()()
			if cat, err := l.Catalog(ctx); err != nil || len(cat.Docs) == 0 {
				duringErrs = append(duringErrs, fmt.Sprintf("Catalog during the build: %v", err))
			}
			if got, err := browse.New(l).ListDocuments(ctx, browse.ListRequest{Scope: domain.Scope{Depth: -1}}); err != nil || !strings.Contains(got, "many/") {
				duringErrs = append(duringErrs, fmt.Sprintf("listing during the build: %v\n%.500s", err, got))
			}
			for q, want := range map[string]string{"keepmark0010": keep(10), "manymark00042": many(42)} {
				got, err := searchFor(q)
				if err != nil || !strings.Contains(got, want) {
					duringErrs = append(duringErrs, fmt.Sprintf("search %s during the build: %v\n%s", q, err, got))
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(2 * time.Minute):
			duringErrs = append(duringErrs, "calls made during the build did not answer in 2 minutes")
		}
		// A ranked search waits for the build, and then answers.
		go func() {
			got, err := search.New(l).SearchDocuments(ctx, search.SearchRequest{Query: "keepmark0420", Mode: search.SearchRanked, Scope: domain.Scope{Depth: -1}})
			if err == nil && !strings.Contains(got, keep(420)) {
				err = fmt.Errorf("not found:\n%s", got)
			}
			ranked <- err
		}()
	}

	st, err := l.Refresh(ctx, nil)
	if err != nil {
		t.Fatalf("the build failed: %v (%+v)", err, st)
	}
	t.Logf("first build %+v", st)
	for _, e := range duringErrs {
		t.Error(e)
	}
	if rewrittenAt.IsZero() {
		t.Fatal("the build never read the trigger doc")
	}
	if err := <-ranked; err != nil {
		t.Errorf("ranked search made during the build: %v", err)
	}
	total := keepDocs + nMany + 2
	if st.Docs != total {
		t.Errorf("the build's catalog has %d docs, want %d", st.Docs, total)
	}

	// want: the docs the index must hold after the next refresh.
	want := []string{atLimit}
	for i := range keepDocs {
		if i != goneStored && i != goneUnread {
			want = append(want, keep(i))
		}
	}
	for i := range nMany {
		want = append(want, many(i))
	}
	stamps, err := ix.Stamps(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range want {
		if _, ok := stamps[p]; !ok {
			t.Errorf("the build did not store %s", p)
		}
	}
	if _, ok := stamps[overLimit]; ok {
		t.Errorf("the build stored %s, over the limit", overLimit)
	}
	if _, ok := stamps[keep(goneUnread)]; ok {
		t.Errorf("the build stored %s, deleted before it was read", keep(goneUnread))
	}
	if e, err := ix.Entry(ctx, keep(newUnread)); err != nil || !strings.Contains(string(e.Content), "rewrittenmark") {
		t.Errorf("%s, rewritten before it was read, is stored with its old text (%v)", keep(newUnread), err)
	}

	// The doc over the limit is named in a note; nothing else is lost.
	got, err := searchFor("bigoverlimitmarker")
	if err != nil || !strings.Contains(got, "too large") || !strings.Contains(got, overLimit) {
		t.Errorf("search of the doc over the limit: %v; want a note naming %s as too large\n%s", err, overLimit, got)
	}
	for q, p := range map[string]string{"bigatlimitmarker": atLimit, "keepmark0599": keep(599), fmt.Sprintf("manymark%05d", nMany-1): many(nMany - 1)} {
		if got, err := searchFor(q); err != nil || !strings.Contains(got, p) {
			t.Errorf("search %s after the build: %v; want %s\n%s", q, err, p, got)
		}
	}

	// The next refresh, once the rewrites are out of the racy window.
	time.Sleep(time.Until(rewrittenAt.Add(2100 * time.Millisecond)))
	st, err = l.Refresh(ctx, nil)
	if err != nil || st.Deferred != 0 {
		t.Fatalf("the refresh after the build: %+v, %v; want no error, nothing deferred", st, err)
	}
	t.Logf("next refresh %+v", st)
	stamps, _ = ix.Stamps(ctx)
	held := make([]string, 0, len(stamps))
	for p, s := range stamps {
		held = append(held, p)
		if s.Stamp.IsUnsettled() {
			t.Errorf("%s still stored under an unsettled stamp", p)
		}
	}
	slices.Sort(held)
	if !slices.Equal(held, want) {
		t.Errorf("the index holds %d docs, want %d (every doc but the deleted ones and the one over the limit)", len(held), len(want))
	}
	// Every stored doc is found by the index's trigram lookup of its own
	// marker (many markers at a time; a set whose grams are in most docs is
	// not looked up, so it is asked again in halves).
	var markers []string
	for _, p := range want {
		markers = append(markers, marker[p])
	}
	var found []string
	var lookup func(ms []string)
	lookup = func(ms []string) {
		paths, all, err := ix.Candidates(ctx, domain.CandidateQuery{AnyOf: ms})
		switch {
		case err != nil:
			t.Fatalf("candidates: %v", err)
		case all && len(ms) == 1:
			t.Fatalf("candidates of %s: every doc", ms[0])
		case all:
			lookup(ms[:len(ms)/2])
			lookup(ms[len(ms)/2:])
		default:
			found = append(found, paths...)
		}
	}
	for i := 0; i < len(markers); i += 256 {
		lookup(markers[i:min(i+256, len(markers))])
	}
	slices.Sort(found)
	if found = slices.Compact(found); !slices.Equal(found, want) {
		t.Errorf("the index's lookup of every doc's marker finds %d docs, want the %d stored", len(found), len(want))
	}
	for _, i := range []int{newStored, newUnread} {
		q := marker[keep(i)]
		if got, err := searchFor(q); err != nil || !strings.Contains(got, keep(i)) {
			t.Errorf("search %s, the rewritten text of %s: %v\n%s", q, keep(i), err, got)
		}
		if e, err := ix.Entry(ctx, keep(i)); err != nil || strings.Contains(string(e.Content), "keepmark") {
			t.Errorf("%s is stored with its old text (%v)", keep(i), err)
		}
	}
	for _, i := range []int{goneStored, goneUnread} {
		q := fmt.Sprintf("keepmark%04d", i)
		if got, err := searchFor(q); err != nil || strings.Contains(got, keep(i)+")") {
			t.Errorf("search %s, of the deleted %s: %v\n%s", q, keep(i), err, got)
		}
	}
}

// applyCounting counts the index's writes.
type applyCounting struct {
	sectionindex.Index
	applies atomic.Int64
}

func (a *applyCounting) Apply(ctx context.Context, u sectionindex.Update) error {
	a.applies.Add(1)
	return a.Index.Apply(ctx, u)
}

// TestADocOverTheLimitAsksNoRefresh: a doc too large to store is noted by
// every search that meets it, and a search does not ask the background
// refresher to store it again (it did: every search then cost a refresh
// and three empty write transactions, for as long as the server ran).
func TestADocOverTheLimitAsksNoRefresh(t *testing.T) {
	root := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for name, body := range map[string]string{
		"a.md":   "# A\n\nalpha is here.\n",
		"big.md": "# Big\n\n" + strings.Repeat("alpha words ", 200),
	} {
		p := filepath.Join(root, name)
		os.WriteFile(p, []byte(body), 0o644)
		os.Chtimes(p, old, old)
	}
	fm, err := frontmatterindex.New(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fm.Close() })
	cfg := library.DefaultConfig()
	cfg.MaxDocBytes = 1000
	l := library.New(fm, goldmarkmarkdown.New(), nil, cfg)
	ix, err := sqlitesectionindex.OpenFile(t.Context(), filepath.Join(t.TempDir(), "index.sqlite"), sqlitesectionindex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	counted := &applyCounting{Index: ix}
	l.UseIndex(counted, nil)
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan struct{})
	go func() { defer close(stopped); l.KeepIndexed(ctx) }()
	defer func() { cancel(); <-stopped }()
	if err := l.WaitBuilt(ctx, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the refresher settles
	before := counted.applies.Load()
	for range 10 {
		got, err := search.New(l).SearchDocuments(ctx, search.SearchRequest{Query: "alpha", Scope: domain.Scope{Depth: -1}})
		if err != nil || !strings.Contains(got, "a.md") || !strings.Contains(got, "too large") || !strings.Contains(got, "big.md") {
			t.Fatalf("search: %v; want a.md's hit and a note naming big.md too large\n%s", err, got)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	if n := counted.applies.Load() - before; n != 0 {
		t.Errorf("10 searches meeting a doc over the limit made %d index writes, want none", n)
	}
}
