// Package retrieval is the retrieval-engine port: a service that knows a
// whole machine's code (locations, answers, briefings, dependencies) and
// learns from agents, as seed 004 describes it. Adapters:
// adapters/httpretrieval (seed 004's HTTP+JSON contract, run against the
// wire suite retrievaltest.Run) and adapters/localretrieval (answered on
// this machine from the section index and the journal, run against the
// answers suite retrievaltest.RunLibrary, as is the HTTP client in front of
// adapters/engineapi serving it).
//
// The seed's engine is one service with ten operations. They are split here
// by what a caller wants from the engine, so a use case that needs only one
// role can ask for only that interface, and each role stays within the
// one-to-four-method size of the other ports; Engine joins the roles because
// the seed's tool set uses them all and one engine serves every one.
package retrieval

import (
	"context"

	"github.com/librarian/librarian/domain/knowledge"
)

// Answerer produces prose: briefings and answers.
type Answerer interface {
	// Brief returns a start-of-task briefing: what exists, what to reuse,
	// what is missing. A busy engine returns an answer with Busy set.
	Brief(ctx context.Context, q knowledge.BriefQuery) (knowledge.EngineAnswer, error)

	// Ask answers a question, grounded in the engine's indexes; a non-empty
	// History makes it one turn of a discussion. A busy engine returns an
	// answer with Busy set.
	Ask(ctx context.Context, q knowledge.AskQuery) (knowledge.EngineAnswer, error)
}

// Finder looks things up without changing the engine.
type Finder interface {
	// Locate returns where the query's function, route, config key, entry
	// or file is, hits in the engine's order (possibly none).
	Locate(ctx context.Context, q knowledge.LocateQuery) (knowledge.Locations, error)

	// Depends returns the dependents and dependencies of catalog entry id.
	Depends(ctx context.Context, entryID string) (knowledge.Dependencies, error)

	// Status returns the engine's health report, verbatim, and when its
	// index was built if it says.
	Status(ctx context.Context) (knowledge.EngineStatus, error)
}

// Learner takes knowledge from agents: what they know and what they missed.
type Learner interface {
	// Tell stores knowledge the engine lacked or got wrong.
	Tell(ctx context.Context, t knowledge.Tell) (knowledge.Receipt, error)

	// Gap records something the engine could not answer.
	Gap(ctx context.Context, g knowledge.Gap) (knowledge.Receipt, error)
}

// Steward is the lead session's side: guidance for its workers and the log
// of what they were served.
type Steward interface {
	// Guide registers guidance for the session. A rejection is not an error:
	// it is a receipt with Stored false and the engine's reason and reply.
	Guide(ctx context.Context, g knowledge.Guidance) (knowledge.GuidanceReceipt, error)

	// ClearGuide removes the session's guidance and reports whether there
	// was any to remove.
	ClearGuide(ctx context.Context, session string) (cleared bool, err error)

	// Interactions returns up to limit rows of the session's log, in the
	// engine's order.
	Interactions(ctx context.Context, session string, limit int) ([]knowledge.Interaction, error)
}

// Engine is a whole retrieval engine.
//
// Implementations are safe for concurrent use. Every method fails with an
// error wrapping knowledge.ErrEngineUnreachable (the engine could not be
// reached, after the retries the adapter allows), knowledge.ErrEngineSlow
// (no answer in time, not retried), knowledge.ErrEngineReply (an answer that
// does not fit the contract), a *knowledge.EngineStatusError (an HTTP error
// status, not retried), a *knowledge.EngineError (the engine's own `error`
// field), or the context's error when ctx ends first. An engine that
// answers itself (the local one) reports the caller's mistakes as
// domain.ErrInvalidArgument and an unknown entry as domain.ErrNotFound,
// each naming the field or the entry.
type Engine interface {
	Answerer
	Finder
	Learner
	Steward
}
