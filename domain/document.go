package domain

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"
)

// Document is one markdown file of the library as its index source describes
// it. Path is relative to the library root, '/'-separated.
type Document struct {
	ID      string
	Path    string
	Title   string
	Summary string
	// Tokens is the approximate token count. When HasTokens is false the
	// source gave none and callers estimate it with EstimateTokens.
	Tokens    int
	HasTokens bool
	// Tags in the order the convention defines (inherited first), no duplicates.
	Tags []string
	// Stamp is the file's stamp as the source saw it during the Catalog call
	// that returned this Document (zero when the source did not look), so
	// callers need not stat the file again.
	Stamp Stamp
}

// Folder describes a directory of the library, as an index.md file does in
// the frontmatter convention. Path is relative to the root, "" for the root.
type Folder struct {
	Path    string
	Title   string
	Summary string
	Tags    []string
}

// Catalog is what an index source knows about a library at one moment: its
// documents in path order, descriptions of folders, notes about entries
// it refused or could only partly read (never fatal, but problems for
// `librarian check`), and warnings: what is worth a look yet served as
// written, such as two index entries with the same path (an alias), which
// check prints and which fail nothing.
type Catalog struct {
	Docs     []Document
	Folders  map[string]Folder
	Notes    []string
	Warnings []string
}

// Stamp identifies one version of a file without reading it: two equal
// stamps mean the file has not changed, so a cached parse can be reused.
// Fields a platform does not expose stay zero.
type Stamp struct {
	Size    int64
	ModTime time.Time
	// Inode tells a file replaced by rename (as editors save) from the old
	// one even when size and time agree.
	Inode uint64
	// Changed is the inode change time (ctime). User space cannot set it:
	// an in-place edit of the same size whose modification time was put
	// back (touch -r, cp -p, rsync --inplace -t) still changes it.
	Changed time.Time
}

// Equal reports whether s and o stamp the same version of a file: every
// field equal, times compared as instants.
func (s Stamp) Equal(o Stamp) bool {
	return s.Size == o.Size && s.ModTime.Equal(o.ModTime) && s.Inode == o.Inode && s.Changed.Equal(o.Changed)
}

// Unsettled is the stamp a section index stores for a file read so soon
// after its modification that its stamp cannot prove its bytes (within one
// timestamp tick of an edit): no file has it (its size is negative), so
// whoever compares it with a file's stamp reads the file again, while
// Settled still recovers the stamp of the bytes that were read.
func (s Stamp) Unsettled() Stamp {
	if s.Size >= 0 {
		s.Size = -1 - s.Size
	}
	return s
}

// IsUnsettled reports whether s came from Unsettled.
func (s Stamp) IsUnsettled() bool { return s.Size < 0 }

// Settled is the stamp of the bytes an Unsettled stamp was made from; any
// other stamp is returned as it is.
func (s Stamp) Settled() Stamp {
	if s.Size < 0 {
		s.Size = -1 - s.Size
	}
	return s
}

// EstimateTokens is the token estimate used wherever an index gives none:
// bytes / 4, rounded up.
func EstimateTokens(size int64) int {
	if size <= 0 {
		return 0
	}
	return int((size + 3) / 4)
}

// Sentinel errors. Adapters wrap theirs so callers can test with errors.Is.
var (
	// ErrNotFound: a document, section, image or file that does not exist.
	ErrNotFound = errors.New("not found")
	// ErrRefused: a path that is malformed or resolves outside where it must stay.
	ErrRefused = errors.New("refused")
	// ErrInvalidSelector: a selector that does not fit the grammar.
	ErrInvalidSelector = errors.New("invalid selector")
	// ErrInvalidArgument: any other argument a caller got wrong.
	ErrInvalidArgument = errors.New("invalid argument")
)

// ErrOutsideRoot: a file that resolves outside the library root, by '..'
// or by a symlink. It is a refusal: errors.Is(err, ErrRefused) holds too.
var ErrOutsideRoot = fmt.Errorf("%w: outside the library root", ErrRefused)

