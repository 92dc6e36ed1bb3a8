// Package sectionindextest is the contract suite of the sectionindex port:
// every adapter (adapters/sqlitesectionindex, a PostgreSQL one, ...) runs
// Run unchanged, in the manner of testing/fstest.TestFS. One named subtest
// checks one property of the port's doc comments.
//
// The suite builds its entries itself (MarkdownEntry: a small ATX-heading
// splitter, enough to give every entry a consistent Structure), so it needs
// no parser adapter and no library on disk.
package sectionindextest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
)

// Opener opens indexes for the suite.
type Opener struct {
	// Open opens the index stored under name. A name the suite has not used
	// before gives an empty index; opening a name again after Close gives
	// what was stored under it (for Persistent adapters).
	Open func(t *testing.T, name string) sectionindex.Index
	// Persistent is false for an index that lives only in its process (an
	// in-memory database): the reopen subtest is then skipped.
	Persistent bool
}

// Run runs every subtest against indexes from o.
func Run(t *testing.T, o Opener) {
	var mu sync.Mutex
	used := map[string]bool{}
	fresh := func(t *testing.T) sectionindex.Index {
		t.Helper()
		mu.Lock()
		name := strings.NewReplacer("/", "-", " ", "_").Replace(t.Name())
		for used[name] {
			name += "x"
		}
		used[name] = true
		mu.Unlock()
		ix := o.Open(t, name)
		t.Cleanup(func() { ix.Close() })
		return ix
	}
	t.Run("EmptyIndex", func(t *testing.T) { testEmpty(t, fresh(t)) })
	t.Run("PutVisibleInCatalogAndEntry", func(t *testing.T) { testPut(t, fresh(t)) })
	t.Run("ContentByteIdentical", func(t *testing.T) { testContentBytes(t, fresh(t)) })
	t.Run("ReplaceKeepsOnlyNewState", func(t *testing.T) { testReplace(t, fresh(t)) })
	t.Run("RemoveForgetsEverything", func(t *testing.T) { testRemove(t, fresh(t)) })
	t.Run("ErrNotIndexed", func(t *testing.T) { testNotIndexed(t, fresh(t)) })
	t.Run("FoldersNotesBuiltAt", func(t *testing.T) { testFoldersNotes(t, fresh(t)) })
	t.Run("StatusCounts", func(t *testing.T) { testStatus(t, fresh(t)) })
	t.Run("CandidatesNeverMissGenerated", func(t *testing.T) { testCandidatesGenerated(t, fresh(t)) })
	t.Run("CandidatesUnicodeFolding", func(t *testing.T) { testCandidatesFolding(t, fresh(t)) })
	t.Run("CandidatesShortLiteralsAndEmpty", func(t *testing.T) { testCandidatesShort(t, fresh(t)) })
	t.Run("CandidatesPathsFilter", func(t *testing.T) { testCandidatesPaths(t, fresh(t)) })
	t.Run("RankedTitleAndHeadingAboveBody", func(t *testing.T) { testRankedHeadingAboveBody(t, fresh(t)) })
	t.Run("RankedRareWordsWeighMost", func(t *testing.T) { testRankedRareWordsWeighMost(t, fresh(t)) })
	t.Run("RankedCodeIdentifiers", func(t *testing.T) { testRankedIdentifiers(t, fresh(t)) })
	t.Run("RankedStemming", func(t *testing.T) { testRankedStemming(t, fresh(t)) })
	t.Run("RankedSectionFieldsAndLines", func(t *testing.T) { testRankedFields(t, fresh(t)) })
	t.Run("RankedFrontmatterFacts", func(t *testing.T) { testRankedFrontmatterFacts(t, fresh(t)) })
	t.Run("RankedPathWords", func(t *testing.T) { testRankedPathWords(t, fresh(t)) })
	t.Run("RankedTags", func(t *testing.T) { testRankedTags(t, fresh(t)) })
	t.Run("RankedPathsFilter", func(t *testing.T) { testRankedPaths(t, fresh(t)) })
	t.Run("RankedLimit", func(t *testing.T) { testRankedLimit(t, fresh(t)) })
	t.Run("RankedOddQueries", func(t *testing.T) { testRankedOdd(t, fresh(t)) })
	t.Run("RankedNearPairs", func(t *testing.T) { testRankedNearPairs(t, fresh(t)) })
	t.Run("NamesExactBeforePartial", func(t *testing.T) { testNames(t, fresh(t)) })
	t.Run("LinksTo", func(t *testing.T) { testLinksTo(t, fresh(t)) })
	t.Run("ConcurrentReadersAndWriter", func(t *testing.T) { testConcurrency(t, fresh(t)) })
	t.Run("ReopenPersists", func(t *testing.T) {
		if !o.Persistent {
			t.Skip("the adapter is not persistent")
		}
		testReopen(t, o)
	})
}

