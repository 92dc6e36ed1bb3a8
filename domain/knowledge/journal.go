package knowledge

import "time"

// Values of the journal (ports/journal): what a local retrieval engine
// learns from agents and keeps beside the section index. They are the
// engine's own records; the retrieval port's values (Tell, Gap, Guidance,
// Interaction) are what goes over seed 004's contract.

// Kinds of Knowledge.
const (
	KnowledgeTold = "tell"
	KnowledgeGap  = "gap"
)

// Knowledge is one thing an agent told the engine (Kind KnowledgeTold:
// Text is the info) or reported missing (KnowledgeGap: Text is what was
// missing). ID and At are set by the journal when it stores it.
type Knowledge struct {
	ID      int64
	Kind    string
	Subject string
	Text    string
	Tags    EngineTags
	At      time.Time
}

// SessionGuidance is a lead session's guidance as the engine holds it:
// Version counts the guidance stored for the session (1 for the first,
// never reused, even after a clear), ExpiresAt is when it stops applying.
type SessionGuidance struct {
	Session   string
	Caller    string
	Text      string
	Exclude   []string
	Expect    string
	Version   int
	SetAt     time.Time
	ExpiresAt time.Time
}

// LoggedInteraction is one row of a session's log as the engine records
// it; Interaction (its At a Moment) is how the contract carries it.
type LoggedInteraction struct {
	At              time.Time
	Session         string
	Caller          string
	Kind            string // locate, ask, brief, discuss, tell, gap, guide
	Query           string
	Served          []string
	GuidanceVersion int // 0: no guidance applied
	ExcludedHits    int
	Provider        string
}
