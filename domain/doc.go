// Package domain is the centre of the hexagon: documents, their sections,
// code blocks and image stubs, catalogs and stamps, selectors and the targets
// they resolve to, scopes and library paths, and the pure rules over them
// (section ids, line ranges, outlines and the listing tree, seed 000's index
// validation, the sizes and limits every answer is held to). It does no I/O
// and knows no fx or MCP types; ports speak in these types and adapters
// translate their technology into them.
//
// Its parts with a concern of their own are packages below it:
//
//	domain/answer     the get_documents answer: chunks, overlaps, budget cuts, rendering
//	domain/textmatch  how a search matches text (literals, regexes, case folding)
//	domain/extract    the names and links a document holds, for the section index
//	domain/knowledge  the retrieval engine's vocabulary and the journal's records
//	domain/symlinks   the policy for symbolic links under a root
//	domain/wording    quoting, suggestions and plurals for a person
//
// The core imports only the standard library and domain/wording.
package domain