// MarkdownEntry builds an entry for path from a markdown body: ATX headings
// (outside fenced code) start sections with ids made of their ancestors'
// slugs, text before the first heading is "_preamble", fenced code blocks
// and `![[image:ID]]` stubs are recorded. The stamp is derived from size and
// a fixed time, so two different bodies get different stamps.
func MarkdownEntry(path, title string, tags []string, body string) sectionindex.Entry {
	mod := time.Date(2026, 3, 1, 12, 0, 0, len(body)*1000+7, time.UTC)
	return sectionindex.Entry{
		Doc: domain.Document{
			ID: strings.TrimSuffix(path, ".md"), Path: path, Title: title,
			Summary: "About " + title + ".", Tags: tags,
			Tokens: domain.EstimateTokens(int64(len(body))), HasTokens: len(body)%2 == 0,
			Stamp: domain.Stamp{Size: int64(len(body)), ModTime: mod, Inode: uint64(len(path)*1000 + len(body)), Changed: mod.Add(time.Second)},
		},
		Content:   []byte(body),
		Structure: parse(body),
	}
}

func parse(body string) domain.Structure {
	lines := strings.Split(body, "\n")
	if strings.HasSuffix(body, "\n") {
		lines = lines[:len(lines)-1]
	}
	st := domain.Structure{Lines: len(lines)}
	var stack []int // indexes of open sections
	var fence string
	inCode := false
	closeTo := func(level, line int) {
		for len(stack) > 0 && st.Sections[stack[len(stack)-1]].Level >= level {
			st.Sections[stack[len(stack)-1]].End = line
			stack = stack[:len(stack)-1]
		}
	}
	for i, raw := range lines {
		n := i + 1
		l := strings.TrimRight(raw, "\r")
		trim := strings.TrimLeft(l, " ")
		if inCode {
			if strings.HasPrefix(trim, fence) {
				inCode = false
				st.CodeBlocks[len(st.CodeBlocks)-1].End = n
				st.CodeBlocks[len(st.CodeBlocks)-1].Closed = true
			}
			continue
		}
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			inCode, fence = true, trim[:3]
			st.CodeBlocks = append(st.CodeBlocks, domain.CodeBlock{Info: strings.TrimSpace(trim[3:]), Fence: fence, Start: n, End: len(lines)})
			continue
		}
		for rest := l; ; {
			k := strings.Index(rest, "![[image:")
			if k < 0 {
				break
			}
			rest = rest[k+len("![[image:"):]
			if e := strings.Index(rest, "]]"); e > 0 {
				st.Images = append(st.Images, domain.ImageStub{ID: rest[:e], Line: n})
			}
		}
		level := len(trim) - len(strings.TrimLeft(trim, "#"))
		if level < 1 || level > 6 || len(trim) == level || trim[level] != ' ' {
			if len(st.Sections) == 0 && strings.TrimSpace(l) != "" {
				st.Sections = append(st.Sections, domain.Section{ID: "_preamble", Slug: "_preamble", Start: 1, Parent: -1, Depth: 1})
				stack = append(stack, 0)
			}
			continue
		}
		closeTo(level, n-1)
		if len(stack) > 0 && st.Sections[stack[0]].ID == "_preamble" {
			st.Sections[stack[0]].End = n - 1
			stack = stack[1:]
		}
		heading := strings.TrimSpace(trim[level:])
		sec := domain.Section{Slug: slug(heading), Heading: heading, Level: level, Start: n, Parent: -1, Depth: 1}
		sec.ID = sec.Slug
		if len(stack) > 0 {
			p := stack[len(stack)-1]
			sec.Parent, sec.Depth, sec.ID = p, st.Sections[p].Depth+1, st.Sections[p].ID+"/"+sec.Slug
		}
		st.Sections = append(st.Sections, sec)
		stack = append(stack, len(st.Sections)-1)
	}
	closeTo(0, len(lines))
	for _, s := range stack {
		st.Sections[s].End = len(lines)
	}
	return st
}

