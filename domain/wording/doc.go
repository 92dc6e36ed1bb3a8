// Package wording is how answers and errors word things for a person: the
// caller's input quoted short and on one line (QuoteInput), did-you-mean
// suggestions (Suggest), plurals, line spans ("L18–38"), folder names and the
// Notes block. It knows nothing of documents and imports only the standard
// library.
package wording
