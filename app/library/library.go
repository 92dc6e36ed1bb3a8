package library

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/docindex"
	"github.com/librarian/librarian/ports/imagestore"
	"github.com/librarian/librarian/ports/markdown"
	"github.com/librarian/librarian/ports/sectionindex"
)

// LibraryConfig holds the limits of the library use cases.
type Config struct {
	// MaxImageBytes: larger images become placeholders (seed 000: 5 MB).
	MaxImageBytes int64
	// MaxAnswerTokens: the default get_documents budget; 0 means none.
	MaxAnswerTokens int
	// MaxDocBytes: a document file larger than this is not read (it gets a
	// note), so a huge file named *.md cannot exhaust memory; 0 means
	// domain.DefaultMaxDocBytes.
	MaxDocBytes int64
	// MaxDocBytesFrom is the flag or env var that set MaxDocBytes
	// ("--max-doc-bytes", "LIBRARY_MAX_DOC_BYTES"), for the note a too
	// large doc gets; "" means the default.
	MaxDocBytesFrom string
	// Commands names the operations in hints ("librarian ls shows every
	// doc"); the zero value means the MCP tools.
	Commands domain.Commands
	// SearchTimeout: a search_documents call that scans longer answers
	// with what it searched; 0 means domain.DefaultSearchTimeout.
	SearchTimeout time.Duration
}

// SearchTimeLimit is SearchTimeout, or its default when unset.
func (c Config) SearchTimeLimit() time.Duration {
	if c.SearchTimeout > 0 {
		return c.SearchTimeout
	}
	return domain.DefaultSearchTimeout
}

// DefaultLibraryConfig is seed 000's and the spec's defaults.
func DefaultConfig() Config {
	return Config{MaxImageBytes: 5 << 20, MaxAnswerTokens: 20000}
}

// Library is the use cases over one library: an index source, a markdown
// parser and an optional image store. It caches each document's parse by
// its file stamp, so an unchanged file is neither re-read nor re-parsed
// (a file modified within racyWindow of its read is read again, and
// re-parsed only if its bytes changed).
// Safe for concurrent use.
type Library struct {
	source docindex.Source
	parser markdown.Parser
	images imagestore.Store // nil: the library has no image store
	cfg    Config

	mu    sync.Mutex
	cache map[string]*Doc // by doc path

	idx *indexState // nil: no section index (see UseIndex)

	calls      callCount   // the requests being answered, which a build yields to (yield.go)
	background atomic.Bool // builds run as background work (inBackground)
}

// NewLibrary builds the library use cases. images may be nil.
func New(source docindex.Source, parser markdown.Parser, images imagestore.Store, cfg Config) *Library {
	return &Library{source: source, parser: parser, images: images, cfg: cfg, cache: map[string]*Doc{}}
}

// Config returns the limits the library was built with.
func (l *Library) Config() Config { return l.cfg }

// Images returns the library's image store, nil when it has none.
func (l *Library) Images() imagestore.Store { return l.images }

// Stat returns a doc file's stamp, from the index source.
func (l *Library) Stat(ctx context.Context, path string) (domain.Stamp, error) {
	return l.source.Stat(ctx, path)
}

// Doc is one version of a document file: its bytes and its structure. A
// Doc is shared by every call that opens the same version: read-only.
type Doc struct {
	Stamp     domain.Stamp
	Content   []byte
	Structure domain.Structure
	// readAt is when the bytes were read: a file read soon after it was
	// modified may change again within the same timestamp tick without its
	// stamp changing (git's "racy clean" case), so such a read is trusted
	// only after checking the bytes once more.
	readAt time.Time
	// textOnly: loaded from the index's texts (warmTexts), Structure holds
	// only FrontmatterEnd. Enough for the librarian-ts tools (OpenText);
	// Open parses it, or loads its parse, before anyone reads the rest.
	textOnly bool
}

// racyWindow is how long after a file's modification time a read of it is
// not trusted by its stamp alone: larger than any file system's timestamp
// granularity (FAT's is 2 s).
const racyWindow = 2 * time.Second