func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ' || r == '-':
			b.WriteByte('-')
		case r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// apply applies u or fails the test.
func apply(t *testing.T, ix sectionindex.Index, u sectionindex.Update) {
	t.Helper()
	if err := ix.Apply(context.Background(), u); err != nil {
		t.Fatalf("Apply: %v", err)
	}
}

func catalog(t *testing.T, ix sectionindex.Index) *domain.Catalog {
	t.Helper()
	c, err := ix.Catalog(context.Background())
	if err != nil {
		t.Fatalf("Catalog: %v", err)
	}
	return c
}

func entry(t *testing.T, ix sectionindex.Index, path string) sectionindex.Entry {
	t.Helper()
	e, err := ix.Entry(context.Background(), path)
	if err != nil {
		t.Fatalf("Entry(%q): %v", path, err)
	}
	return e
}

// sameDoc compares documents with stamps compared as instants.
func sameDoc(got, want domain.Document) error {
	if !got.Stamp.Equal(want.Stamp) {
		return fmt.Errorf("stamp of %s: got %+v, want %+v", want.Path, got.Stamp, want.Stamp)
	}
	got.Stamp, want.Stamp = domain.Stamp{}, domain.Stamp{}
	if len(got.Tags) == 0 && len(want.Tags) == 0 {
		got.Tags, want.Tags = nil, nil
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("document %s:\n got %+v\nwant %+v", want.Path, got, want)
	}
	return nil
}

// sameEntry compares two entries field by field, content byte for byte.
func sameEntry(got, want sectionindex.Entry) error {
	if err := sameDoc(got.Doc, want.Doc); err != nil {
		return err
	}
	if !bytes.Equal(got.Content, want.Content) {
		return fmt.Errorf("content of %s: got %q, want %q", want.Doc.Path, got.Content, want.Content)
	}
	if !reflect.DeepEqual(normStructure(got.Structure), normStructure(want.Structure)) {
		return fmt.Errorf("structure of %s:\n got %+v\nwant %+v", want.Doc.Path, got.Structure, want.Structure)
	}
	if len(got.Names)+len(want.Names) > 0 && !reflect.DeepEqual(got.Names, want.Names) {
		return fmt.Errorf("names of %s: got %+v, want %+v", want.Doc.Path, got.Names, want.Names)
	}
	if len(got.Links)+len(want.Links) > 0 && !slices.Equal(got.Links, want.Links) {
		return fmt.Errorf("links of %s: got %q, want %q", want.Doc.Path, got.Links, want.Links)
	}
	return nil
}

// normStructure treats nil and empty slices alike.
func normStructure(s domain.Structure) domain.Structure {
	if len(s.Sections) == 0 {
		s.Sections = nil
	}
	if len(s.CodeBlocks) == 0 {
		s.CodeBlocks = nil
	}
	if len(s.Images) == 0 {
		s.Images = nil
	}
	return s
}

func paths(c *domain.Catalog) []string {
	var p []string
	for _, d := range c.Docs {
		p = append(p, d.Path)
	}
	return p
}

func testEmpty(t *testing.T, ix sectionindex.Index) {
	c := catalog(t, ix)
	if len(c.Docs) != 0 {
		t.Errorf("empty index lists %q", paths(c))
	}
	st, err := ix.Status(context.Background())
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	if st.Docs != 0 || st.Sections != 0 || st.BuiltAt != 0 {
		t.Errorf("empty index status %+v, want no docs, no sections, never built", st)
	}
	if st.Where == "" {
		t.Error("Status.Where is empty: it must name the index for a person")
	}
	r, err := ix.Ranked(context.Background(), domain.RankedQuery{Text: "anything at all"})
	if err != nil || len(r) != 0 {
		t.Errorf("Ranked on an empty index: %v, %v; want nothing, no error", r, err)
	}
}

