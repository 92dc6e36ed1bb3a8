package library

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/extract"
	"github.com/librarian/librarian/ports/docindex"
	"github.com/librarian/librarian/ports/sectionindex"
)

// indexState is the library's link to its section index: the index, the
// stamps it holds (mirrored in memory so a search can tell, per doc and
// without a query, whether the index knows the doc's current bytes), and
// the state of the refresh that brings it up to date with the catalog.
type indexState struct {
	ix  sectionindex.Index
	log *slog.Logger

	refreshMu   sync.Mutex            // one refresh at a time
	links       *extract.LinkResolver // of linksDocs (see linkResolver), under refreshMu
	linksDocs   []domain.Document
	loadMu      sync.Mutex // one read of the stored stamps
	warmMu      sync.Mutex // one warming pass (warmFromIndex, warmTexts)
	warmed      bool       // every parse loaded
	textsWarmed bool       // every text loaded

	mu     sync.Mutex
	stamps map[string]domain.Stamp // what the index holds, by path; nil until loaded
	// described is, by path, the description hash of each doc the index
	// holds (domain.Document.DescriptionHash: its title and tags, which a
	// convention may take from elsewhere than its file), loaded with
	// stamps: a doc whose file is unchanged is stored again when it differs.
	described map[string]uint64
	// stampsGen counts changes of stamps; notHeld memoizes, for catalog
	// notHeldOf at generation notHeldGen, the paths of its stamped docs
	// the index does not hold in their current version (see holds).
	stampsGen uint64
	// metaWritten: this process wrote the folders and notes below.
	metaWritten bool
	metaFolders map[string]domain.Folder
	metaNotes   []string
	notHeldOf   *domain.Catalog
	notHeldGen  uint64
	notHeld     map[string]bool
	built       bool // a whole refresh has finished in this process
	done        int  // progress of the running refresh
	total       int
	changed     chan struct{} // closed and replaced on every progress step
	kick        chan struct{} // asks the background refresher for a refresh

	// refused: the docs the last refresh could not store because they are
	// over the size limit, by path, at the stamp it saw. A search still
	// scans them (and notes them too large) but asks no refresh for them:
	// each would find them too large again, and write the index for nothing.
	refused map[string]domain.Stamp
}

// UseIndex makes the library keep ix up to date and use it: parses of
// unchanged files come from it (no read, no parse after a restart),
// searches ask it for candidate docs, ranked search answers from it. ix
// stays the caller's to close. Call before serving.
func (l *Library) UseIndex(ix sectionindex.Index, log *slog.Logger) {
	if log == nil {
		log = slog.Default()
	}
	l.idx = &indexState{ix: ix, log: log, changed: make(chan struct{}), kick: make(chan struct{}, 1)}
}

// Index returns the section index in use, nil when there is none.
func (l *Library) Index() sectionindex.Index {
	if l.idx == nil {
		return nil
	}
	return l.idx.ix
}

// RefreshStats tells what a refresh did.
type RefreshStats struct {
	Docs     int           // docs in the catalog
	Parsed   int           // docs read, parsed and stored because they changed
	Removed  int           // docs dropped from the index
	Deferred int           // docs modified too recently to trust their stamp: next refresh
	Took     time.Duration // wall time
}

// refreshBatch is how many docs one index transaction stores: small enough
// that a reader never waits long, large enough to amortize the commit.
const refreshBatch = 256

