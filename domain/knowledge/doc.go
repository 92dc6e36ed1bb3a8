// Package knowledge is the retrieval engine's vocabulary (seed 004): what the
// librarian_* tools ask an engine (brief, locate, ask, discuss, depends,
// status) and what it answers, the knowledge agents give back (tell, gap,
// guidance and its excludes), and the journal's records of them. The
// retrieval and journal ports speak in these values; app/engine renders them
// to text. It imports the domain core, domain/wording and the standard
// library.
package knowledge