// corpus is a small library with every shape the port must keep: CRLF
// lines, no final newline, an empty body, frontmatter-like lines, code,
// image stubs, non-ASCII text, paths whose byte order differs from a walk's.
func corpus() []sectionindex.Entry {
	es := []sectionindex.Entry{
		MarkdownEntry("guides/getting-started.md", "Getting started", []string{"guide", "setup"},
			"# Getting started\n\nRun `librarian --root ./library`.\n\n## Install\n\ngo install ./cmd/librarian\n"),
		MarkdownEntry("backend/auth.md", "Authentication", []string{"security"},
			"# Authentication\r\n\r\nCRLF lines are returned as written.\r\n\r\n## Refresh tokens\r\n\r\nRotate them.\r\n"),
		MarkdownEntry("backend/storage/caching.md", "Caching", nil,
			"# Caching\n\n```go\nkey := \"user:\" + id\n```\n\n![[image:cache-diagram]]\n\nno final newline"),
		MarkdownEntry("B-upper.md", "Upper case first", nil, "Upper.\n"),
		MarkdownEntry("a-b.md", "A dash B", []string{"order"}, "dash\n"),
		MarkdownEntry("a.md", "A", nil, ""),
		MarkdownEntry("a/b.md", "A slash B", nil, "Grüße aus Köln: ΣΊΣΥΦΟΣ, straße, ǅemal.\n"),
	}
	es[0].Names = []domain.Name{{Kind: domain.NameHeading, Name: "Getting started", Line: 1}, {Kind: domain.NameFlag, Name: "--root", Line: 3, Signature: "./library"}}
	es[0].Links = []string{"backend/auth.md", "a.md"}
	return es
}

