// Package localretrieval is the retrieval port answered on this machine,
// over the library itself: seed 004's ten operations from the section index
// (ranked sections, names defined in the docs, links between docs) and the
// journal (told knowledge, gaps, guidance, the session log). It needs no
// model and no network: answers are extractive (the library's own lines,
// each with its doc, section, line range and a ready get_documents
// selector), never generated.
package localretrieval

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/domain/wording"
	"github.com/librarian/librarian/ports/docindex"
	"github.com/librarian/librarian/ports/journal"
	"github.com/librarian/librarian/ports/retrieval"
	"github.com/librarian/librarian/ports/sectionindex"
)

// Provider is the `provider` of every answer: the local, extractive engine.
const Provider = "librarian-local"

// Source is the `source` of every locate answer.
const Source = "index"

// Options are what the engine reads from.
type Options struct {
	// Index is the section index over the library (required).
	Index sectionindex.Index
	// Journal keeps what agents tell, the gaps they report, guidance and
	// the session log (required).
	Journal journal.Journal
	// Library, when set, gives the files' current stamps: a hit in a file
	// changed since it was indexed is `stale`, and status counts the files
	// changed since the index was built.
	Library docindex.Source
	// Refresh, when set, brings the index up to date with the library; it
	// is called before each read of the index (it should be cheap when
	// nothing changed). Its failure is logged in the answer, not fatal:
	// the index as it is still answers.
	Refresh func(ctx context.Context) error
	// GuidanceTTL is how long guidance applies: 0 means 12 hours.
	GuidanceTTL time.Duration
	// IndexName names the index in status for a person, by its kind and
	// library ("sqlite index of library 'docs'"), never by its path; ""
	// means "the section index".
	IndexName string
	// Logger gets the detail of failures answers leave out (what the
	// index's or journal's database said); nil means slog.Default().
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Engine is the local retrieval engine. Safe for concurrent use.
type Engine struct {
	ix      sectionindex.Index
	journal journal.Journal
	library docindex.Source
	refresh func(ctx context.Context) error
	ttl     time.Duration
	now     func() time.Time
	name    string
	logger  *slog.Logger

	mu         sync.Mutex
	cat        *domain.Catalog // the index's catalog, as of catKey
	catKey     domain.IndexStatus
	catChecked time.Time // when catKey was last compared with the index
	catByID    map[string]domain.Document
	catByKey   map[string]domain.Document // by path, path without .md, lower-case id
	catLower   []lowerDoc                 // the docs' names in lower case, for entry matching
}

var _ retrieval.Engine = (*Engine)(nil)

// New returns the engine over o.
func New(o Options) (*Engine, error) {
	if o.Index == nil || o.Journal == nil {
		return nil, errors.New("localretrieval: an index and a journal are required")
	}
	ttl := o.GuidanceTTL
	if ttl <= 0 {
		ttl = 12 * time.Hour
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	name := o.IndexName
	if name == "" {
		name = "the section index"
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.Default()
	}
	return &Engine{ix: o.Index, journal: o.Journal, library: o.Library, refresh: o.Refresh, ttl: ttl, now: now, name: name, logger: logger}, nil
}

// contain reduces *err, a failure of op, to what an answer may say. The
// caller's mistakes, a refused quota, a session of another token and a
// cancelled call pass as they are; anything else is the index's or the
// journal's database failing, whose message may name the database, its
// user, its host and port or a file's absolute path: that goes to the
// server's log, and the answer says only what failed.
func (e *Engine) contain(op string, err *error) {
	switch {
	case *err == nil, errors.Is(*err, domain.ErrInvalidArgument), errors.Is(*err, domain.ErrNotFound),
		errors.Is(*err, knowledge.ErrQuota), errors.Is(*err, context.Canceled), errors.Is(*err, context.DeadlineExceeded):
		return
	case unreachable(*err):
		e.logger.Warn("local engine: the index database is unreachable", "op", op, "error", (*err).Error())
		*err = fmt.Errorf("%w (%s): try again later; the server's log has the detail", knowledge.ErrStoreUnreachable, op)
	case errors.As(*err, new(*refreshError)):
		e.logger.Warn("local engine: refreshing the index failed", "op", op, "error", (*err).Error())
		*err = fmt.Errorf("%w (%s): refreshing the index from the library failed; the server's log has the detail", knowledge.ErrStoreFailed, op)
	default:
		e.logger.Warn("local engine: the index database failed", "op", op, "error", (*err).Error())
		*err = fmt.Errorf("%w (%s); the server's log has the detail", knowledge.ErrStoreFailed, op)
	}
}

// unreachable reports whether err is a database that did not answer: an
// adapter said so, or the connection failed (a network error anywhere in
// the chain, as pgx's connect errors wrap their dial).
func unreachable(err error) bool {
	var ne net.Error
	return errors.Is(err, knowledge.ErrStoreUnreachable) || errors.As(err, &ne) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// own checks that session belongs to the call's token (knowledge.OwnerOf),
// making it the token's when nobody used it yet: a session id is scoped to
// the token that made it, so another token can neither read nor steer it.
// A call without a session has nothing to check.
func (e *Engine) own(ctx context.Context, session string) error {
	if strings.TrimSpace(session) == "" {
		return nil
	}
	ok, err := e.journal.Claim(ctx, session, knowledge.OwnerOf(ctx), e.now().UTC())
	if err != nil {
		return fmt.Errorf("journal: session owner: %w", err)
	}
	if !ok {
		return fmt.Errorf("%w: no session '%s' for this token: a session belongs to the token that first used it; use a session id of your own",
			domain.ErrNotFound, wording.OneLine(session, 100))
	}
	return nil
}

// Limits on what one call may ask.
const (
	// MaxQueryBytes bounds a query, a task, a message, a subject.
	MaxQueryBytes = 8 << 10
	// MaxInfoBytes bounds what one tell, gap or guidance text may store.
	MaxInfoBytes = 32 << 10
	// MaxLocateLimit caps locate's limit; DefaultLocateLimit is seed 004's.
	MaxLocateLimit     = 100
	DefaultLocateLimit = 10
	// MaxLogRows caps one session_log answer.
	MaxLogRows = 1000
)

// invalid is the caller's mistake, named with the field and what to do.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", domain.ErrInvalidArgument, fmt.Sprintf(format, args...))
}

// checkText checks a required text field: not blank, not over max bytes.
func checkText(field, value string, max int, hint string) error {
	switch {
	case strings.TrimSpace(value) == "":
		return invalid("'%s' is empty: %s", field, hint)
	case len(value) > max:
		return invalid("'%s' is %d bytes, over the %d-byte limit: %s", field, len(value), max, "say it in fewer words")
	}
	return nil
}

// prepare refreshes the index when the engine was given a way to.
func (e *Engine) prepare(ctx context.Context) error {
	if e.refresh == nil {
		return nil
	}
	if err := e.refresh(ctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &refreshError{err}
	}
	return nil
}

// refreshError is a failed refresh of the index: the library's files or
// the index's database, which contain tells apart for the answer.
type refreshError struct{ err error }

func (e *refreshError) Error() string { return "refreshing the index: " + e.err.Error() }
func (e *refreshError) Unwrap() error { return e.err }

// catalogCheckEvery is how often the catalog's freshness is checked
// against the index's status (counting rows is not free on a big index):
// within it, a doc added or renamed in the index may be missed as an entry
// or shown by path instead of id; its hits are still found.
const catalogCheckEvery = 5 * time.Second

// catalog returns the index's catalog, read again only when the index's
// status (doc and section counts, size, build time) changed since the last
// read, checked at most once per catalogCheckEvery.
func (e *Engine) catalog(ctx context.Context) (*domain.Catalog, error) {
	e.mu.Lock()
	if e.cat != nil && e.now().Sub(e.catChecked) < catalogCheckEvery {
		cat := e.cat
		e.mu.Unlock()
		return cat, nil
	}
	e.mu.Unlock()
	st, err := e.ix.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("index status: %w", err)
	}
	e.mu.Lock()
	if e.cat != nil && e.catKey == st {
		cat := e.cat
		e.catChecked = e.now()
		e.mu.Unlock()
		return cat, nil
	}
	e.mu.Unlock()
	cat, err := e.ix.Catalog(ctx)
	if err != nil {
		return nil, fmt.Errorf("index catalog: %w", err)
	}
	lower := make([]lowerDoc, len(cat.Docs))
	for i, d := range cat.Docs {
		base := strings.TrimSuffix(d.Path[strings.LastIndexByte(d.Path, '/')+1:], ".md")
		lower[i] = lowerDoc{doc: d, id: strings.ToLower(d.ID), path: strings.ToLower(d.Path), base: strings.ToLower(base), title: strings.ToLower(d.Title)}
	}
	byID := make(map[string]domain.Document, len(cat.Docs))
	byKey := make(map[string]domain.Document, 3*len(cat.Docs))
	for _, d := range cat.Docs {
		byID[d.ID] = d
		byKey[d.Path] = d
		byKey[strings.TrimSuffix(d.Path, ".md")] = d
		if _, taken := byKey[strings.ToLower(d.ID)]; !taken {
			byKey[strings.ToLower(d.ID)] = d
		}
	}
	e.mu.Lock()
	e.cat, e.catKey, e.catByID, e.catByKey, e.catLower, e.catChecked = cat, st, byID, byKey, lower, e.now()
	e.mu.Unlock()
	return cat, nil
}

// lowerDoc is a catalog doc with its names in lower case.
type lowerDoc struct {
	doc                   domain.Document
	id, path, base, title string
}

// lowerDocs returns the catalog's docs with their names in lower case.
func (e *Engine) lowerDocs(ctx context.Context) ([]lowerDoc, error) {
	if _, err := e.catalog(ctx); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.catLower, nil
}

// docByPath returns the catalog's doc at path.
func (e *Engine) docByPath(ctx context.Context, path string) (domain.Document, bool) {
	if _, err := e.catalog(ctx); err != nil {
		return domain.Document{}, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	d, ok := e.catByKey[path]
	return d, ok && d.Path == path
}

// findDoc resolves an entry id: a doc id, a doc path, a path without .md,
// or an id in another case.
func (e *Engine) findDoc(ctx context.Context, id string) (domain.Document, bool, error) {
	if _, err := e.catalog(ctx); err != nil {
		return domain.Document{}, false, err
	}
	id = strings.TrimSpace(id)
	e.mu.Lock()
	defer e.mu.Unlock()
	if d, ok := e.catByID[id]; ok {
		return d, true, nil
	}
	for _, k := range []string{id, strings.TrimPrefix(id, "/"), strings.ToLower(id)} {
		if d, ok := e.catByKey[k]; ok {
			return d, true, nil
		}
	}
	return domain.Document{}, false, nil
}

// docID is the id of the doc at path, or the path when the catalog does
// not know it.
func (e *Engine) docID(ctx context.Context, path string) string {
	if d, ok := e.docByPath(ctx, path); ok {
		return d.ID
	}
	return path
}

// guidanceFor returns the session's guidance in force and its compiled
// exclude patterns (both zero when none): what ask, brief and locate filter
// by. The session must be the call's token's (own): another token's
// session is not found.
func (e *Engine) guidanceFor(ctx context.Context, session string) (knowledge.SessionGuidance, knowledge.Excludes, error) {
	if session == "" {
		return knowledge.SessionGuidance{}, knowledge.Excludes{}, nil
	}
	if err := e.own(ctx, session); err != nil {
		return knowledge.SessionGuidance{}, knowledge.Excludes{}, err
	}
	g, ok, err := e.journal.CurrentGuidance(ctx, session, e.now())
	if err != nil || !ok {
		return knowledge.SessionGuidance{}, knowledge.Excludes{}, err
	}
	// Stored guidance was checked when it was set, so its patterns parse.
	excludes, _ := knowledge.ParseExcludes(g.Exclude)
	return g, excludes, nil
}

// log records one interaction; a failure to log never fails the answer it
// logs (the answer was given), so it is dropped.
func (e *Engine) log(ctx context.Context, kind, query string, tags knowledge.EngineTags, served []string, g knowledge.SessionGuidance, excluded int, provider string) {
	if tags.Session == "" {
		return
	}
	_ = e.journal.Record(context.WithoutCancel(ctx), knowledge.LoggedInteraction{
		At: e.now().UTC(), Session: tags.Session, Owner: knowledge.OwnerOf(ctx), Caller: tags.Caller, Kind: kind, Query: wording.OneLine(query, 500),
		Served: served, GuidanceVersion: g.Version, ExcludedHits: excluded, Provider: provider,
	})
}
