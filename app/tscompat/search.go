// The librarian-ts searchDocuments tool: seed 001's search, body by body.

package tscompat

import (
	"context"
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/textmatch"
)

// SearchDocuments answers searchDocuments: the docs of a folder whose body
// matches the query.
func (l *Tools) SearchDocuments(ctx context.Context, req SearchRequest) (string, error) {
	if err := domain.CheckQuery(req.Query); err != nil {
		return "", err
	}
	pattern, err := tsPattern(req.Query, req.Mode, req.CaseSensitive)
	if err != nil {
		return "", err
	}
	cat, err := l.lib.Catalog(ctx)
	if err != nil {
		return "", err
	}
	docs := l.tsScopeOf(cat, req.Directory, req.Tags, req.Depth)
	q := tsCandidateQuery(req.Query, req.Mode, req.CaseSensitive)
	if skip := l.lib.IndexSkipsOf(ctx, cat, len(docs), func(i int) *domain.Document { return &docs[i].doc }, q); skip != nil {
		kept := docs[:0:0]
		for i, d := range docs {
			if !skip[i] {
				kept = append(kept, d)
			}
		}
		docs = kept
	}
	opened, err := l.tsOpenTexts(ctx, docs, false)
	if err != nil {
		return "", err
	}
	match := tsMatcher(pattern, req.Query, req.Mode, req.CaseSensitive)
	// The match is bounded like search_documents' scan: a time limit, and
	// the client's cancel or the session's end, checked between docs and
	// inside a long one.
	limited, cancel := context.WithTimeoutCause(ctx, l.lib.Config().SearchTimeLimit(), domain.ErrSearchTimeLimit)
	defer cancel()
	hits, examined := tsMatchAll(limited, opened, match, func() func(context.Context, string) bool {
		return tsMatcher(pattern, req.Query, req.Mode, req.CaseSensitive)
	}, func(ds []tsDoc) {
		texts := make([]*library.Doc, len(ds))
		for i, d := range ds {
			texts[i] = d.text
		}
		l.lib.Evict(texts...)
	})
	if limited.Err() != nil && ctx.Err() == nil {
		return "", fmt.Errorf("%w: searchDocuments stopped at its time limit (%s) after %d of %d documents: narrow query, directory, tags or depth",
			context.DeadlineExceeded, l.lib.Config().SearchTimeLimit(), examined, len(opened))
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if !req.IncludeContents {
		return l.tsRenderList(hits, "Narrow query, directory, tags or depth."), nil
	}
	return l.tsRenderContents(hits, "Narrow query, directory, tags or depth, or fetch them with getDocuments:"), nil
}

// tsMatchChunk is how many bodies a worker of tsMatchAll takes at a time.
const tsMatchChunk = 256

// tsMatchAll returns the docs whose body match accepts, in order, and how
// many bodies were matched whole before ctx ended (all unless it did).
// Past one chunk the bodies are matched on every CPU, each worker with a
// matcher of its own from newMatch (a matcher may keep scratch space).
// done is told of each chunk once its bodies are matched (the library then
// lets their pages go: memory that does not grow with the library).
func tsMatchAll(ctx context.Context, docs []tsDoc, match func(context.Context, string) bool, newMatch func() func(context.Context, string) bool, done func([]tsDoc)) ([]tsDoc, int) {
	matched := make([]bool, len(docs))
	var examined atomic.Int64
	var next atomic.Int64
	workers := min(runtime.GOMAXPROCS(0), (len(docs)+tsMatchChunk-1)/tsMatchChunk)
	var wg sync.WaitGroup
	for w := range max(workers, 1) {
		m := match
		if w > 0 {
			m = newMatch()
		}
		wg.Go(func() {
			for {
				lo := int(next.Add(tsMatchChunk)) - tsMatchChunk
				if lo >= len(docs) {
					return
				}
				hi := min(lo+tsMatchChunk, len(docs))
				for i := lo; i < hi; i++ {
					matched[i] = m(ctx, docs[i].bodyOf())
					if ctx.Err() != nil {
						return // this body's match was cut: not examined
					}
					examined.Add(1)
				}
				if done != nil {
					done(docs[lo:hi])
				}
			}
		})
	}
	wg.Wait()
	var hits []tsDoc
	for i, d := range docs {
		if matched[i] {
			hits = append(hits, d)
		}
	}
	return hits, int(examined.Load())
}

// tsMatcher is how a body is tested: a literal query (string mode, or a
// regex RE2 rejects) with strings.Contains or, ignoring case,
// domain.ContainsFold (the same Unicode simple folding as (?i), with no
// regexp); a regex with pattern, stopping (no match) when ctx is done
// during a long body.
func tsMatcher(pattern *regexp.Regexp, query, mode string, caseSensitive bool) func(context.Context, string) bool {
	flags := "(?i)"
	if caseSensitive {
		flags = ""
	}
	// tsPattern quotes a literal; a regex without metacharacters is one too.
	literal := pattern.String() == flags+regexp.QuoteMeta(query)
	switch {
	case !literal:
		return textmatch.NewBodyMatcher(pattern).Match
	case caseSensitive:
		return func(_ context.Context, body string) bool { return strings.Contains(body, query) }
	default:
		return func(_ context.Context, body string) bool { return textmatch.ContainsFold(body, query) }
	}
}

// tsPattern compiles a search query. A literal query, or a regex RE2
// rejects, is searched for as a literal; both are case-insensitive unless
// caseSensitive. As in the original (JavaScript, no 'm' or 's' flag), '^'
// and '$' anchor to the whole body and '.' does not match '\n'.
func tsPattern(query, mode string, caseSensitive bool) (*regexp.Regexp, error) {
	flags := "(?i)"
	if caseSensitive {
		flags = ""
	}
	switch mode {
	case "", "string":
	case "regex":
		if re, err := regexp.Compile(flags + query); err == nil {
			return re, nil
		}
	default:
		return nil, fmt.Errorf("%w: 'mode' must be \"string\" or \"regex\", got %q", domain.ErrInvalidArgument, mode)
	}
	re, err := regexp.Compile(flags + regexp.QuoteMeta(query))
	if err != nil {
		// Only a query that is not UTF-8 gets here.
		return nil, fmt.Errorf("%w: 'query' cannot be searched for: %v", domain.ErrInvalidArgument, err)
	}
	return re, nil
}