func testPut(t *testing.T, ix sectionindex.Index) {
	es := corpus()
	// A doc whose first lines are frontmatter: Texts says where its body starts.
	es[3].Content = []byte("---\ntitle: Upper\n---\nUpper.\n")
	es[3].Doc.Stamp.Size = int64(len(es[3].Content))
	es[3].Structure = domain.Structure{Lines: 4, FrontmatterEnd: 3}
	apply(t, ix, sectionindex.Update{Put: es})
	c := catalog(t, ix)
	want := []string{"B-upper.md", "a-b.md", "a.md", "a/b.md", "backend/auth.md", "backend/storage/caching.md", "guides/getting-started.md"}
	if got := paths(c); !slices.Equal(got, want) {
		t.Fatalf("Catalog paths %q, want byte order %q", got, want)
	}
	byPath := map[string]sectionindex.Entry{}
	for _, e := range es {
		byPath[e.Doc.Path] = e
	}
	for _, d := range c.Docs {
		if err := sameDoc(d, byPath[d.Path].Doc); err != nil {
			t.Errorf("Catalog: %v", err)
		}
	}
	for _, e := range es {
		if err := sameEntry(entry(t, ix, e.Doc.Path), e); err != nil {
			t.Errorf("Entry: %v", err)
		}
	}
	// Entries streams the same entries, in path order.
	var streamed []string
	err := ix.Entries(context.Background(), func(e sectionindex.Entry) error {
		streamed = append(streamed, e.Doc.Path)
		if err := sameEntry(e, byPath[e.Doc.Path]); err != nil {
			t.Errorf("Entries: %v", err)
		}
		return nil
	})
	if err != nil || !slices.Equal(streamed, want) {
		t.Errorf("Entries streamed %q (%v), want %q", streamed, err, want)
	}
	stop := errors.New("stop")
	n := 0
	if err := ix.Entries(context.Background(), func(sectionindex.Entry) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Errorf("Entries after fn's error: %v, %d calls; want fn's error after one call", err, n)
	}
	// Parses streams them too, without names and links.
	streamed = nil
	err = ix.Parses(context.Background(), func(e sectionindex.Entry) error {
		streamed = append(streamed, e.Doc.Path)
		if e.Names != nil || e.Links != nil {
			t.Errorf("Parses of %s: names %+v, links %q; want none", e.Doc.Path, e.Names, e.Links)
		}
		stored := byPath[e.Doc.Path]
		stored.Names, stored.Links = nil, nil
		if err := sameEntry(e, stored); err != nil {
			t.Errorf("Parses: %v", err)
		}
		return nil
	})
	if err != nil || !slices.Equal(streamed, want) {
		t.Errorf("Parses streamed %q (%v), want %q", streamed, err, want)
	}
	n = 0
	if err := ix.Parses(context.Background(), func(sectionindex.Entry) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Errorf("Parses after fn's error: %v, %d calls; want fn's error after one call", err, n)
	}
	// Texts streams their bytes, stamps and body starts, in path order.
	streamed = nil
	err = ix.Texts(context.Background(), func(tx sectionindex.Text) error {
		streamed = append(streamed, tx.Path)
		stored := byPath[tx.Path]
		if !bytes.Equal(tx.Content, stored.Content) || tx.Content == nil {
			t.Errorf("Texts of %s: content %q, want %q (never nil)", tx.Path, tx.Content, stored.Content)
		}
		if !tx.Stamp.Equal(stored.Doc.Stamp) {
			t.Errorf("Texts of %s: stamp %+v, want %+v", tx.Path, tx.Stamp, stored.Doc.Stamp)
		}
		if tx.FrontmatterEnd != stored.Structure.FrontmatterEnd {
			t.Errorf("Texts of %s: frontmatter end %d, want %d", tx.Path, tx.FrontmatterEnd, stored.Structure.FrontmatterEnd)
		}
		return nil
	})
	if err != nil || !slices.Equal(streamed, want) {
		t.Errorf("Texts streamed %q (%v), want %q", streamed, err, want)
	}
	n = 0
	if err := ix.Texts(context.Background(), func(sectionindex.Text) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Errorf("Texts after fn's error: %v, %d calls; want fn's error after one call", err, n)
	}
	// Stamps are the stored docs' stamps and description hashes (all 64
	// bits of each: most have the top one set).
	stamps, err := ix.Stamps(context.Background())
	if err != nil || len(stamps) != len(es) {
		t.Errorf("Stamps: %d stamps (%v), want %d", len(stamps), err, len(es))
	}
	for _, e := range es {
		if got, ok := stamps[e.Doc.Path]; !ok || !got.Stamp.Equal(e.Doc.Stamp) || got.DescriptionHash != e.Doc.DescriptionHash() {
			t.Errorf("Stamps[%s] = %+v (%v), want %+v and hash %d", e.Doc.Path, got, ok, e.Doc.Stamp, e.Doc.DescriptionHash())
		}
	}
	// A second batch adds to the first.
	more := MarkdownEntry("z.md", "Zed", nil, "# Zed\n")
	apply(t, ix, sectionindex.Update{Put: []sectionindex.Entry{more}})
	if got := len(catalog(t, ix).Docs); got != len(es)+1 {
		t.Errorf("after a second Put the catalog has %d docs, want %d", got, len(es)+1)
	}
}

func testContentBytes(t *testing.T, ix sectionindex.Index) {
	bodies := map[string]string{
		"crlf.md":    "a\r\nb\r\n",
		"nul.md":     "before\x00after\n",
		"invalid.md": "bad \xff\xfe utf-8\n",
		"bom.md":     "\ufeff# Title\n",
		"spaces.md":  "   \n\t\n",
		"empty.md":   "",
		"long.md":    strings.Repeat("line of text\n", 20000),
	}
	var es []sectionindex.Entry
	for p, b := range bodies {
		es = append(es, MarkdownEntry(p, p, nil, b))
	}
	apply(t, ix, sectionindex.Update{Put: es})
	for _, e := range es {
		got := entry(t, ix, e.Doc.Path)
		if !bytes.Equal(got.Content, e.Content) {
			t.Errorf("%s: content %q, want %q (byte for byte)", e.Doc.Path, trunc(got.Content), trunc(e.Content))
		}
		if e.Doc.Path == "empty.md" && got.Content == nil && len(e.Content) != 0 {
			t.Errorf("empty.md lost its content")
		}
	}
}

