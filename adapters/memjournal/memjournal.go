// Package memjournal is the journal port in memory (LIBRARY_INDEX=off):
// what the local engine learns lasts as long as the process.
package memjournal

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/journal"
)

// Journal holds everything in maps and slices behind one lock.
type Journal struct {
	mu        sync.Mutex
	nextID    int64
	knowledge []knowledge.Knowledge
	guidance  map[string]knowledge.SessionGuidance // current, by session
	versions  map[string]int                       // last version ever stored, by session
	log       []knowledge.LoggedInteraction
}

var _ journal.Journal = (*Journal)(nil)

// New returns an empty journal.
func New() *Journal {
	return &Journal{guidance: map[string]knowledge.SessionGuidance{}, versions: map[string]int{}}
}

// Learn implements journal.Learnings.
func (j *Journal) Learn(ctx context.Context, k knowledge.Knowledge) (knowledge.Knowledge, error) {
	if err := ctx.Err(); err != nil {
		return knowledge.Knowledge{}, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.nextID++
	k.ID = j.nextID
	if k.At.IsZero() {
		k.At = time.Now().UTC()
	}
	j.knowledge = append(j.knowledge, k)
	return k, nil
}

// Knowledge implements journal.Learnings.
func (j *Journal) Knowledge(ctx context.Context, kind string, limit int) ([]knowledge.Knowledge, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []knowledge.Knowledge
	for i := len(j.knowledge) - 1; i >= 0 && (limit <= 0 || len(out) < limit); i-- {
		if j.knowledge[i].Kind == kind {
			out = append(out, j.knowledge[i])
		}
	}
	return out, nil
}

// SetGuidance implements journal.Guidance.
func (j *Journal) SetGuidance(ctx context.Context, g knowledge.SessionGuidance) (knowledge.SessionGuidance, error) {
	if err := ctx.Err(); err != nil {
		return knowledge.SessionGuidance{}, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.versions[g.Session]++
	g.Version = j.versions[g.Session]
	g.Exclude = slices.Clone(g.Exclude)
	j.guidance[g.Session] = g
	return g, nil
}

// CurrentGuidance implements journal.Guidance.
func (j *Journal) CurrentGuidance(ctx context.Context, session string, now time.Time) (knowledge.SessionGuidance, bool, error) {
	if err := ctx.Err(); err != nil {
		return knowledge.SessionGuidance{}, false, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	g, ok := j.guidance[session]
	if !ok || !now.Before(g.ExpiresAt) {
		return knowledge.SessionGuidance{}, false, nil
	}
	g.Exclude = slices.Clone(g.Exclude)
	return g, true, nil
}

// ClearGuidance implements journal.Guidance.
func (j *Journal) ClearGuidance(ctx context.Context, session string, now time.Time) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	g, ok := j.guidance[session]
	delete(j.guidance, session)
	return ok && now.Before(g.ExpiresAt), nil
}

// Record implements journal.Log.
func (j *Journal) Record(ctx context.Context, i knowledge.LoggedInteraction) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	i.Served = slices.Clone(i.Served)
	j.log = append(j.log, i)
	return nil
}

// Interactions implements journal.Log.
func (j *Journal) Interactions(ctx context.Context, session string, limit int) ([]knowledge.LoggedInteraction, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []knowledge.LoggedInteraction
	for i := len(j.log) - 1; i >= 0 && (limit <= 0 || len(out) < limit); i-- {
		if j.log[i].Session == session {
			row := j.log[i]
			row.Served = slices.Clone(row.Served)
			out = append(out, row)
		}
	}
	slices.Reverse(out)
	return out, nil
}

// Close implements journal.Journal; a memory journal has nothing to release.
func (j *Journal) Close() error { return nil }
