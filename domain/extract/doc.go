// Package extract derives, from a document's text and structure, what the
// section index stores beside it: the names it defines or documents (Names,
// for librarian_locate: headings, code definitions, config keys, commands,
// routes, file names) and the links it writes to other docs (Links, and a
// LinkResolver that maps them to doc paths, for librarian_depends). Pure and
// linear in the size of the text. It imports the domain core and the
// standard library.
package extract