func trunc(b []byte) []byte {
	if len(b) > 60 {
		return b[:60]
	}
	return b
}

func testReplace(t *testing.T, ix sectionindex.Index) {
	old := MarkdownEntry("doc.md", "Old title", []string{"old"}, "# Old heading\n\nxylophone marmalade\n")
	old.Names = []domain.Name{{Kind: domain.NameFunction, Name: "oldFunc", Line: 3}}
	old.Links = []string{"target-old.md"}
	apply(t, ix, sectionindex.Update{Put: []sectionindex.Entry{old}})
	neu := MarkdownEntry("doc.md", "New title", []string{"new"}, "# New heading\n\n## Part\n\nzeppelin quasar text\n")
	neu.Names = []domain.Name{{Kind: domain.NameFunction, Name: "newFunc", Line: 5}}
	neu.Links = []string{"target-new.md"}
	apply(t, ix, sectionindex.Update{Put: []sectionindex.Entry{neu}})

	c := catalog(t, ix)
	if len(c.Docs) != 1 {
		t.Fatalf("a replaced doc is listed %d times", len(c.Docs))
	}
	if err := sameDoc(c.Docs[0], neu.Doc); err != nil {
		t.Errorf("Catalog after replace: %v", err)
	}
	if err := sameEntry(entry(t, ix, "doc.md"), neu); err != nil {
		t.Errorf("Entry after replace: %v", err)
	}
	ctx := context.Background()
	if st, err := ix.Stamps(ctx); err != nil || st["doc.md"].DescriptionHash != neu.Doc.DescriptionHash() {
		t.Errorf("Stamps after replace = %+v (%v), want the new title's and tags' hash %d", st, err, neu.Doc.DescriptionHash())
	}
	if r, _ := ix.Ranked(ctx, domain.RankedQuery{Text: "xylophone marmalade"}); len(r) != 0 {
		t.Errorf("Ranked finds the replaced text: %+v", r)
	}
	if r, _ := ix.Ranked(ctx, domain.RankedQuery{Text: "zeppelin"}); len(r) != 1 || r[0].SectionID != "new-heading/part" {
		t.Errorf("Ranked zeppelin after replace = %+v, want new-heading/part", r)
	}
	if h, _ := ix.Names(ctx, "oldFunc", 10); len(h) != 0 {
		t.Errorf("Names finds the replaced name: %+v", h)
	}
	if h, _ := ix.Names(ctx, "newFunc", 10); len(h) != 1 {
		t.Errorf("Names newFunc after replace = %+v", h)
	}
	if l, _ := ix.LinksTo(ctx, "target-old.md"); len(l) != 0 {
		t.Errorf("LinksTo keeps a replaced link: %q", l)
	}
	if l, _ := ix.LinksTo(ctx, "target-new.md"); !slices.Equal(l, []string{"doc.md"}) {
		t.Errorf("LinksTo(target-new.md) = %q", l)
	}
	st, _ := ix.Status(ctx)
	if st.Docs != 1 || st.Sections != 2 {
		t.Errorf("Status after replace %+v, want 1 doc, 2 sections", st)
	}
}

