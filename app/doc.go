// Package app holds Librarian's use cases: list, get, search and tags over a
// library, and the engine tools over a retrieval engine. It is plain Go over
// the ports (docindex, markdown, imagestore, retrieval): no fx, no MCP types,
// no file access of its own. The driving adapters (adapters/mcpserver,
// adapters/cli) translate requests into these calls and the text they return
// into answers.
package app
