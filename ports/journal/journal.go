// Package journal is the journal port: what a local retrieval engine learns
// from agents (seed 004's tell and gap), the guidance lead sessions give
// their workers, and the log of what each session was served. It lives
// beside the section index, never in the library folder.
//
// Every record carries its owner, the name of the token that made it ("" over
// stdio and on a server without tokens), and a session belongs to the owner
// that first used it (Sessions). A journal is bounded by its Limits: a quota
// of told and gap records per owner, a cap on them all, and a retention rule
// for the log, so no caller can make it grow without end.
//
// Adapters: adapters/sqlitejournal (in the index's SQLite file, or a file
// beside it), adapters/memjournal (in memory, LIBRARY_INDEX=off) and
// adapters/postgresjournal (the team's PostgreSQL database). Every adapter
// runs the contract suite in journaltest.
package journal

import (
	"context"
	"fmt"
	"time"

	"github.com/librarian/librarian/domain/knowledge"
)

// Limits bound what a journal keeps. A zero field is no bound.
type Limits struct {
	// OwnerRecords is how many told and gap records one owner may hold:
	// past it, Learn refuses with an error wrapping knowledge.ErrQuota.
	OwnerRecords int
	// Records is how many told and gap records the journal keeps in all:
	// past it, Learn drops the oldest (lowest ID) first.
	Records int
	// SessionRows is how many interactions a session's log keeps: past
	// it, Record drops the session's oldest.
	SessionRows int
	// OwnerRows is how many interactions one owner's sessions keep
	// together: past it, the owner's oldest are dropped. An adapter may
	// let up to OwnerRows/100 more gather between two prunes (counting an
	// owner's rows is not free), never more.
	OwnerRows int
	// MaxAge is how long interactions are kept: when Record stores a row,
	// rows older than MaxAge before its At are dropped, and sessions
	// unused for MaxAge (or left with neither log nor guidance) are
	// forgotten, their owner and guidance with them. Adapters prune at most
	// once a minute of the rows' time.
	MaxAge time.Duration
}

// Learnings keeps told knowledge and reported gaps.
type Learnings interface {
	// Learn stores k (Kind knowledge.KnowledgeTold or knowledge.KnowledgeGap,
	// Owner its token's name) and returns it with its new ID (unique,
	// increasing, never reused) and At (k.At when set, else now). When
	// k.Owner already holds Limits.OwnerRecords records it stores nothing
	// and returns an error wrapping knowledge.ErrQuota, whose message names
	// the limit and nothing of where the journal lives.
	Learn(ctx context.Context, k knowledge.Knowledge) (knowledge.Knowledge, error)

	// Knowledge returns up to limit stored records of kind, newest first
	// (limit <= 0: all of them).
	Knowledge(ctx context.Context, kind string, limit int) ([]knowledge.Knowledge, error)

	// Count is how many records of kind are stored, counted where they
	// are stored: no record is read.
	Count(ctx context.Context, kind string) (int, error)
}

// Guidance keeps one guidance per session.
type Guidance interface {
	// SetGuidance stores g as the session's guidance, replacing any, with
	// the session's next Version (one more than the last ever stored for
	// it) and returns what was stored. SetAt and ExpiresAt are kept as given.
	SetGuidance(ctx context.Context, g knowledge.SessionGuidance) (knowledge.SessionGuidance, error)

	// CurrentGuidance returns the session's guidance that has not expired
	// at now; ok is false when there is none.
	CurrentGuidance(ctx context.Context, session string, now time.Time) (g knowledge.SessionGuidance, ok bool, err error)

	// ClearGuidance removes the session's guidance and reports whether
	// there was one in force at now. Versions keep counting after a clear.
	ClearGuidance(ctx context.Context, session string, now time.Time) (bool, error)
}

// Log keeps the sessions' interactions.
type Log interface {
	// Record appends one interaction, then applies the log's Limits.
	Record(ctx context.Context, i knowledge.LoggedInteraction) error

	// Interactions returns the session's last limit interactions (limit
	// <= 0: all), oldest first.
	Interactions(ctx context.Context, session string, limit int) ([]knowledge.LoggedInteraction, error)
}

// Sessions ties each session id to the owner that first used it.
type Sessions interface {
	// Claim makes owner the session's owner when it has none and reports
	// whether owner holds it: false means another owner does, and the
	// caller must not read or change anything of that session. It marks the
	// session used at now (to the minute), for Limits.MaxAge. Two claims of
	// a new session at once, by two owners, give it to exactly one.
	Claim(ctx context.Context, session, owner string, now time.Time) (bool, error)
}

// Journal is a whole journal. Implementations are safe for concurrent use;
// Close releases it.
type Journal interface {
	Learnings
	Guidance
	Log
	Sessions
	Close() error
}

// QuotaError is Learn's refusal past a quota of limit records per owner,
// worded once for every adapter: it says what the limit is and who can
// change it, and nothing of where the journal lives.
func QuotaError(limit int) error {
	return fmt.Errorf("%w: this token already holds %d told and gap records, as many as one token may; the server's operator can raise the quota", knowledge.ErrQuota, limit)
}