func testRemove(t *testing.T, ix sectionindex.Index) {
	es := corpus()
	apply(t, ix, sectionindex.Update{Put: es})
	apply(t, ix, sectionindex.Update{Remove: []string{"guides/getting-started.md", "a.md", "never-there.md"}})
	got := paths(catalog(t, ix))
	want := []string{"B-upper.md", "a-b.md", "a/b.md", "backend/auth.md", "backend/storage/caching.md"}
	if !slices.Equal(got, want) {
		t.Errorf("after Remove the catalog is %q, want %q", got, want)
	}
	ctx := context.Background()
	if _, err := ix.Entry(ctx, "guides/getting-started.md"); !errors.Is(err, sectionindex.ErrNotIndexed) {
		t.Errorf("Entry of a removed doc: %v, want ErrNotIndexed", err)
	}
	if r, _ := ix.Ranked(ctx, domain.RankedQuery{Text: "install"}); len(r) != 0 {
		t.Errorf("Ranked finds a removed doc: %+v", r)
	}
	if h, _ := ix.Names(ctx, "--root", 10); len(h) != 0 {
		t.Errorf("Names finds a removed doc's name: %+v", h)
	}
	if l, _ := ix.LinksTo(ctx, "backend/auth.md"); len(l) != 0 {
		t.Errorf("LinksTo keeps a removed doc's link: %q", l)
	}
	// Put and Remove of different docs in one batch.
	apply(t, ix, sectionindex.Update{Put: []sectionindex.Entry{es[0]}, Remove: []string{"a-b.md"}})
	got = paths(catalog(t, ix))
	want = []string{"B-upper.md", "a/b.md", "backend/auth.md", "backend/storage/caching.md", "guides/getting-started.md"}
	if !slices.Equal(got, want) {
		t.Errorf("after Put+Remove the catalog is %q, want %q", got, want)
	}
}

func testNotIndexed(t *testing.T, ix sectionindex.Index) {
	apply(t, ix, sectionindex.Update{Put: corpus()})
	for _, p := range []string{"missing.md", "a", "backend", "A.md", "a.md/", ""} {
		_, err := ix.Entry(context.Background(), p)
		if !errors.Is(err, sectionindex.ErrNotIndexed) {
			t.Errorf("Entry(%q): %v, want an error wrapping ErrNotIndexed", p, err)
		}
	}
}

func testFoldersNotes(t *testing.T, ix sectionindex.Index) {
	folders := map[string]domain.Folder{
		"":        {Path: "", Title: "Root", Summary: "The library."},
		"backend": {Path: "backend", Title: "Backend", Summary: "Servers.", Tags: []string{"backend", "go"}},
	}
	notes := []string{"b.md: refused: frontmatter is not YAML", "a.md: no title"}
	apply(t, ix, sectionindex.Update{Put: corpus()[:2], Folders: folders, Notes: notes, BuiltAt: 1700000000})
	c := catalog(t, ix)
	if !reflect.DeepEqual(c.Folders, folders) {
		t.Errorf("Folders %+v, want %+v", c.Folders, folders)
	}
	if !slices.Equal(c.Notes, notes) {
		t.Errorf("Notes %q, want %q (in order)", c.Notes, notes)
	}
	st, _ := ix.Status(context.Background())
	if st.BuiltAt != 1700000000 {
		t.Errorf("BuiltAt %d, want 1700000000", st.BuiltAt)
	}
	// nil Folders and Notes and a zero BuiltAt keep what is stored.
	apply(t, ix, sectionindex.Update{Put: corpus()[2:3]})
	c = catalog(t, ix)
	if !reflect.DeepEqual(c.Folders, folders) || !slices.Equal(c.Notes, notes) {
		t.Errorf("an update without folders or notes changed them: %+v %q", c.Folders, c.Notes)
	}
	if st, _ := ix.Status(context.Background()); st.BuiltAt != 1700000000 {
		t.Errorf("an update without BuiltAt changed it to %d", st.BuiltAt)
	}
	// Empty, non-nil values replace with nothing.
	apply(t, ix, sectionindex.Update{Folders: map[string]domain.Folder{}, Notes: []string{}, BuiltAt: 1700000500})
	c = catalog(t, ix)
	if len(c.Folders) != 0 || len(c.Notes) != 0 {
		t.Errorf("empty Folders and Notes did not replace: %+v %q", c.Folders, c.Notes)
	}
	if st, _ := ix.Status(context.Background()); st.BuiltAt != 1700000500 {
		t.Errorf("BuiltAt %d, want 1700000500", st.BuiltAt)
	}
}