// Refresh brings the index up to date with the catalog by stamps: docs
// whose stamp the index holds are left alone; new and changed ones are
// read, parsed and stored; docs gone from the catalog are removed. progress,
// when not nil, is called after each batch with the docs handled so far
// and the number to handle. A doc whose file was modified within the racy
// window of its read is not stored (its stamp cannot prove its bytes yet):
// the next refresh takes it.
func (l *Library) Refresh(ctx context.Context, progress func(done, total int)) (RefreshStats, error) {
	if l.idx == nil {
		return RefreshStats{}, errors.New("no section index in use (LIBRARY_INDEX)")
	}
	if l.servedFromIndex() {
		return RefreshStats{}, errors.New("the library is served from its section index alone: index it from its root (librarian index --root DIR --to …)")
	}
	s := l.idx
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	start := time.Now()
	stamps, described, err := s.loadStamps(ctx)
	if err != nil {
		return RefreshStats{}, err
	}
	cat, err := l.Catalog(ctx)
	if err != nil {
		return RefreshStats{}, err
	}
	st := RefreshStats{Docs: len(cat.Docs)}
	// Names and links are derived when a doc is stored; a link is resolved
	// against the catalog of that moment (a doc it names that appears later
	// is linked once the linking doc changes).
	var links *extract.LinkResolver // made when a doc is to be stored
	s.mu.Lock()
	wasRefused := s.refused
	s.mu.Unlock()
	refused := map[string]domain.Stamp{}
	listed := make(map[string]bool, len(cat.Docs))
	var todo []domain.Document
	for _, d := range cat.Docs {
		listed[d.Path] = true
		stamp := d.Stamp
		if stamp == (domain.Stamp{}) {
			if stamp, err = l.source.Stat(ctx, d.Path); err != nil {
				continue // not readable now: Catalog notes it, the index keeps nothing new
			}
			d.Stamp = stamp
		}
		if old, ok := stamps[d.Path]; ok && old.Equal(stamp) && described[d.Path] == d.DescriptionHash() {
			continue
		}
		if r, ok := wasRefused[d.Path]; ok && r.Equal(stamp) {
			refused[d.Path] = stamp // too large still: not read again
			continue
		}
		todo = append(todo, d)
	}
	var gone []string
	for p := range stamps {
		if !listed[p] {
			gone = append(gone, p)
		}
	}
	s.setProgress(0, len(todo))
	if progress != nil {
		progress(0, len(todo))
	}
	if len(todo) > 0 {
		links = s.linkResolver(cat.Docs)
	}
	// The folders and notes go with the last batch (one commit, not two),
	// and only when they changed since this process last wrote them.
	folders := cat.Folders
	if folders == nil {
		folders = map[string]domain.Folder{}
	}
	notes := cat.Notes
	if notes == nil {
		notes = []string{}
	}
	meta := sectionindex.Update{BuiltAt: time.Now().Unix()}
	s.mu.Lock()
	if !s.metaWritten || !reflect.DeepEqual(folders, s.metaFolders) {
		meta.Folders = folders
	}
	if !s.metaWritten || !slices.Equal(notes, s.metaNotes) {
		meta.Notes = notes
	}
	s.mu.Unlock()
	metaDone := meta.Folders == nil && meta.Notes == nil && len(todo) == 0 && len(gone) == 0
	// A build keeps no parse in memory: the index holds them, and a first
	// build of 50,000 docs held 900 MB of parses nobody had asked for. A
	// small refresh (an edit) keeps them for the call that comes next.
	building := len(todo) > warmThreshold
	if building {
		defer l.roomForCalls()()
	}
	for i := 0; i < len(todo) || len(gone) > 0; i += refreshBatch {
		batch := todo[i:min(i+refreshBatch, len(todo))]
		var fresh []string
		if building {
			fresh = l.uncached(batch)
		}
		parsed, errs := l.openYielding(ctx, batch)
		u := sectionindex.Update{Remove: gone, Pause: l.yieldToCalls, Go: l.buildGo}
		gone = nil
		if i+refreshBatch >= len(todo) { // the last batch
			u.Folders, u.Notes, u.BuiltAt = meta.Folders, meta.Notes, meta.BuiltAt
			metaDone = true
		}
		put := map[string]domain.Stamp{}
		for j, d := range batch {
			p := parsed[j]
			if errors.Is(errs[j], domain.ErrTooLarge) {
				refused[d.Path] = d.Stamp
			}
			if errs[j] != nil || p == nil {
				continue
			}
			if !p.Settled() {
				// Stored so that it is found now, under a stamp no file has, so the next refresh reads it again.
				st.Deferred++
				d.Stamp = unsettledStamp(p.Stamp)
				u.Put = append(u.Put, sectionindex.Entry{Doc: d, Content: p.Content, Structure: p.Structure,
					Names: extract.Names(p.Content, p.Structure), Links: links.Resolve(d.Path, extract.Links(p.Content, p.Structure, d.Path))})
				put[d.Path] = d.Stamp
				continue
			}
			d.Stamp = p.Stamp
			u.Put = append(u.Put, sectionindex.Entry{Doc: d, Content: p.Content, Structure: p.Structure,
				Names: extract.Names(p.Content, p.Structure),
				Links: links.Resolve(d.Path, extract.Links(p.Content, p.Structure, d.Path))})
			put[d.Path] = p.Stamp
		}
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if err := s.ix.Apply(ctx, u); err != nil {
			return st, err
		}
		l.forget(fresh)
		s.mu.Lock()
		for _, p := range u.Remove {
			delete(s.stamps, p)
			delete(s.described, p)
		}
		for p, stamp := range put {
			s.stamps[p] = stamp
		}
		for _, e := range u.Put {
			s.described[e.Doc.Path] = e.Doc.DescriptionHash()
		}
		s.stampsGen++
		s.mu.Unlock()
		st.Parsed += len(u.Put) - countUnsettled(u.Put)
		st.Removed += len(u.Remove)
		done := min(i+refreshBatch, len(todo))
		s.setProgress(done, len(todo))
		if progress != nil {
			progress(done, len(todo))
		}
	}
	if !metaDone {
		if err := s.ix.Apply(ctx, meta); err != nil {
			return st, err
		}
	}
	s.mu.Lock()
	s.metaWritten, s.metaFolders, s.metaNotes = true, folders, notes
	s.refused = refused
	s.built = true
	s.mu.Unlock()
	s.setProgress(len(todo), len(todo))
	st.Took = time.Since(start)
	return st, nil
}

