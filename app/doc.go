// Package app is the home of Librarian's use cases, one package each, plain
// Go over the ports: no fx, no MCP types, no file access of their own. The
// driving adapters (adapters/mcpserver, adapters/cli) translate requests into
// their calls and the text they return into answers; app/appfx wires them.
//
//	app/library    the library the use cases read: the validated catalog, each
//	               doc's text and parse cached by file stamp, the section index
//	               kept in step (refresh, warming, candidates)
//	app/browse     list_documents, get_documents, list_tags, check
//	app/search     search_documents: string, regex and ranked, one answer shape
//	app/tscompat   the drop-in librarian-ts tools, byte for byte
//	app/engine     brief, locate, ask, discuss, depends, status, tell, gap,
//	               guide, the session log, gaps and eval, over a retrieval engine
//	app/localindex the local index files: listed, pruned (index --list, --prune)
//	app/config     the settings: every flag and environment variable, validated
//	app/appfx      the composition root (fx modules)
//
// The use cases import the domain, app/library and the ports, never each
// other; what two of them share lives in the domain (rules, rendering) or in
// domain/textmatch (how a line matches).
package app
