package domain

import "sort"

// Values the section index (ports/sectionindex) stores and answers with.

// Name is a name a document defines or documents: a heading, an identifier
// defined in a code block (function, class, constant, exported name), a
// route (`app.get('/api/users')`), a config key (`compatibility_flags`,
// `--radius-field`) or a file path mentioned in the text.
type Name struct {
	// Kind is one of the Name* kinds below.
	Kind string
	Name string
	// Line is the file's own 1-based line where the name is defined.
	Line int
	// Signature is what follows the name in its definition, when there is
	// one (a function's parameter list, a route's handler), else "".
	Signature string
}

// Kinds of Name.
const (
	NameHeading   = "heading"
	NameFunction  = "function"
	NameClass     = "class"
	NameConstant  = "constant"
	NameVariable  = "variable"
	NameType      = "type"
	NameRoute     = "route"
	NameConfigKey = "config"
	NameFlag      = "flag"
	NameFile      = "file"
	// NameTerm is a name a list item or a table row defines (a class
	// name, an option, a value), in a code span.
	NameTerm = "term"
)

// NameHit is a stored Name and the document holding it.
type NameHit struct {
	Name
	Path string // the doc's path, relative to the library root
	// Exact is true when the name equals the query (ignoring case).
	Exact bool
}

// CandidateQuery asks which docs may hold a search's matches. A doc is a
// candidate when its text holds at least one of AnyOf (each a literal every
// match must contain one of); Fold compares with Unicode simple folding.
// An empty AnyOf cannot narrow: every doc is a candidate.
type CandidateQuery struct {
	AnyOf []string
	Fold  bool
	// Paths, when not nil, limits the answer to these doc paths (a root,
	// tags or depth filter the caller already applied).
	Paths []string
}

// RankedQuery is a question in words for ranked section retrieval.
type RankedQuery struct {
	Text string
	// Limit caps the sections answered; 0 means the index's default (5).
	Limit int
	// Paths, when not nil, limits the answer to sections of these docs.
	Paths []string
}

// RankedSection is one section answering a RankedQuery.
type RankedSection struct {
	Path      string // the doc's path
	SectionID string // the full section id ("" is never used: _preamble, _intro included)
	Start     int    // the section's first line
	End       int    // its last line
	Score     float64
	// Lines are the section's best-matching lines (the file's own line
	// numbers, within Start..End), best first, at most three: the index
	// knows how it tokenized and stemmed, so it picks them, and a caller
	// can quote them without re-implementing the index's analysis.
	Lines []int
}

// IndexStatus is what a section index reports of itself.
type IndexStatus struct {
	Docs     int
	Sections int
	// Bytes is the index's own size on disk or in the database (0 when
	// unknown, as in memory).
	Bytes int64
	// BuiltAt is when the last whole refresh finished, epoch seconds (0:
	// never).
	BuiltAt int64
	// Where names the index for a person: a file path, a database name
	// (never a password), or "memory".
	Where string
}

// MergeRanked joins two ranked lists of sections: each section once, with
// its better share of its own list's best score, best first. Ranked
// search_documents and librarian_ask join so their two searches of a
// question: its own words, and with them the words docs use for them
// (passage.Question.Related: "default" for "out of the box").
func MergeRanked(a, b []RankedSection) []RankedSection {
	norm := func(list []RankedSection) map[string]float64 {
		best := 0.0
		for _, s := range list {
			best = max(best, s.Score)
		}
		m := map[string]float64{}
		for _, s := range list {
			m[s.Path+"\x00"+s.SectionID] = s.Score / max(best, 1e-9)
		}
		return m
	}
	na, nb := norm(a), norm(b)
	seen := map[string]bool{}
	var out []RankedSection
	for _, list := range [][]RankedSection{a, b} {
		for _, s := range list {
			k := s.Path + "\x00" + s.SectionID
			if seen[k] {
				continue
			}
			seen[k] = true
			s.Score = max(na[k], nb[k])
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}
