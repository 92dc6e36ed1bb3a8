package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/answer"
	"github.com/librarian/librarian/domain/knowledge"
)

// --json: each command's answer as one JSON object on stdout, in the shapes
// below (docs/command-line.md documents them; a field is never renamed or
// removed, only added), and its errors as one JSON object on stderr. The
// shapes are this adapter's, not the use cases' types, so that a change
// inside app/ cannot change what scripts read without a change here.

// writeJSON writes v on one line (one object per line, as a stream of
// them would be read; `jq .` indents it), with a final newline; '<' and
// '&' stay as they are (a doc's text is not HTML).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// errorJSON is an error under --json, one line on stderr.
type errorJSON struct {
	Error errorBody `json:"error"`
}

type errorBody struct {
	Message string `json:"message"`
	// Kind is usage (the command line), invalid_argument (a value the
	// use case refused), not_found (a folder, doc or selector that is not
	// there; also check's "no docs"), invalid_index (the library's index
	// files), startup (settings, the library root, the index database) or
	// failure (anything else).
	Kind string `json:"kind"`
	Exit int    `json:"exit"`
}

// kindError gives an error its JSON kind.
type kindError struct {
	kind string
	err  error
}

func (e *kindError) Error() string { return e.err.Error() }
func (e *kindError) Unwrap() error { return e.err }

// WithKind marks err with the kind --json reports it as (see errorBody),
// e.g. "startup" for a failure before the command ran.
func WithKind(kind string, err error) error { return &kindError{kind: kind, err: err} }

// commandLineError is a mistake in the command line itself (usageError).
type commandLineError struct{ msg string }

func (e *commandLineError) Error() string { return e.msg }

// errorKind classifies err for --json.
func errorKind(err error) string {
	var k *kindError
	var cl *commandLineError
	var ie *domain.IndexError
	switch {
	case errors.As(err, &k):
		return k.kind
	case errors.As(err, &cl):
		return "usage"
	case errors.As(err, &ie):
		return "invalid_index"
	case errors.Is(err, domain.ErrNotFound):
		return "not_found"
	case errors.Is(err, domain.ErrInvalidArgument), errors.Is(err, domain.ErrInvalidSelector), errors.Is(err, domain.ErrRefused):
		return "invalid_argument"
	}
	return "failure"
}

// PrintError reports a failed run on stderr with its exit code: for a
// person ("librarian: …", once), or with asJSON as errorJSON on one line.
func PrintError(stderr io.Writer, asJSON bool, err error, exit int) {
	msg := strings.TrimPrefix(err.Error(), "librarian: ")
	if !asJSON {
		fmt.Fprintln(stderr, "librarian:", msg)
		return
	}
	b, jerr := json.Marshal(errorJSON{Error: errorBody{Message: msg, Kind: errorKind(err), Exit: exit}})
	if jerr != nil {
		fmt.Fprintln(stderr, "librarian:", msg)
		return
	}
	fmt.Fprintf(stderr, "%s\n", b)
}

// WantsJSON reports whether a command line asks for --json (before any
// "--"), so that errors found before its flags are parsed (an unknown
// flag, a bad setting, a failed start-up) are reported as JSON too.
func WantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, _ := flagName(a)
		if name != "json" {
			continue
		}
		_, v, has := strings.Cut(a, "=")
		return !has || (v != "false" && v != "0")
	}
	return false
}

// reporter prints a command's errors, as text or (--json) as JSON.
type reporter struct {
	stderr io.Writer
	json   bool
}

// reporterFor is the reporter of a command run with args.
func reporterFor(stderr io.Writer, args []string) reporter {
	return reporter{stderr: stderr, json: WantsJSON(args)}
}

// fail prints err and returns the exit code: 1 for a finding about the
// library (a folder or doc that is not there, an invalid index), 2 for a
// mistake in the command or a failure.
func (r reporter) fail(err error) int {
	code := exitCode(err)
	PrintError(r.stderr, r.json, err, code)
	return code
}

func exitCode(err error) int {
	var ie *domain.IndexError
	if errors.As(err, &ie) || errors.Is(err, domain.ErrNotFound) {
		return 1
	}
	return 2
}

// lines is a pair [from, to] of 1-based line numbers, both included.
type lines [2]int

// lsJSON is `ls --json`.
type lsJSON struct {
	Root    string       `json:"root"`
	IsDoc   bool         `json:"is_doc"`
	Folders []folderJSON `json:"folders"`
	Docs    []docJSON    `json:"docs"`
	Notes   []string     `json:"notes"`
}

