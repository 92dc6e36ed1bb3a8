// Package sectionindex is the section-index port: the library's persistent
// memory of its documents (catalog entries with their stamps), their parsed
// structure (sections, code blocks, image stubs), their text, the names
// they define and the links between them, updated per file by stamp.
//
// It answers what a scan over every file would otherwise answer: the parse
// of a doc, candidate docs for a literal or regex search (always verified by
// the caller's own matcher, so an index only narrows, never decides), ranked
// sections for a query in words, names defined in docs, and which docs link
// to a doc.
//
// Adapters: adapters/sqlitesectionindex (embedded, one file per library),
// adapters/memsectionindex (in memory, LIBRARY_INDEX=off) and, for teams,
// adapters/postgressectionindex. Every adapter runs the contract suite in
// sectionindextest. The port is shaped for a server database as much as an
// embedded one: every method takes a context, batches are explicit, and
// nothing assumes the index and the library share a process or a disk.
package sectionindex

import (
	"context"
	"errors"

	"github.com/librarian/librarian/domain"
)

// ErrNotIndexed: the index holds no entry for the asked-for document.
var ErrNotIndexed = errors.New("not indexed")

// Entry is one document as stored: its catalog entry (with the stamp of
// the bytes stored), its bytes and their parse, and what the indexer derived
// from them.
type Entry struct {
	Doc       domain.Document
	Content   []byte
	Structure domain.Structure
	// Names are the names the doc defines or documents (headings, code
	// identifiers, routes, config keys, file paths), for Names lookups and
	// as a ranked-search column.
	Names []domain.Name
	// Links are the library paths the doc links to (markdown and wiki
	// links that resolve to a doc of the library), deduplicated.
	Links []string
}

// Text is a stored document's bytes with what reading its body needs: the
// stamp the bytes were stored with and the line its frontmatter block ends
// on (domain.Structure.FrontmatterEnd: 0 when it has none).
type Text struct {
	Path           string
	Stamp          domain.Stamp
	Content        []byte
	FrontmatterEnd int
}

// Stored is what a refresh compares a library's doc with: the stamp of
// the bytes stored (Entry.Doc.Stamp) and the stored entry's
// Doc.DescriptionHash (its title and tags, which may change while its
// file does not).
type Stored struct {
	Stamp           domain.Stamp
	DescriptionHash uint64
}

// Update is one batch of changes. Each entry's write is atomic on its own
// (a reader sees a document's old or new state, never a mix), and a batch
// that fails part-way leaves the entries it did not reach as they were.
type Update struct {
	// Put stores or replaces these documents (keyed by Doc.Path).
	Put []Entry
	// Remove deletes the documents at these paths (absent ones are fine).
	Remove []string
	// Folders, when not nil, replaces the stored folder descriptions.
	Folders map[string]domain.Folder
	// Notes, when not nil, replaces the stored catalog notes.
	Notes []string
	// BuiltAt, when not zero, records when this refresh of the whole
	// library finished (domain.IndexStatus.BuiltAt).
	BuiltAt int64
	// Pause, when not nil, may be called between documents while the
	// update is written, by each goroutine that writes: a build waits in
	// it for the calls being answered, so that they get the cores. It
	// returns soon (it bounds its own wait); readers must not wait for it.
	Pause func()
	// Go, when not nil, runs fn on a goroutine, for each goroutine the
	// update writes with besides the caller's: a build gives goroutines
	// the system runs after the calls' (nil: go fn()).
	Go func(fn func())
}

