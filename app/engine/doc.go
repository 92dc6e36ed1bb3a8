// Package engine holds the engine use cases of seed 004 over a retrieval
// engine (ports/retrieval), remote or local: brief, locate, ask, discuss
// (with its threads), depends, status, tell, gap, guide and the session log,
// each rendered to the text an agent reads; gaps for maintainers; and eval,
// which scores an engine's answers against a question set. It imports the
// domain packages, the retrieval port and the standard library, no other use
// case.
package engine
