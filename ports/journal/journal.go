// Package journal is the journal port: what a local retrieval engine learns
// from agents (seed 004's tell and gap), the guidance lead sessions give
// their workers, and the log of what each session was served. It lives
// beside the section index, never in the library folder.
//
// Adapters: adapters/sqlitejournal (in the index's SQLite file, or a file
// beside it) and adapters/memjournal (in memory, LIBRARY_INDEX=off); a
// PostgreSQL adapter follows the same contract. Every adapter runs the
// contract suite in journaltest.
package journal

import (
	"context"
	"time"

	"github.com/librarian/librarian/domain/knowledge"
)

// Learnings keeps told knowledge and reported gaps.
type Learnings interface {
	// Learn stores k (Kind knowledge.KnowledgeTold or knowledge.KnowledgeGap) and
	// returns it with its new ID (unique, increasing) and At (k.At when set,
	// else now).
	Learn(ctx context.Context, k knowledge.Knowledge) (knowledge.Knowledge, error)

	// Knowledge returns up to limit stored records of kind, newest first
	// (limit <= 0: all of them).
	Knowledge(ctx context.Context, kind string, limit int) ([]knowledge.Knowledge, error)
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
	// Record appends one interaction.
	Record(ctx context.Context, i knowledge.LoggedInteraction) error

	// Interactions returns the session's last limit interactions (limit
	// <= 0: all), oldest first.
	Interactions(ctx context.Context, session string, limit int) ([]knowledge.LoggedInteraction, error)
}

// Journal is a whole journal. Implementations are safe for concurrent use;
// Close releases it.
type Journal interface {
	Learnings
	Guidance
	Log
	Close() error
}
