// Package library is the library as every use case reads it: the validated
// catalog of an index source (docindex) joined with the image index, each
// document's bytes and parse cached by its file stamp (a file changed or
// modified within the racy window is read again), and the section index
// (sectionindex) kept in step with the files: refreshed by stamps, warmed
// after a restart, asked which docs can hold a literal (IndexSkips), and able
// to serve a library from the index alone (IndexSource). The use cases under
// app/ import it; it imports the domain packages, the ports and the standard
// library, no use case.
package library
