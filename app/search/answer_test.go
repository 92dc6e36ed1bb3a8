package search

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
)

// answerDoc is the one doc of the answer-shape tests: sections, a table, a
// code block, words inside other words.
const answerDoc = `---
tags: [net]
---
# Ports

Intro line about the port.

## Table

| Name | Default |
| ---- | ------- |
| host | localhost |
| port | 8080 |

## Code

` + "```go" + `
import "net"
func listen(port int) {}
` + "```" + `

Supports export and import.
A passport is not a port.
`

func openAnswerLibrary(t *testing.T) *library.Library {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ports.md"), []byte(answerDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	return openSearchLibrary(t, "frontmatter", dir)
}

// TestSearchAnswerShape checks each part of the answer's shape on its own.
func TestSearchAnswerShape(t *testing.T) {
	lib := openAnswerLibrary(t)
	ctx := context.Background()
	search := func(req SearchRequest) string {
		t.Helper()
		req.Scope.Depth = -1
		got, err := New(lib).SearchDocuments(ctx, req)
		if err != nil {
			t.Fatalf("SearchDocuments(%+v): %v", req, err)
		}
		return got + "\n" // so a want can end with its line's end
	}
	tests := []struct {
		name       string
		req        SearchRequest
		want, omit []string
	}{
		{"doc size, section sizes once, no tags unasked", SearchRequest{Query: "port"}, []string{
			"ports (ports.md) ~" + strconv.Itoa(domain.EstimateTokens(int64(len(answerDoc)))) + " tokens\n",
			"§ _intro L4–7 ~",
			"\nL4: # Ports\nL6: Intro line about the port.\n",
		}, []string{"tags:", "§ _intro\n"}},
		{"table hit shows its header row", SearchRequest{Query: "8080"}, []string{
			"§ table L8–14 ~", "\nL10- | Name | Default |\nL13: | port | 8080 |\n",
		}, []string{"L11", "L12"}},
		{"a header row already in context is not repeated", SearchRequest{Query: "8080", Context: 3}, []string{
			"L10- | Name | Default |\nL11- | ---- | ------- |\nL12- | host | localhost |\nL13: | port | 8080 |\n",
		}, nil},
		{"code hit says so", SearchRequest{Query: "listen"}, []string{"\nL19 [go code]: func listen(port int) {}\n"}, nil},
		{"fence lines are not code", SearchRequest{Query: "```"}, []string{"\nL17: ```go\n", "\nL20: ```\n"}, []string{"[go code]", "[code]"}},
		{"context clamped to the doc's end", SearchRequest{Query: "passport", Context: 1}, []string{
			"§ code L15–23 ~", "\nL22- Supports export and import.\nL23: A passport is not a port.",
		}, nil},
		{"context crossing sections names each section", SearchRequest{Query: "## Code", Context: 2}, []string{
			"§ table L8–14 ~", "L13- | port | 8080 |\nL14-\n§ code L15–23 ~", "\nL15: ## Code\nL16-\nL17- ```go",
		}, nil},
		{"runs apart in one section get --", SearchRequest{Query: "import", Context: 1}, []string{
			"L18 [go code]: import \"net\"\nL19- func listen(port int) {}\n--\nL21-\nL22: Supports export and import.\nL23- A passport is not a port.",
		}, nil},
		{"whole word", SearchRequest{Query: "port", WholeWord: true}, []string{
			`4 hits in 1 of 1 doc for "port" (string, whole word, case-insensitive)`,
			"L6: Intro line about the port.", "L13: | port | 8080 |", "L19 [go code]: func listen(port int) {}", "L23: A passport is not a port.",
		}, []string{"L22", "L4:"}},
		{"whole word at a line's ends and beside punctuation", SearchRequest{Query: "Ports", WholeWord: true}, []string{"L4: # Ports"}, nil},
		{"tags filter: the doc's tags that matched", SearchRequest{Query: "port", Scope: domain.Scope{Tags: []string{"net", "other"}}}, []string{" tokens · tags: net\n"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := search(tc.req)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("got\n%s\nwant it to contain %q", got, w)
				}
			}
			for _, o := range tc.omit {
				if strings.Contains(got, o) {
					t.Errorf("got\n%s\nwant it without %q", got, o)
				}
			}
		})
	}
}

func TestSearchTagsShownOnlyWhenFiltered(t *testing.T) {
	lib := openSearchLibrary(t, "json", searchLibRoot)
	ctx := context.Background()
	plain, err := New(lib).SearchDocuments(ctx, SearchRequest{Query: "token", Scope: domain.Scope{Depth: -1}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain, "tags:") {
		t.Errorf("no tags filter: got\n%s\nwant no tags", plain)
	}
	filtered, err := New(lib).SearchDocuments(ctx, SearchRequest{Query: "token", Scope: domain.Scope{Depth: -1, Tags: []string{"security", "onboarding"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"auth (backend/auth.md) ~400 tokens · tags: security\n", "getting-started (guides/getting-started.md) ~60 tokens · tags: onboarding\n"} {
		if !strings.Contains(filtered, w) {
			t.Errorf("tags filter: got\n%s\nwant %q (only the filter's tags the doc carries)", filtered, w)
		}
	}
}

func TestSearchAnswerArgumentErrors(t *testing.T) {
	lib := openAnswerLibrary(t)
	for _, tc := range []struct {
		req  SearchRequest
		want string
	}{
		{SearchRequest{Query: "port", Context: -1}, "'context' must be 0 to 20 lines, got -1"},
		{SearchRequest{Query: "port", Context: 21}, "'context' must be 0 to 20 lines, got 21"},
		{SearchRequest{Query: "port", Mode: SearchRegex, WholeWord: true}, `'whole_word' applies to mode "string" only`},
		{SearchRequest{Query: "port", Mode: SearchRanked, WholeWord: true}, `'whole_word' applies to mode "string" only`},
		{SearchRequest{Query: "port", Mode: SearchRanked, Context: 30}, "'context' must be 0 to 20 lines, got 30"},
	} {
		_, err := New(lib).SearchDocuments(context.Background(), tc.req)
		if !errors.Is(err, domain.ErrInvalidArgument) || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SearchDocuments(%+v) error %v, want ErrInvalidArgument saying %q", tc.req, err, tc.want)
		}
	}
}