// Store is the memory: what the index holds and how it changes.
type Store interface {
	// Catalog returns the stored catalog: docs in path order with the
	// stamps they were stored with, folders and notes. An empty index has
	// no docs (not an error). The catalog may be shared (the same one to
	// every call while the index is unchanged): read it, never change it.
	Catalog(ctx context.Context) (*domain.Catalog, error)

	// Entry returns the stored document at path (relative to the library
	// root). A path the index does not hold wraps ErrNotIndexed.
	Entry(ctx context.Context, path string) (Entry, error)

	// Entries calls fn with every stored document, in path order, as Entry
	// returns them, stopping at fn's first error (which it returns): one
	// pass to load a whole library after a restart, where a call per doc
	// would cost a round trip each.
	Entries(ctx context.Context, fn func(Entry) error) error

	// Parses is Entries without what the indexer derived: each Entry's
	// Names and Links are nil. Loading a parse cache needs only the doc,
	// its bytes and their structure, and decoding the rest is a third of
	// the pass.
	Parses(ctx context.Context, fn func(Entry) error) error

	// Texts calls fn with every stored document's text, in path order,
	// stopping at fn's first error (which it returns): the bytes without
	// their parse, what a search over the whole library reads. A restart
	// loads them in one pass, an order of magnitude cheaper than Parses.
	Texts(ctx context.Context, fn func(Text) error) error

	// Stamps returns, by path, the stamp each stored document was stored
	// with and the hash of its description (Stored): what a refresh
	// compares the library's docs with.
	Stamps(ctx context.Context) (map[string]Stored, error)

	// Apply writes one batch of changes.
	Apply(ctx context.Context, u Update) error

	// Status reports the index's size and when it was last built.
	Status(ctx context.Context) (domain.IndexStatus, error)
}

// Searcher answers searches from what the Store holds.
type Searcher interface {
	// Candidates returns the paths (in path order) of the stored docs whose
	// text may match q: every doc that does match is among them; some that
	// do not may be too. all is true when the index cannot narrow q (a
	// literal shorter than the index's grams, say): every doc is a
	// candidate and paths is nil.
	Candidates(ctx context.Context, q domain.CandidateQuery) (paths []string, all bool, err error)

	// Ranked returns up to q.Limit sections, best first (Score higher is
	// better), for a query in words (BM25: the doc title and the section's
	// heading path weigh above its body; code identifiers are a column of
	// their own, matched whole and by their parts; English stemming). A
	// section is matched by its own text: its lines before its first
	// subsection, so a parent never repeats its children's hits. Any text
	// is a valid query (search syntax is not interpreted); one with no
	// searchable word answers nothing.
	Ranked(ctx context.Context, q domain.RankedQuery) ([]domain.RankedSection, error)
}

// TextCandidates is what a Searcher whose store is another process (a
// database server) may add: the candidates' texts sent with them, so that a
// search served from the index alone needs no round trip per doc and keeps
// none of the texts it has matched (a regex whose literals are in most docs
// otherwise loads most of the library into the server's memory). Callers
// find it by a type assertion; an index without it answers Candidates.
type TextCandidates interface {
	// CandidateTexts calls fn with the Text of each stored doc that may
	// match q, in path order, once each: every doc Candidates would name,
	// and every stored doc (in q.Paths, when set) when Candidates would
	// answer all; it may send more (every doc, when narrowing would cost
	// more than it saves), never a doc outside q.Paths. It stops at fn's
	// first error, which it returns. fn may keep what it is given.
	CandidateTexts(ctx context.Context, q domain.CandidateQuery, fn func(Text) error) error
}

// Lookup finds names and links.
type Lookup interface {
	// Names returns up to limit stored names matching query, exact matches
	// (case-insensitive) before partial ones, then by path and line.
	Names(ctx context.Context, query string, limit int) ([]domain.NameHit, error)

	// LinksTo returns the paths of the stored docs that link to path, in
	// path order.
	LinksTo(ctx context.Context, path string) ([]string, error)
}

// Index is a whole section index. Implementations are safe for concurrent
// use; Close releases it.
type Index interface {
	Store
	Searcher
	Lookup
	Close() error
}

// Evicter is implemented by an index whose Texts are slices of a mapped
// file: Evict tells it that texts it gave will not be read again soon, so
// that their pages leave the process's memory (they are read again from
// the file, the same bytes, when they are); it may evict the pages between
// them too. Any other bytes are left alone. A search over the whole library
// evicts the texts it has matched as it goes, a group at a time, so that
// the memory it holds does not grow with the library.
type Evicter interface {
	Evict(contents ...[]byte)
}
