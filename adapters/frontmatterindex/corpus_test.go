package frontmatterindex

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// examplesDir finds seed 001's example library and the original server's
// recorded answers over it: $LIBRARIAN_EXAMPLES, else the repository's
// testdata, else the shared corpora folder of this project's workspace.
func examplesDir(t *testing.T) string {
	t.Helper()
	candidates := []string{
		os.Getenv("LIBRARIAN_EXAMPLES"),
		filepath.Join("..", "..", "testdata", "librarian-examples"),
		"/work/shared/corpora/librarian-examples",
	}
	for _, dir := range candidates {
		if dir == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "recorded", "calls", "listDocuments_root_default.txt")); err == nil {
			return dir
		}
	}
	t.Skipf("seed 001's example corpus not found (set LIBRARIAN_EXAMPLES to the folder holding docs/ and recorded/); tried %q", candidates[1:])
	return ""
}

// TestCorpusMatchesTheOriginalServer checks every doc of the example corpus,
// its path and its inherited tags in order, against what the original
// server listed (listDocuments with no arguments), and the tag counts
// against its listTags answer.
func TestCorpusMatchesTheOriginalServer(t *testing.T) {
	dir := examplesDir(t)
	recorded := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, "recorded", "calls", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// "- /hono/api/index.md\n  - tags: documentation, frontend, hono, api"
	wantTags := map[string][]string{}
	var wantOrder []string
	listing := regexp.MustCompile(`(?m)^- /(\S+)\n  - tags: (.*)$`)
	for _, m := range listing.FindAllStringSubmatch(recorded("listDocuments_root_default.txt"), -1) {
		wantTags[m[1]] = strings.Split(m[2], ", ")
		wantOrder = append(wantOrder, m[1])
	}
	if len(wantTags) < 100 {
		t.Fatalf("parsed only %d docs from the recorded listing; has its format changed?", len(wantTags))
	}

	cat := catalogOf(t, openIndex(t, filepath.Join(dir, "docs")))
	if got := tagsByPath(cat); !reflect.DeepEqual(got, wantTags) {
		for p, want := range wantTags {
			if !reflect.DeepEqual(got[p], want) {
				t.Errorf("%s tags:\n got %q\nwant %q", p, got[p], want)
			}
		}
		for p := range got {
			if _, ok := wantTags[p]; !ok {
				t.Errorf("%s listed, but the original server did not list it", p)
			}
		}
	}
	if len(cat.Notes) != 0 {
		t.Errorf("notes = %q, want none", cat.Notes)
	}

	// A few by name, as the recording shows them, so a failure reads
	// plainly: the root index.md, a folder's index.md, a doc under two
	// index.md files, and a doc whose own folder has none (react/hooks).
	for p, want := range map[string]string{
		"index.md":                              "documentation, frontend",
		"hono/api/index.md":                     "documentation, frontend, hono, api, overview",
		"hono/middleware/builtin/basic-auth.md": "documentation, frontend, hono, middleware, overview, builtin, third-party, authentication, basic-auth, security",
		"react/hooks/useLocalStorage.md":        "documentation, frontend, javascript, library, ui, state, persistence, browser",
	} {
		if got := strings.Join(tagsByPath(cat)[p], ", "); got != want {
			t.Errorf("%s tags = %q, want %q", p, got, want)
		}
	}

	// "- documentation (150)"
	wantCounts := map[string]int{}
	counts := regexp.MustCompile(`(?m)^- (\S+) \((\d+)\)$`)
	for _, m := range counts.FindAllStringSubmatch(recorded("listTags_root_default.txt"), -1) {
		wantCounts[m[1]], _ = strconv.Atoi(m[2])
	}
	gotCounts := map[string]int{}
	for _, d := range cat.Docs {
		for _, tag := range d.Tags {
			gotCounts[tag]++
		}
	}
	if !reflect.DeepEqual(gotCounts, wantCounts) {
		t.Errorf("tag counts:\n got %v\nwant %v", gotCounts, wantCounts)
	}

	// The port's order is byte order of Path. The original's differs on
	// this corpus (each folder's subfolders first, then its index.md, then
	// its other files: hono/api/index.md before hono/api/context.md, the
	// root index.md last); a tool set that must match it re-sorts.
	var got []string
	for _, d := range cat.Docs {
		got = append(got, d.Path)
	}
	for i := 1; i < len(got); i++ {
		if got[i-1] >= got[i] {
			t.Errorf("docs not in byte order: %q before %q", got[i-1], got[i])
		}
	}
}
