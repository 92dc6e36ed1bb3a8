// Package domain is the centre of the hexagon: documents, their sections,
// code blocks and image stubs, selectors, and the pure rules over them
// (section ids, line ranges, outlines, seed 000's index validation rules). It imports only the standard library:
// no I/O, no fx, no MCP types. Ports speak in these types; adapters translate
// their technology into them.
package domain