func testStatus(t *testing.T, ix sectionindex.Index) {
	es := corpus()
	sections := 0
	for _, e := range es {
		sections += len(e.Structure.Sections)
	}
	apply(t, ix, sectionindex.Update{Put: es})
	st, err := ix.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Docs != len(es) || st.Sections != sections {
		t.Errorf("Status %+v, want %d docs and %d sections", st, len(es), sections)
	}
	apply(t, ix, sectionindex.Update{Remove: []string{es[0].Doc.Path}})
	st, _ = ix.Status(context.Background())
	if st.Docs != len(es)-1 || st.Sections != sections-len(es[0].Structure.Sections) {
		t.Errorf("Status after a remove %+v, want %d docs and %d sections", st, len(es)-1, sections-len(es[0].Structure.Sections))
	}
	if st.Bytes < 0 {
		t.Errorf("Status.Bytes %d is negative", st.Bytes)
	}
}

func testReopen(t *testing.T, o Opener) {
	name := "reopen-" + strings.NewReplacer("/", "-").Replace(t.Name())
	ix := o.Open(t, name)
	es := corpus()
	apply(t, ix, sectionindex.Update{Put: es, Folders: map[string]domain.Folder{"a": {Path: "a", Title: "A"}}, Notes: []string{"n"}, BuiltAt: 42})
	if err := ix.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	ix = o.Open(t, name)
	defer ix.Close()
	c := catalog(t, ix)
	if len(c.Docs) != len(es) || c.Folders["a"].Title != "A" || !slices.Equal(c.Notes, []string{"n"}) {
		t.Fatalf("reopened catalog %+v", c)
	}
	for _, e := range es {
		if err := sameEntry(entry(t, ix, e.Doc.Path), e); err != nil {
			t.Errorf("reopened: %v", err)
		}
	}
	if st, _ := ix.Status(context.Background()); st.BuiltAt != 42 || st.Docs != len(es) {
		t.Errorf("reopened status %+v", st)
	}
	if r, _ := ix.Ranked(context.Background(), domain.RankedQuery{Text: "rotate refresh tokens"}); len(r) == 0 || r[0].Path != "backend/auth.md" {
		t.Errorf("reopened Ranked = %+v", r)
	}
}

func testConcurrency(t *testing.T, ix sectionindex.Index) {
	ctx := context.Background()
	version := func(v int) sectionindex.Entry {
		body := fmt.Sprintf("# Version %d\n\n%s\n", v, strings.Repeat(fmt.Sprintf("word%d ", v), 50+v))
		return MarkdownEntry("shared.md", fmt.Sprintf("v%d", v), nil, body)
	}
	apply(t, ix, sectionindex.Update{Put: append(corpus(), version(0))})
	const writes = 30
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for v := 1; v <= writes; v++ {
			if err := ix.Apply(ctx, sectionindex.Update{Put: []sectionindex.Entry{version(v)}}); err != nil {
				errs <- fmt.Errorf("Apply: %w", err)
				return
			}
		}
	}()
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < writes; i++ {
				e, err := ix.Entry(ctx, "shared.md")
				if err != nil {
					errs <- fmt.Errorf("Entry: %w", err)
					return
				}
				var v int
				fmt.Sscanf(e.Doc.Title, "v%d", &v)
				if want := version(v); !bytes.Equal(e.Content, want.Content) || !e.Doc.Stamp.Equal(want.Doc.Stamp) {
					errs <- fmt.Errorf("Entry mixes versions: title %q with other content or stamp", e.Doc.Title)
					return
				}
				if _, err := ix.Catalog(ctx); err != nil {
					errs <- fmt.Errorf("Catalog: %w", err)
					return
				}
				if _, _, err := ix.Candidates(ctx, domain.CandidateQuery{AnyOf: []string{"word1"}, Fold: true}); err != nil {
					errs <- fmt.Errorf("Candidates: %w", err)
					return
				}
				if _, err := ix.Ranked(ctx, domain.RankedQuery{Text: "version refresh"}); err != nil {
					errs <- fmt.Errorf("Ranked: %w", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if e := entry(t, ix, "shared.md"); e.Doc.Title != fmt.Sprintf("v%d", writes) {
		t.Errorf("after the writer, shared.md is %q, want v%d", e.Doc.Title, writes)
	}
}