// Settled reports whether the stamp alone proves the bytes current.
func (p *Doc) Settled() bool {
	return p.readAt.Sub(p.Stamp.ModTime) >= racyWindow
}

// isVersion reports whether p holds the bytes of the file version stamped
// stamp: the same stamp, read outside the racy window (a zero stamp, a doc
// not stamped yet, never matches).
func (p *Doc) isVersion(stamp domain.Stamp) bool {
	return p != nil && stamp != (domain.Stamp{}) && p.Stamp.Equal(stamp) && p.Settled()
}

// unsettledStamp is the stamp the section index stores for a doc read
// within the racy window: its sections are searchable at once, but no file
// has this stamp, so the next refresh, and the next process, read it again
// instead of trusting bytes its stamp cannot prove (domain.Stamp.Unsettled).
func unsettledStamp(s domain.Stamp) domain.Stamp { return s.Unsettled() }

// isUnsettled reports whether s is an unsettledStamp.
func isUnsettled(s domain.Stamp) bool { return s.IsUnsettled() }

// countUnsettled counts the entries stored under an unsettledStamp.
func countUnsettled(es []sectionindex.Entry) int {
	n := 0
	for _, e := range es {
		if isUnsettled(e.Doc.Stamp) {
			n++
		}
	}
	return n
}

// Catalog returns the validated catalog: the index source's, with the image
// index's validation problems joined to the doc index's into one error.
func (l *Library) Catalog(ctx context.Context) (*domain.Catalog, error) {
	cat, docErr := l.source.Catalog(ctx)
	var imgErr error
	if l.images != nil {
		_, imgErr = l.images.Images(ctx)
	}
	var di, ii *domain.IndexError
	docInvalid := errors.As(docErr, &di)
	imgInvalid := errors.As(imgErr, &ii)
	switch {
	case docInvalid || imgInvalid:
		if docErr != nil && !docInvalid {
			return nil, docErr
		}
		if imgErr != nil && !imgInvalid {
			return nil, imgErr
		}
		return nil, domain.JoinIndexErrors(di, ii)
	case docErr != nil:
		return nil, docErr
	case imgErr != nil:
		return nil, imgErr
	}
	l.prune(cat)
	return cat, nil
}

// Open returns a doc's bytes and structure, from the cache when the file's
// stamp has not changed since it was parsed. The stamp is the one the
// catalog saw, when it carries one, else a fresh Stat.
func (l *Library) Open(ctx context.Context, d domain.Document) (*Doc, error) {
	path := d.Path
	stamp := d.Stamp
	if stamp == (domain.Stamp{}) {
		var err error
		if stamp, err = l.source.Stat(ctx, path); err != nil {
			return nil, err
		}
	}
	l.mu.Lock()
	cached := l.cache[path]
	l.mu.Unlock()
	if cached.isVersion(stamp) && !cached.textOnly {
		return cached, nil
	}
	limit := l.maxDocBytes()
	if stamp.Size > limit {
		return nil, fmt.Errorf("%w: %d bytes, over the %d-byte limit for a document (%s)", domain.ErrTooLarge, stamp.Size, limit, l.docLimitSource())
	}
	if p := l.fromIndex(ctx, path, stamp); p != nil {
		l.mu.Lock()
		l.cache[path] = p
		l.mu.Unlock()
		return p, nil
	}
	if cached.isVersion(stamp) && cached.textOnly {
		// The bytes are current; only their parse is missing.
		p := &Doc{Stamp: cached.Stamp, Content: cached.Content, Structure: l.parser.Parse(cached.Content), readAt: cached.readAt}
		l.mu.Lock()
		l.cache[path] = p
		l.mu.Unlock()
		return p, nil
	}
	readAt := time.Now()
	content, readStamp, err := l.source.ReadFile(ctx, path)
	if err != nil {
		return nil, err
	}
	if int64(len(content)) > limit { // it grew between the stat and the read
		return nil, fmt.Errorf("%w: %d bytes, over the %d-byte limit for a document (%s)", domain.ErrTooLarge, len(content), limit, l.docLimitSource())
	}
	var p *Doc
	if cached != nil && !cached.textOnly && bytes.Equal(cached.Content, content) {
		// Same bytes (a racy stamp re-checked, or a touch): keep the parse
		// (a text-only doc has none to keep).
		p = &Doc{Stamp: readStamp, Content: cached.Content, Structure: cached.Structure, readAt: readAt}
	} else {
		p = &Doc{Stamp: readStamp, Content: content, Structure: l.parser.Parse(content), readAt: readAt}
	}
	l.mu.Lock()
	l.cache[path] = p
	l.mu.Unlock()
	return p, nil
}

