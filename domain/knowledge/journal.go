package knowledge

import (
	"errors"
	"time"
)

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
// missing). ID and At are set by the journal when it stores it. Owner is
// the token that stored it (see WithOwner); Tags.Caller is only the name
// the caller gave itself, a label.
type Knowledge struct {
	ID      int64
	Kind    string
	Subject string
	Text    string
	Tags    EngineTags
	Owner   string
	At      time.Time
}

// SessionGuidance is a lead session's guidance as the engine holds it:
// Version counts the guidance stored for the session (1 for the first,
// never reused, even after a clear), ExpiresAt is when it stops applying.
type SessionGuidance struct {
	Session   string
	Owner     string // the token that set it
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
	Owner           string // the token that made the call
	Caller          string
	Kind            string // locate, ask, brief, discuss, tell, gap, guide
	Query           string
	Served          []string
	GuidanceVersion int // 0: no guidance applied
	ExcludedHits    int
	Provider        string
}

// Errors of the engine's own storage (its section index and journal).
var (
	// ErrQuota: the token holds as many told and gap records as the
	// journal lets one token hold; the message names the limit.
	ErrQuota = errors.New("journal quota reached")
	// ErrStoreUnreachable: the engine's database did not answer (down, or
	// the network to it is); worth trying again later. The answer says
	// what failed; who the server logs in as, and where, stay in its log.
	ErrStoreUnreachable = errors.New("the index database is unreachable")
	// ErrStoreFailed: the engine's database answered with a failure; the
	// detail is in the server's log.
	ErrStoreFailed = errors.New("the index database failed")
)