// Problem is one validation problem of an index file, tied to its entry.
// Where is e.g. "documents[3] (id 'dots')", or "index.json:4:7" for syntax.
type Problem struct {
	Where   string
	Message string
}

func (p Problem) String() string {
	if p.Where == "" {
		return p.Message
	}
	return p.Where + ": " + p.Message
}

// IndexError lists every problem found in a library's index files. A call
// that meets one fails with all of them, never with the first only.
type IndexError struct {
	File     string
	Problems []Problem
}

func (e *IndexError) Error() string {
	var b strings.Builder
	verb := "is"
	if strings.Contains(e.File, " and ") {
		verb = "are"
	}
	fmt.Fprintf(&b, "%s %s invalid (%d problem", e.File, verb, len(e.Problems))
	if len(e.Problems) != 1 {
		b.WriteString("s")
	}
	b.WriteString("):")
	for _, p := range e.Problems {
		b.WriteString("\n- ")
		b.WriteString(p.String())
	}
	return b.String()
}

// JoinIndexErrors merges the problems of several index errors (the doc index
// and the image index) into one error; nil when there are none.
func JoinIndexErrors(errs ...*IndexError) error {
	var files []string
	var all []Problem
	for _, e := range errs {
		if e == nil || len(e.Problems) == 0 {
			continue
		}
		files = append(files, e.File)
		all = append(all, e.Problems...)
	}
	if len(all) == 0 {
		return nil
	}
	return &IndexError{File: strings.Join(files, " and "), Problems: all}
}

// Image is one entry of an image index: File is relative to the index's
// folder, Path (filled by the store) relative to the library root.
type Image struct {
	ID      string
	File    string
	Path    string
	Caption string
}

// ErrTooLarge: a file over a configured size limit.
var ErrTooLarge = errors.New("too large")

// The sizes an answer shows beside a doc or a section, so an agent can
// choose what to fetch: get_documents' own count (bytes / 4, rounded up).

// SectionTokens is a section's size as get_documents counts a chunk of
// file lines: bytes / 4, rounded up, of its lines (its subsections
// included). starts are the offsets of the doc's line starts
// (textmatch.LineStarts), size the doc's length in bytes.
func SectionTokens(sec Section, starts []int, size int) int {
	if sec.Start < 1 || sec.Start > len(starts) {
		return 0
	}
	from, to := starts[sec.Start-1], size
	if sec.End < len(starts) {
		to = starts[sec.End]
	}
	return EstimateTokens(int64(to - from))
}

// DocTokens is a doc's size as list_documents shows it: the index's count
// when it gives one, else bytes / 4 of the file (size bytes when the doc
// carries no stamp).
func DocTokens(d Document, size int) int {
	if d.HasTokens {
		return d.Tokens
	}
	if d.Stamp.Size > 0 {
		return EstimateTokens(d.Stamp.Size)
	}
	return EstimateTokens(int64(size))
}

// PathWords returns the words of a doc's path, its folders' names and its
// file name without the extension ("demo/kubernetes-deployment.md": "demo
// kubernetes deployment"), which a section index searches with the doc's
// title: a question names the part of the library it is about ("the
// OpenTelemetry demo", "Hono's proxy helper") in words its folders hold and
// its sections' own lines may not.
func (d Document) PathWords() string {
	p := strings.TrimSuffix(d.Path, ".md")
	return strings.Join(strings.FieldsFunc(p, func(r rune) bool {
		return r == '/' || r == '-' || r == '_' || r == '.' || r == ' '
	}), " ")
}

// DescriptionHash is a hash of what a section index searches a doc by
// beyond its file's bytes and its path: its title and its tags, which a
// convention may take from elsewhere than the file (an index.json, a
// folder's index.md). An index stores it with the doc's stamp, so that a
// refresh stores the doc again when they change while its file does not:
// one number a doc, however large the library.
func (d Document) DescriptionHash() uint64 {
	h := fnv.New64a()
	h.Write([]byte(d.Title))
	for _, t := range d.Tags {
		h.Write([]byte{0})
		h.Write([]byte(t))
	}
	return h.Sum64()
}