// loadStamps reads the stamps and description hashes the index holds,
// once per process, and returns copies.
func (s *indexState) loadStamps(ctx context.Context) (map[string]domain.Stamp, map[string]uint64, error) {
	if err := s.ensureStamps(ctx); err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.stamps), maps.Clone(s.described), nil
}

// ensureStamps reads the stamps the index holds unless they are loaded.
func (s *indexState) ensureStamps(ctx context.Context) error {
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	s.mu.Lock()
	loaded := s.stamps != nil
	s.mu.Unlock()
	if loaded {
		return nil
	}
	m, err := s.ix.Stamps(ctx)
	if err != nil {
		return fmt.Errorf("reading the section index: %w", err)
	}
	stamps := make(map[string]domain.Stamp, len(m))
	described := make(map[string]uint64, len(m))
	for p, st := range m {
		stamps[p], described[p] = st.Stamp, st.DescriptionHash
	}
	s.mu.Lock()
	s.stamps, s.described = stamps, described
	s.stampsGen++
	s.mu.Unlock()
	return nil
}

// indexedStamp is the stamp of what the index holds for path.
func (s *indexState) indexedStamp(path string) (domain.Stamp, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.stamps[path]
	return st, ok
}

// linkResolver is a resolver of docs' links, the last one's when docs name
// the same paths and ids (a refresh after an edit: 6 ms saved of 11,111).
// Called with refreshMu held.
func (s *indexState) linkResolver(docs []domain.Document) *extract.LinkResolver {
	same := s.links != nil && len(docs) == len(s.linksDocs)
	for i := 0; same && i < len(docs); i++ {
		same = docs[i].Path == s.linksDocs[i].Path && docs[i].ID == s.linksDocs[i].ID
	}
	if !same {
		s.links, s.linksDocs = extract.NewLinkResolver(docs), docs
	}
	return s.links
}

// holds sets held[i] when the index holds the current version of doc(i),
// one of n docs of catalog cat (a doc the catalog did not stamp is stamped by source
// now), and reports whether any doc is not held. The comparison of cat's
// stamps with the index's is made once per catalog and index change: a
// search then costs a lookup per doc in a set that is empty once the
// index is current.
func (s *indexState) holds(ctx context.Context, source docindex.Source, cat *domain.Catalog, n int, doc func(int) *domain.Document, held []bool) (stale bool) {
	var unstamped []int
	s.mu.Lock()
	if s.notHeldOf != cat || s.notHeldGen != s.stampsGen {
		s.notHeld = map[string]bool{}
		for _, d := range cat.Docs {
			if st, ok := s.stamps[d.Path]; d.Stamp != (domain.Stamp{}) && (!ok || !st.Equal(d.Stamp)) {
				s.notHeld[d.Path] = true
			}
		}
		s.notHeldOf, s.notHeldGen = cat, s.stampsGen
	}
	for i := range n {
		d := doc(i)
		if d.Stamp == (domain.Stamp{}) {
			unstamped = append(unstamped, i)
			continue
		}
		held[i] = !s.notHeld[d.Path]
		stale = stale || !held[i] && !s.tooLarge(d.Path, d.Stamp)
	}
	s.mu.Unlock()
	for _, i := range unstamped {
		path := doc(i).Path
		stamp, err := source.Stat(ctx, path)
		if err != nil {
			continue // opening it will say why
		}
		st, ok := s.indexedStamp(path)
		held[i] = ok && st.Equal(stamp)
		s.mu.Lock()
		stale = stale || !held[i] && !s.tooLarge(path, stamp)
		s.mu.Unlock()
	}
	return stale
}

