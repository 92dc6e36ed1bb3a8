package knowledge

import (
	"errors"
	"fmt"
	"time"

	"github.com/librarian/librarian/domain/wording"
)

// This file holds the values of seed 004's retrieval engine: what the
// librarian_* tools ask an engine and what it answers. They carry no HTTP
// detail; the retrieval port speaks in them and app renders them to text.

// EngineTags say who asks. Session is always set (CLAUDE_CODE_SESSION_ID or
// a random id per launch); Project and Caller are optional and, when empty,
// are not sent at all. Which call carries which tag is the adapter's
// business (seed 004's table).
type EngineTags struct {
	Session string
	Project string
	Caller  string
}

// LocateQuery asks where a function, route, config key, entry or file is.
type LocateQuery struct {
	Query string
	Limit int
	Tags  EngineTags
}

// BriefQuery asks for a start-of-task briefing.
type BriefQuery struct {
	Task string
	Tags EngineTags
}

// Turn is one message of a discussion: Role is "user" or "assistant".
type Turn struct {
	Role    string
	Content string
}

// AskQuery asks a grounded question. History holds the earlier turns of a
// discussion, oldest first; it is empty for a one-off question.
type AskQuery struct {
	Query   string
	History []Turn
	Tags    EngineTags
}

// Tell gives the engine knowledge it lacked or got wrong.
type Tell struct {
	Subject string
	Info    string
	Tags    EngineTags
}

// Gap reports something the engine could not answer.
type Gap struct {
	Subject string
	Missing string
	Tags    EngineTags
}

// Guidance is what a lead session registers for its workers: free text,
// hits to exclude, and what it expects them to find.
type Guidance struct {
	Text    string
	Exclude []string
	Expect  string
	Tags    EngineTags
}

// Busy is the engine's "come back later": it queued the request instead of
// answering. Position and ETA are known only when the engine gave them.
type Busy struct {
	Position    int
	HasPosition bool
	ETA         time.Duration
	HasETA      bool
}

// EngineAnswer is the answer to a brief or a question. When Busy is not nil
// the engine did not answer and Text is empty.
type EngineAnswer struct {
	Text     string
	Provider string
	Busy     *Busy
}

// Hit is one location found by locate. Line is 0 when the engine gave none;
// DependsOn is read for entries (Kind "entry") only.
type Hit struct {
	Kind      string
	Name      string
	File      string
	Line      int
	Signature string
	Stale     bool
	DependsOn []string
}

// Locations is the answer to locate, hits in the engine's order.
// ExcludedHits counts hits the session's guidance hid; Footer is free text.
type Locations struct {
	Source       string
	Hits         []Hit
	ExcludedHits int
	Footer       string
}

// Dependencies of one catalog entry: what depends on it and what it needs.
// Items are entry ids as the engine wrote them (non-string items as JSON).
type Dependencies struct {
	Dependents []string
	DependsOn  []string
}

// EngineStatus is the engine's health report: any JSON, kept verbatim, and
// the time its index was built when it said (zero otherwise).
type EngineStatus struct {
	JSON         []byte
	IndexBuiltAt time.Time
}

// Receipt is the engine's acknowledgement of a tell or a gap.
type Receipt struct {
	Stored string
}

// Moment is a time as an engine wrote it: At when it could be read as epoch
// seconds or RFC 3339, else the text itself in Text. Both empty: not given.
type Moment struct {
	At   time.Time
	Text string
}

// IsZero reports that no time was given.
func (m Moment) IsZero() bool { return m.At.IsZero() && m.Text == "" }

// GuidanceReceipt is the engine's answer to registering guidance. When
// Stored is false the engine rejected it: Reason is its reason (or detail),
// Status the HTTP status of a 4xx rejection (0 for a 2xx answer), and Body
// the engine's reply verbatim, so the agent sees exactly why.
type GuidanceReceipt struct {
	Stored    bool
	Version   string
	ExpiresAt Moment
	Reason    string
	Status    int
	Body      []byte
}

// Interaction is one row of a session's log: what a caller asked and was
// served, as far as the engine said. Every field is optional.
type Interaction struct {
	At              Moment
	Caller          string
	Kind            string
	GuidanceVersion string
	ExcludedHits    int
	Query           string
	Served          []string
	Provider        string
	Session         string
}

// Errors of a retrieval engine, wrapped with the endpoint and the engine's
// address so a message alone tells an agent what happened and where.
var (
	// ErrEngineUnreachable: the engine refused or dropped the connection on
	// every attempt.
	ErrEngineUnreachable = errors.New("engine unreachable")
	// ErrEngineSlow: the engine did not answer within the read timeout.
	ErrEngineSlow = errors.New("engine too slow")
	// ErrEngineReply: the engine answered something that is not the JSON
	// the contract describes (malformed, empty, too large, wrong shape).
	ErrEngineReply = errors.New("unexpected engine reply")
)

// EngineStatusError is an HTTP error status from the engine: "engine
// answered N". Body is the start of the engine's reply, for the message.
type EngineStatusError struct {
	Endpoint string // "GET /api/library/locate"
	Status   int
	Body     []byte
}

func (e *EngineStatusError) Error() string {
	msg := fmt.Sprintf("engine answered %d to %s", e.Status, e.Endpoint)
	if snippet := wording.OneLine(string(e.Body), 300); snippet != "" {
		msg += ": " + snippet
	}
	return msg
}

// EngineError is an answer whose `error` field is set: the engine took the
// request and reports its own failure. Message is the engine's text.
type EngineError struct {
	Endpoint string
	Message  string
}

func (e *EngineError) Error() string {
	return fmt.Sprintf("engine error (%s): %s", e.Endpoint, e.Message)
}
