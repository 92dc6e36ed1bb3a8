package search

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/textmatch"
)

// scanStreamed is the count of search for a library served from its index
// alone (library.StreamCandidates): the index sends the candidates' texts
// in path order, workers count each one's hits as it comes, and none is
// cached. Only the docs the answer shows are kept (parsed and views): the
// docs with hits up to the one where the counts reach budget (all of them
// when budget is 0), so the memory a search holds is bounded by its
// answer, not by its candidates. A doc the index does not send holds no
// match and is done; when ctx ends, only those before the last doc sent
// are. It returns false when the library does not stream.
func (l *Searcher) scanStreamed(ctx context.Context, cat *domain.Catalog, docs []domain.Document, m *matcher, q domain.CandidateQuery, budget int,
	parsed []*library.Doc, views []*textmatch.Text, counts []int, done []bool) (bool, error) {
	if !l.lib.StreamsCandidates() {
		return false, nil
	}
	if len(docs) < len(cat.Docs) {
		q.Paths = make([]string, len(docs))
		for i, d := range docs {
			q.Paths[i] = d.Path
		}
	}
	// docs are in path order, as the index sends them: a cursor finds each.
	sorted := slices.IsSortedFunc(docs, func(a, b domain.Document) int { return strings.Compare(a.Path, b.Path) })
	var byPath map[string]int
	if !sorted {
		byPath = make(map[string]int, len(docs))
		for i, d := range docs {
			byPath[d.Path] = i
		}
	}
	type job struct {
		i int
		p *library.Doc
	}
	workers := max(runtime.GOMAXPROCS(0), 1)
	jobs := make(chan job, 2*workers)
	var keptMu sync.Mutex
	var kept []int // indexes of docs with hits that the answer may show, in order
	keep := func(i int, p *library.Doc, v *textmatch.Text) {
		keptMu.Lock()
		defer keptMu.Unlock()
		at, _ := slices.BinarySearch(kept, i)
		sum := 0
		for _, k := range kept[:at] {
			sum += counts[k]
		}
		if budget > 0 && sum >= budget {
			return // docs before it with hits fill the answer already
		}
		parsed[i], views[i] = p, v
		kept = slices.Insert(kept, at, i)
		if budget == 0 {
			return
		}
		sum = 0
		for n, k := range kept {
			sum += counts[k]
			if sum >= budget {
				for _, gone := range kept[n+1:] {
					parsed[gone], views[gone] = nil, nil
				}
				kept = kept[:n+1]
				break
			}
		}
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if ctx.Err() != nil {
					continue
				}
				v := textmatch.NewText(j.p.Content)
				n := m.scan(ctx, j.p, v, -1, nil)
				if ctx.Err() != nil {
					continue
				}
				keptMu.Lock()
				counts[j.i], done[j.i] = n, true
				keptMu.Unlock()
				if n > 0 {
					keep(j.i, j.p, v)
				}
			}
		}()
	}
	sent := make([]bool, len(docs))
	cursor := 0 // docs before it are sent or proven without a match
	_, err := l.lib.StreamCandidates(ctx, q, func(p *library.Doc, path string) error {
		i, ok := 0, false
		if sorted {
			for cursor < len(docs) && docs[cursor].Path < path {
				done[cursor] = true // not a candidate
				cursor++
			}
			i, ok = cursor, cursor < len(docs) && docs[cursor].Path == path
			if ok {
				cursor++
			}
		} else {
			i, ok = byPath[path]
		}
		if !ok {
			return nil // changed since the catalog was read, or out of scope
		}
		sent[i] = true
		select {
		case jobs <- job{i, p}:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	close(jobs)
	wg.Wait()
	if err != nil && ctx.Err() == nil {
		return true, err
	}
	if err == nil {
		// Every candidate was sent: the others hold no match.
		for i := range done {
			if !sent[i] {
				done[i] = true
			}
		}
	}
	return true, nil
}