type folderJSON struct {
	Path    string `json:"path"`
	Title   string `json:"title"`
	Summary string `json:"summary"`
	Docs    int    `json:"docs"`
	Tokens  int    `json:"tokens"`
}

type docJSON struct {
	ID         string        `json:"id"`
	Path       string        `json:"path"`
	Title      string        `json:"title"`
	Summary    string        `json:"summary"`
	Tokens     int           `json:"tokens"`
	Tags       []string      `json:"tags"`
	Lines      int           `json:"lines,omitempty"`
	Sections   []sectionJSON `json:"sections,omitzero"`
	Unreadable string        `json:"unreadable,omitempty"`
}

type sectionJSON struct {
	ID      string `json:"id"`
	Heading string `json:"heading"`
	Level   int    `json:"level"`
	Lines   lines  `json:"lines"`
	Tokens  int    `json:"tokens"`
}

func listingJSON(l browse.Listing) lsJSON {
	out := lsJSON{Root: l.Root, IsDoc: l.Doc, Folders: []folderJSON{}, Docs: []docJSON{}, Notes: orEmpty(l.Notes)}
	for _, f := range l.Folders {
		out.Folders = append(out.Folders, folderJSON{Path: f.Path, Title: f.Title, Summary: f.Summary, Docs: f.Docs, Tokens: f.Tokens})
	}
	for _, d := range l.Docs {
		dj := docJSON{ID: d.ID, Path: d.Path, Title: d.Title, Summary: d.Summary, Tokens: d.Tokens, Tags: orEmpty(d.Tags),
			Lines: d.Lines, Unreadable: d.Unreadable}
		if d.Sections != nil {
			dj.Sections = []sectionJSON{}
			for _, s := range d.Sections {
				dj.Sections = append(dj.Sections, sectionJSON{ID: s.ID, Heading: s.Heading, Level: s.Level, Lines: lines{s.Start, s.End}, Tokens: s.Tokens})
			}
		}
		out.Docs = append(out.Docs, dj)
	}
	return out
}

// searchJSON is `search --json`.
type searchJSON struct {
	Query         string          `json:"query"`
	Mode          string          `json:"mode"`
	WholeWord     bool            `json:"whole_word"`
	CaseSensitive bool            `json:"case_sensitive"`
	DocsInScope   int             `json:"docs_in_scope"`
	Hits          int             `json:"hits"`
	HitDocs       int             `json:"hit_docs"`
	Shown         int             `json:"shown"`
	Results       []searchDocJSON `json:"results"`
	Notes         []string        `json:"notes"`
}

type searchDocJSON struct {
	ID       string              `json:"id"`
	Path     string              `json:"path"`
	Tokens   int                 `json:"tokens"`
	Tags     []string            `json:"tags"`
	Sections []searchSectionJSON `json:"sections"`
}

type searchSectionJSON struct {
	ID     string    `json:"id"`
	Lines  *lines    `json:"lines"`
	Tokens int       `json:"tokens"`
	Hits   []hitJSON `json:"hits"`
}

type hitJSON struct {
	Line   int    `json:"line"`
	Text   string `json:"text"`
	InCode bool   `json:"in_code"`
	Code   string `json:"code"`
}

func resultJSON(r search.Result, caseSensitive bool) searchJSON {
	out := searchJSON{Query: r.Query, Mode: r.Mode, WholeWord: r.WholeWord, CaseSensitive: caseSensitive, DocsInScope: r.Docs,
		Hits: r.Hits, HitDocs: r.HitDocs, Shown: r.Shown, Results: []searchDocJSON{}, Notes: orEmpty(r.Notes)}
	for _, g := range r.Groups {
		dj := searchDocJSON{ID: g.ID, Path: g.Path, Tokens: g.Tokens, Tags: orEmpty(g.Tags), Sections: []searchSectionJSON{}}
		for _, s := range g.Sections {
			sj := searchSectionJSON{ID: s.ID, Tokens: s.Tokens, Hits: []hitJSON{}}
			if s.ID != "" {
				sj.Lines = &lines{s.Start, s.End}
			}
			for _, h := range s.Hits {
				sj.Hits = append(sj.Hits, hitJSON{Line: h.Line, Text: h.Text, InCode: h.InCode, Code: h.Code})
			}
			dj.Sections = append(dj.Sections, sj)
		}
		out.Results = append(out.Results, dj)
	}
	return out
}