// uncached returns the paths of docs the parse cache does not hold.
func (l *Library) uncached(docs []domain.Document) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, d := range docs {
		if l.cache[d.Path] == nil {
			out = append(out, d.Path)
		}
	}
	return out
}

// forget drops the cached parses of paths.
func (l *Library) forget(paths []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range paths {
		delete(l.cache, p)
	}
}

// prune drops cached parses of files the catalog no longer lists (renamed
// or removed docs), once the cache holds more entries than the catalog has
// docs, so it never grows past the library.
func (l *Library) prune(cat *domain.Catalog) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.cache) <= len(cat.Docs) {
		return
	}
	keep := make(map[string]bool, len(cat.Docs))
	for _, d := range cat.Docs {
		keep[d.Path] = true
	}
	for p := range l.cache {
		if !keep[p] {
			delete(l.cache, p)
		}
	}
}

// OpenAll opens docs in parallel, keeping their order. A doc that cannot be
// opened has a nil entry and its error in errs.
func (l *Library) OpenAll(ctx context.Context, docs []domain.Document) ([]*Doc, []error) {
	l.WarmIfCold(ctx, docs)
	return l.openEach(ctx, docs, l.Open, nil)
}

// openEach opens docs with open on a few goroutines, keeping their order;
// spawn, when not nil, starts them (a build's, see buildGo).
func (l *Library) openEach(ctx context.Context, docs []domain.Document, open func(context.Context, domain.Document) (*Doc, error), spawn func(func())) ([]*Doc, []error) {
	out := make([]*Doc, len(docs))
	errs := make([]error, len(docs))
	workers := runtime.NumCPU() * 2
	if spawn == nil {
		spawn = func(fn func()) { go fn() }
	}
	if workers > len(docs) {
		workers = len(docs)
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		spawn(func() {
			defer wg.Done()
			for i := range next {
				out[i], errs[i] = open(ctx, docs[i])
			}
		})
	}
	for i := range docs {
		next <- i
	}
	close(next)
	wg.Wait()
	return out, errs
}

// maxDocBytes is the largest document file read: LIBRARY_MAX_DOC_BYTES, or
// domain.DefaultMaxDocBytes.
func (l *Library) maxDocBytes() int64 {
	if l.cfg.MaxDocBytes > 0 {
		return l.cfg.MaxDocBytes
	}
	return domain.DefaultMaxDocBytes
}

// docLimitSource names the setting behind the document size limit, so a
// too-large note says what to change.
func (l *Library) docLimitSource() string {
	if l.cfg.MaxDocBytesFrom != "" {
		return "set by " + l.cfg.MaxDocBytesFrom
	}
	return "the default; raise it with LIBRARY_MAX_DOC_BYTES or --max-doc-bytes"
}

// OpenNote words why a doc could not be opened, for a Notes: block.
func OpenNote(d domain.Document, err error) string {
	switch {
	case errors.Is(err, domain.ErrRefused):
		return fmt.Sprintf("refused: %s (%s): %v", d.ID, d.Path, err)
	case errors.Is(err, domain.ErrNotFound):
		return fmt.Sprintf("missing: %s (%s): file not found", d.ID, d.Path)
	case errors.Is(err, domain.ErrTooLarge):
		return fmt.Sprintf("too large: %s (%s): %s", d.ID, d.Path, strings.TrimPrefix(err.Error(), domain.ErrTooLarge.Error()+": "))
	default:
		return fmt.Sprintf("unreadable: %s (%s): %v", d.ID, d.Path, err)
	}
}
