package mcpserver_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/search"
)

// What an agent pays to reach the lines it needs (issue 9): agent-style
// sequences over the 150-doc example corpus, each step's arguments taken
// from the previous answer as an agent would take them, and the token cost
// of every answer (bytes / 4, rounded up) pinned in
// testdata/library/costs.txt. An answer that grows fails the test; one that
// shrinks on purpose is accepted with -update (read the diff).

// economyStep is one call; args may read the previous answer.
type economyStep struct {
	tool string
	args func(t *testing.T, prev string) map[string]any
}

func fixed(args map[string]any) func(*testing.T, string) map[string]any {
	return func(*testing.T, string) map[string]any { return args }
}

var (
	groupLine   = regexp.MustCompile(`(?m)^(\S+) \(\S+\) ~\d+ tokens`)
	sectionLine = regexp.MustCompile(`(?m)^§ (\S+) L(\d+)–(\d+) ~(\d+) tokens`)
	hitLine     = regexp.MustCompile(`(?m)^L(\d+)(?: \[[^\]]*\])?: `)
)

// firstHitSection is what an agent fetches after a search: the section
// holding the first hit, by the ids the answer names.
func firstHitSection(t *testing.T, prev string) map[string]any {
	t.Helper()
	doc, sec := groupLine.FindStringSubmatch(prev), sectionLine.FindStringSubmatch(prev)
	if doc == nil || sec == nil {
		t.Fatalf("the search answer names no doc or section:\n%s", prev)
	}
	return map[string]any{"select": []any{map[string]any{"doc": doc[1], "sections": []string{sec[1]}}}}
}

// linesAroundFirstHit fetches a few lines around the first hit, as an agent
// does when the section is bigger than it needs.
func linesAroundFirstHit(t *testing.T, prev string) map[string]any {
	t.Helper()
	doc, hit := groupLine.FindStringSubmatch(prev), hitLine.FindStringSubmatch(prev)
	if doc == nil || hit == nil {
		t.Fatalf("the search answer names no doc or hit:\n%s", prev)
	}
	n, _ := strconv.Atoi(hit[1])
	return map[string]any{"select": []any{map[string]any{"doc": doc[1], "lines": []int{max(1, n-3), n + 8}}}}
}

// outlineSection fetches the section an outline names with the given id.
func outlineSection(doc, section string) func(*testing.T, string) map[string]any {
	return func(t *testing.T, prev string) map[string]any {
		t.Helper()
		if !strings.Contains(prev, "§ "+section+" ") {
			t.Fatalf("the outline does not name section %s:\n%s", section, prev)
		}
		return map[string]any{"select": []any{map[string]any{"doc": doc, "sections": []string{section}}}}
	}
}

var economySequences = []struct {
	name  string
	steps []economyStep
}{
	{"a class name, then its section", []economyStep{
		{"search_documents", fixed(map[string]any{"query": "btn-primary"})},
		{"get_documents", firstHitSection},
	}},
	{"a short name as a whole word, then its section", []economyStep{
		{"search_documents", fixed(map[string]any{"query": "ios", "whole_word": true})},
		{"get_documents", firstHitSection},
	}},
	{"an identifier with context, then lines", []economyStep{
		{"search_documents", fixed(map[string]any{"query": "createMiddleware", "root": "hono", "context": 2, "max_results": 5})},
		{"get_documents", linesAroundFirstHit},
	}},
	{"a phrase, then its section", []economyStep{
		{"search_documents", fixed(map[string]any{"query": "basic auth"})},
		{"get_documents", firstHitSection},
	}},
	{"a question in words, ranked, then its best section", []economyStep{
		{"search_documents", fixed(map[string]any{"query": "how to set a signed cookie", "mode": "ranked"})},
		{"get_documents", firstHitSection},
	}},
	{"a question in words, ranked", []economyStep{
		{"search_documents", fixed(map[string]any{"query": "limit the size of the request body", "mode": "ranked"})},
	}},
	{"a table value", []economyStep{
		{"search_documents", fixed(map[string]any{"query": "X-Frame-Options", "root": "hono/middleware"})},
	}},
	{"browse: first look, a doc's outline, a section", []economyStep{
		{"list_documents", fixed(map[string]any{"section_depth": 0})},
		{"list_documents", fixed(map[string]any{"root": "daisyui/components/button"})},
		{"get_documents", outlineSection("daisyui/components/button", "button/class-names")},
	}},
	{"the default first listing", []economyStep{
		{"list_documents", fixed(map[string]any{})},
	}},
}

func tokensOf(s string) int { return (len(s) + 3) / 4 }

// What the library tool set costs an agent in every turn (issue 22): its
// tools/list (compact JSON of the tools array, characters / 4) and its
// instructions.
const (
	maxToolsListTokens    = 700
	maxInstructionsTokens = 150
)

func TestAnswerCosts(t *testing.T) {
	src, err := frontmatterindex.New(filepath.Join(tsExamples(t), "docs"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	ix, err := sqlitesectionindex.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	lib := library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
	lib.UseIndex(ix, nil)
	srv := mcpserver.NewServer(mcpserver.Options{Name: "librarian", Version: "test"})
	mcpserver.AddLibraryTools(srv, browse.New(lib), search.New(lib), nil, mcpserver.Ceilings{})
	cs := connectClient(t, srv, "economy", "")

	var report strings.Builder
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(tools.Tools)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&report, "tools/list (library tool set, compact JSON): %d tokens\n", tokensOf(string(raw)))
	if n := tokensOf(string(raw)); n > maxToolsListTokens {
		t.Errorf("tools/list is %d tokens; it is paid in every agent turn: keep it at most %d", n, maxToolsListTokens)
	}
	if n := tokensOf(mcpserver.Instructions); n > maxInstructionsTokens {
		t.Errorf("the instructions are %d tokens, over %d", n, maxInstructionsTokens)
	}
	for _, seq := range economySequences {
		fmt.Fprintf(&report, "\n%s\n", seq.name)
		prev, total := "", 0
		for _, step := range seq.steps {
			args := step.args(t, prev)
			got, isError := callText(t, cs, step.tool, args)
			if isError {
				t.Fatalf("%s: %s(%v) failed: %s", seq.name, step.tool, args, got)
			}
			argText, _ := json.Marshal(args)
			cost := tokensOf(got)
			total += cost
			fmt.Fprintf(&report, "  %s %s: %d tokens\n", step.tool, argText, cost)
			// Bounds no -update can bless: a search answer stays cheap, a
			// fetch is about the section or lines it names.
			if step.tool == "search_documents" && cost > 1500 {
				t.Errorf("%s: search answer of %d tokens:\n%s", seq.name, cost, got)
			}
			if step.tool == "get_documents" && strings.Contains(prev, "§ ") {
				if m := sectionLine.FindStringSubmatch(prev); m != nil && args["select"].([]any)[0].(map[string]any)["sections"] != nil {
					named, _ := strconv.Atoi(m[4])
					if cost > named+60 {
						t.Errorf("%s: get of a section the search sized at ~%d tokens cost %d", seq.name, named, cost)
					}
				}
			}
			prev = got
		}
		fmt.Fprintf(&report, "  total: %d tokens\n", total)
	}

	file := filepath.Join("testdata", "library", "costs.txt")
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(file, []byte(report.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if report.String() != string(want) {
		t.Errorf("answer costs changed (a bigger answer is a regression; if it is smaller on purpose, run go test ./adapters/mcpserver -run TestAnswerCosts -update and read the diff)\ngot:\n%s\nwant:\n%s", report.String(), want)
	}
}