// getJSON is `get --json`.
type getJSON struct {
	Selectors int         `json:"selectors"`
	Unmatched []int       `json:"unmatched"`
	Truncated bool        `json:"truncated"`
	Chunks    []chunkJSON `json:"chunks"`
	Images    []imageJSON `json:"images"`
	Notes     []string    `json:"notes"`
	Text      string      `json:"text"`
}

type chunkJSON struct {
	Selector int    `json:"selector"`
	ID       string `json:"id"`
	Path     string `json:"path"`
	Section  string `json:"section"`
	Lines    lines  `json:"lines"`
	Header   string `json:"header"`
	Text     string `json:"text"`
}

type imageJSON struct {
	ID      string `json:"id"`
	File    string `json:"file"`
	MIME    string `json:"mime"`
	Bytes   int    `json:"bytes"`
	Caption string `json:"caption"`
}

func answerJSON(a answer.Answer, selectors int) getJSON {
	out := getJSON{Selectors: selectors, Unmatched: orEmpty(a.Unmatched), Truncated: a.Truncated, Chunks: []chunkJSON{},
		Images: []imageJSON{}, Notes: orEmpty(a.Notes), Text: a.String()}
	for _, c := range a.Chunks {
		out.Chunks = append(out.Chunks, chunkJSON{Selector: c.Sel, ID: c.Doc.ID, Path: c.Doc.Path, Section: c.Section,
			Lines: lines{c.From, c.To}, Header: c.Header, Text: c.Text})
	}
	for _, p := range a.Parts {
		if p.Image != nil {
			out.Images = append(out.Images, imageJSON{ID: p.Image.ID, File: p.Image.File, MIME: p.Image.MIME, Bytes: len(p.Image.Data), Caption: p.Image.Caption})
		}
	}
	return out
}

// tagsJSON is `tags --json`.
type tagsJSON struct {
	Root  string    `json:"root"`
	Docs  int       `json:"docs"`
	Tags  []tagJSON `json:"tags"`
	Notes []string  `json:"notes"`
}

type tagJSON struct {
	Tag   string   `json:"tag"`
	Count int      `json:"count"`
	Paths []string `json:"paths"`
}

func tagListJSON(tl browse.TagList) tagsJSON {
	out := tagsJSON{Root: tl.Root, Docs: tl.Docs, Tags: []tagJSON{}, Notes: orEmpty(tl.Notes)}
	for _, t := range tl.Tags {
		out.Tags = append(out.Tags, tagJSON{Tag: t.Tag, Count: len(t.Paths), Paths: orEmpty(t.Paths)})
	}
	return out
}

// checkJSON is `check --json`: every problem, uncapped.
type checkJSON struct {
	OK           bool     `json:"ok"`
	Docs         int      `json:"docs"`
	ProblemDocs  int      `json:"problem_docs"`
	Problems     []string `json:"problems"`
	Warnings     []string `json:"warnings"`
	InvalidIndex string   `json:"invalid_index"`
}

// gapsJSON is `gaps --json`.
type gapsJSON struct {
	Gaps []gapJSON `json:"gaps"`
}

type gapJSON struct {
	ID      int64     `json:"id"`
	At      time.Time `json:"at"`
	Subject string    `json:"subject"`
	Text    string    `json:"text"`
	Session string    `json:"session"`
	Project string    `json:"project"`
	Caller  string    `json:"caller"`
}

func gapListJSON(gaps []knowledge.Knowledge) gapsJSON {
	out := gapsJSON{Gaps: []gapJSON{}}
	for _, g := range gaps {
		out.Gaps = append(out.Gaps, gapJSON{ID: g.ID, At: g.At.UTC(), Subject: g.Subject, Text: g.Text,
			Session: g.Tags.Session, Project: g.Tags.Project, Caller: g.Tags.Caller})
	}
	return out
}

// orEmpty keeps a list a list in JSON: [] rather than null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// writeJSON writes a command's answer and returns its exit code (code, or
// 2 when stdout fails).
func (r reporter) writeJSON(stdout io.Writer, v any, code int) int {
	if err := writeJSON(stdout, v); err != nil {
		return r.fail(err)
	}
	return code
}

// finding reports a finding that has no answer to print (exit 1): check
// of a folder with no docs, get's selectors that returned nothing. The
// text form keeps the command's own wording ("librarian check: …").
func (r reporter) finding(err error, kind string) int {
	if r.json {
		PrintError(r.stderr, true, WithKind(kind, err), 1)
		return 1
	}
	fmt.Fprintln(r.stderr, "librarian "+err.Error())
	return 1
}
