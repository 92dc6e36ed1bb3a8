// Package memjournal is the journal port in memory (LIBRARY_INDEX=off):
// what the local engine learns lasts as long as the process, within the
// same limits as a journal on disk, so memory stays bounded too.
package memjournal

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/journal"
)

// Journal holds everything in maps and slices behind one lock. Every count
// the limits need is kept as it changes, so no call reads all records.
type Journal struct {
	limits journal.Limits

	mu        sync.Mutex
	nextID    int64
	knowledge []knowledge.Knowledge                // by ID; the oldest are dropped from the front
	kinds     map[string]int                       // records by kind
	held      map[string]int                       // records by owner
	guidance  map[string]knowledge.SessionGuidance // current, by session
	versions  map[string]int                       // last version ever stored, by session
	logs      map[string][]row                     // by session, oldest first
	rows      map[string]int                       // log rows by owner
	unpruned  map[string]int                       // log rows by owner since its last prune
	sessions  map[string]claim
	seq       uint64
	prunedAt  time.Time // the row time of the last age prune
}

type row struct {
	seq uint64 // order of recording, across sessions
	knowledge.LoggedInteraction
}

type claim struct {
	owner string
	used  time.Time
}

var _ journal.Journal = (*Journal)(nil)

// New returns an empty journal bounded by l.
func New(l journal.Limits) *Journal {
	return &Journal{limits: l, kinds: map[string]int{}, held: map[string]int{},
		guidance: map[string]knowledge.SessionGuidance{}, versions: map[string]int{},
		logs: map[string][]row{}, rows: map[string]int{}, unpruned: map[string]int{}, sessions: map[string]claim{}}
}

// Learn implements journal.Learnings.
func (j *Journal) Learn(ctx context.Context, k knowledge.Knowledge) (knowledge.Knowledge, error) {
	if err := ctx.Err(); err != nil {
		return knowledge.Knowledge{}, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if q := j.limits.OwnerRecords; q > 0 && j.held[k.Owner] >= q {
		return knowledge.Knowledge{}, journal.QuotaError(q)
	}
	j.nextID++
	k.ID = j.nextID
	if k.At.IsZero() {
		k.At = time.Now().UTC()
	}
	j.knowledge = append(j.knowledge, k)
	j.kinds[k.Kind]++
	j.held[k.Owner]++
	for c := j.limits.Records; c > 0 && len(j.knowledge) > c; {
		old := j.knowledge[0]
		j.kinds[old.Kind]--
		if j.held[old.Owner]--; j.held[old.Owner] == 0 {
			delete(j.held, old.Owner)
		}
		j.knowledge[0] = knowledge.Knowledge{} // let its text go
		j.knowledge = j.knowledge[1:]
	}
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

// Count implements journal.Learnings.
func (j *Journal) Count(ctx context.Context, kind string) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.kinds[kind], nil
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
	j.seq++
	log := append(j.logs[i.Session], row{seq: j.seq, LoggedInteraction: i})
	j.rows[i.Owner]++
	for c := j.limits.SessionRows; c > 0 && len(log) > c; {
		j.dropped(log[0].Owner)
		log[0] = row{} // let its text go; append moves the rest on when it grows
		log = log[1:]
	}
	j.logs[i.Session] = log
	if c := j.limits.OwnerRows; c > 0 {
		j.unpruned[i.Owner]++
		if j.unpruned[i.Owner] > c/100 {
			j.unpruned[i.Owner] = 0
			j.pruneOwner(i.Owner, c)
		}
	}
	if i.At.Sub(j.prunedAt) >= time.Minute || j.prunedAt.IsZero() {
		j.prunedAt = i.At
		j.pruneAge(i.At)
	}
	return nil
}

// dropped counts one row of owner gone.
func (j *Journal) dropped(owner string) {
	if j.rows[owner]--; j.rows[owner] <= 0 {
		delete(j.rows, owner)
		delete(j.unpruned, owner)
	}
}

// pruneOwner keeps owner's newest c rows, all sessions together.
func (j *Journal) pruneOwner(owner string, c int) {
	if j.rows[owner] <= c {
		return
	}
	var seqs []uint64
	for _, log := range j.logs {
		for _, r := range log {
			if r.Owner == owner {
				seqs = append(seqs, r.seq)
			}
		}
	}
	slices.Sort(seqs)
	cut := seqs[len(seqs)-c-1] // the newest row to drop
	j.filter(func(r row) bool { return r.Owner != owner || r.seq > cut })
}

// pruneAge drops rows older than MaxAge before now, and forgets the
// sessions unused for that long or left with neither log nor guidance.
func (j *Journal) pruneAge(now time.Time) {
	if j.limits.MaxAge > 0 {
		cutoff := now.Add(-j.limits.MaxAge)
		j.filter(func(r row) bool { return !r.At.Before(cutoff) })
		for s, c := range j.sessions {
			if c.used.Before(cutoff) {
				j.forget(s)
			}
		}
	}
	for s, c := range j.sessions {
		g, guided := j.guidance[s]
		if len(j.logs[s]) == 0 && (!guided || !now.Before(g.ExpiresAt)) && c.used.Before(now.Add(-time.Minute)) {
			j.forget(s)
		}
	}
}

// filter keeps the rows for which keep is true.
func (j *Journal) filter(keep func(row) bool) {
	for s, log := range j.logs {
		kept := log[:0:0]
		for _, r := range log {
			if keep(r) {
				kept = append(kept, r)
			} else {
				j.dropped(r.Owner)
			}
		}
		if len(kept) == 0 {
			delete(j.logs, s)
		} else if len(kept) < len(log) {
			j.logs[s] = kept
		}
	}
}

// forget drops a session: its owner, log and guidance.
func (j *Journal) forget(session string) {
	for _, r := range j.logs[session] {
		j.dropped(r.Owner)
	}
	delete(j.logs, session)
	delete(j.sessions, session)
	delete(j.guidance, session)
	delete(j.versions, session)
}

// Interactions implements journal.Log.
func (j *Journal) Interactions(ctx context.Context, session string, limit int) ([]knowledge.LoggedInteraction, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	log := j.logs[session]
	if limit > 0 && len(log) > limit {
		log = log[len(log)-limit:]
	}
	out := make([]knowledge.LoggedInteraction, 0, len(log))
	for _, r := range log {
		i := r.LoggedInteraction
		i.Served = slices.Clone(i.Served)
		out = append(out, i)
	}
	return out, nil
}

// Claim implements journal.Sessions.
func (j *Journal) Claim(ctx context.Context, session, owner string, now time.Time) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	c, ok := j.sessions[session]
	if ok && c.owner != owner {
		return false, nil
	}
	if !ok || now.After(c.used) {
		j.sessions[session] = claim{owner: owner, used: now}
	}
	return true, nil
}

// Close implements journal.Journal; a memory journal has nothing to release.
func (j *Journal) Close() error { return nil }
