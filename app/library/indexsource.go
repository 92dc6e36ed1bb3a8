package library

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/docindex"
	"github.com/librarian/librarian/ports/sectionindex"
)

// IndexSource serves a library from its section index alone: the index's
// catalog is the catalog and its stored bytes are the files. It is how a
// server with `LIBRARY_INDEX=postgres://…` and no library root answers
// every tool: stateless, read-only, any number of them behind a load
// balancer, while `librarian index --to …` keeps the database current.
// Safe for concurrent use.
type IndexSource struct {
	ix sectionindex.Store

	mu     sync.Mutex
	stamps map[string]domain.Stamp // from the last Catalog, for Stat
	// The index's last catalog and what Catalog made of it: an index may
	// return the same catalog while it is unchanged, and then so does
	// Catalog, without going over its docs again.
	lastIn, lastOut *domain.Catalog
}

var _ docindex.Source = (*IndexSource)(nil)

// NewIndexSource returns the index as a docindex.Source.
func NewIndexSource(ix sectionindex.Store) *IndexSource {
	return &IndexSource{ix: ix}
}

// Catalog returns the stored catalog: the docs with the stamps of the
// stored bytes, the folders and notes of the last indexing run.
func (s *IndexSource) Catalog(ctx context.Context) (*domain.Catalog, error) {
	c, err := s.ix.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	in := c
	s.mu.Lock()
	if s.lastIn == in {
		out := s.lastOut
		s.mu.Unlock()
		return out, nil
	}
	s.mu.Unlock()
	stamps := make(map[string]domain.Stamp, len(c.Docs))
	var docs []domain.Document // a copy, made only when a stamp must change
	for i, d := range c.Docs {
		if isUnsettled(d.Stamp) {
			if docs == nil {
				docs = append([]domain.Document(nil), c.Docs...)
			}
			docs[i].Stamp = settledStamp(d.Stamp)
		}
		stamps[d.Path] = settledStamp(d.Stamp)
	}
	if docs != nil {
		copied := *c
		copied.Docs = docs
		c = &copied
	}
	s.mu.Lock()
	s.stamps, s.lastIn, s.lastOut = stamps, in, c
	s.mu.Unlock()
	return c, nil
}

// Stat returns the stamp of the stored bytes of path.
func (s *IndexSource) Stat(ctx context.Context, path string) (domain.Stamp, error) {
	s.mu.Lock()
	st, ok := s.stamps[path]
	s.mu.Unlock()
	if ok {
		return st, nil
	}
	e, err := s.entry(ctx, path)
	if err != nil {
		return domain.Stamp{}, err
	}
	return settledStamp(e.Doc.Stamp), nil
}

// ReadFile returns the stored bytes of path and their stamp.
func (s *IndexSource) ReadFile(ctx context.Context, path string) ([]byte, domain.Stamp, error) {
	e, err := s.entry(ctx, path)
	if err != nil {
		return nil, domain.Stamp{}, err
	}
	return e.Content, settledStamp(e.Doc.Stamp), nil
}

// settledStamp is the file's own stamp of an entry an indexer stored under an
// unsettledStamp (its size is the file's again, so sizes and token estimates
// read right); other stamps are returned as they are. The serving process
// never refreshes, so it needs no mark to re-read the doc by.
func settledStamp(s domain.Stamp) domain.Stamp { return s.Settled() }

func (s *IndexSource) entry(ctx context.Context, path string) (sectionindex.Entry, error) {
	e, err := s.ix.Entry(ctx, path)
	if errors.Is(err, sectionindex.ErrNotIndexed) {
		return e, fmt.Errorf("%s: %w: the index holds no such document", path, domain.ErrNotFound)
	}
	return e, err
}

// servedFromIndex reports whether l reads its library from its section
// index alone (an IndexSource): the index is then current by construction
// (another process writes it) and this one never refreshes it.
func (l *Library) servedFromIndex() bool {
	_, ok := l.source.(*IndexSource)
	return ok
}