// tooLarge reports whether the last refresh refused path, stamped stamp,
// as over the size limit. Called with mu held.
func (s *indexState) tooLarge(path string, stamp domain.Stamp) bool {
	r, ok := s.refused[path]
	return ok && r.Equal(stamp)
}

// fromIndex returns the stored parse of path when the index holds exactly
// the version stamped stamp, else nil. The index stores only settled
// reads, so its bytes are trusted by stamp.
func (l *Library) fromIndex(ctx context.Context, path string, stamp domain.Stamp) *Doc {
	if l.idx == nil {
		return nil
	}
	l.idx.mu.Lock()
	held, ok := l.idx.stamps[path]
	loaded := l.idx.stamps != nil
	l.idx.mu.Unlock()
	if loaded && (!ok || !held.Equal(stamp)) {
		return nil
	}
	e, err := l.idx.ix.Entry(ctx, path)
	if err != nil || !e.Doc.Stamp.Equal(stamp) || !e.Structure.Current() {
		// Another version of the file, or a parse made before the parser
		// found what it finds now (standard images): read and parse it.
		return nil
	}
	return &Doc{Stamp: stamp, Content: e.Content, Structure: e.Structure, readAt: time.Now()}
}

// warmFromIndex loads, in one pass over the index, the parse of every doc
// whose stored stamp is the catalog's, into the parse cache.
func (l *Library) warmFromIndex(ctx context.Context) {
	l.idx.warmMu.Lock()
	defer l.idx.warmMu.Unlock()
	if l.idx.warmed {
		return
	}
	l.idx.warmed = true
	current, err := l.catalogStamps(ctx)
	if err != nil {
		return
	}
	now := time.Now()
	err = l.idx.ix.Parses(ctx, func(e sectionindex.Entry) error {
		stamp, ok := current.still(e.Doc.Path, e.Doc.Stamp)
		if !ok || !e.Structure.Current() {
			return nil // changed since, stamped only on open, or parsed by an older parser: opened as usual
		}
		l.mu.Lock()
		if p := l.cache[e.Doc.Path]; p == nil || p.textOnly {
			l.cache[e.Doc.Path] = &Doc{Stamp: stamp, Content: e.Content, Structure: e.Structure, readAt: now}
		}
		l.mu.Unlock()
		return ctx.Err()
	})
	if err != nil && ctx.Err() == nil {
		l.idx.log.Warn("section index: loading the parses failed; docs are opened one by one", "err", err.Error())
	}
}

// warmThreshold is how many docs missing from the parse cache make a call
// load them all from the index in one pass rather than one by one.
const warmThreshold = 500

// WarmIfCold warms the parse cache from the index when most of docs are
// not in it (a restart), so a call over many docs reads the index once.
func (l *Library) WarmIfCold(ctx context.Context, docs []domain.Document) {
	if l.idx == nil || len(docs) < warmThreshold {
		return
	}
	l.idx.warmMu.Lock()
	warmed := l.idx.warmed
	l.idx.warmMu.Unlock()
	if warmed {
		return
	}
	if l.missing(docs, true) >= warmThreshold {
		l.warmFromIndex(ctx)
	}
}

// IndexHolds reports whether what the section index holds of path is p's
// version, so its sections answer for the file as it is now; when it is
// not, the background refresher is asked to catch up. A doc stored while
// fresh (unsettledStamp) holds the bytes of this version too, until the
// refresh that follows within seconds. A library served from its index
// holds every doc by construction. Without an index it reports false.
func (l *Library) IndexHolds(path string, p *Doc) bool {
	if l.idx == nil {
		return false
	}
	if l.servedFromIndex() {
		return true
	}
	held, ok := l.idx.indexedStamp(path)
	if ok && (held.Equal(p.Stamp) || held.Equal(unsettledStamp(p.Stamp))) {
		return true
	}
	l.idx.noticeStale()
	return false
}
