package browse_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/fileimages"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/answer"
	"github.com/librarian/librarian/ports/docindex"
	"github.com/librarian/librarian/ports/markdown"
)

// The -update flag rewrites golden files; another test file of the package
// may declare it too, so it is looked up, and declared only if nobody did.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// getLibRoot is the small json-convention library the get_documents tests,
// the fuzzer and the MCP and command-line tests share.
const getLibRoot = "../testdata/get/lib"

// testImageLimit is the image size limit of the test library: big.png is
// over it, every other image under it.
const testImageLimit = 2048

// budgetLibRoot is a library for the budget's cuts: a doc bigger than the
// tests' budgets, one the index overrates, a small one.
const budgetLibRoot = "../testdata/get/budget-lib"

// openTestLibrary opens testdata/get/lib with the real adapters.
func openTestLibrary(t testing.TB) *library.Library {
	t.Helper()
	return openLibraryAt(t, getLibRoot)
}

// openLibraryAt opens the json-convention library at root, its image index
// at images/index.json, with the real adapters.
func openLibraryAt(t testing.TB, root string) *library.Library {
	t.Helper()
	cfg := library.DefaultConfig()
	cfg.MaxImageBytes = testImageLimit
	return jsonLibraryWith(t, root, cfg)
}

// parseSelect reads a select list written as JSON, as the MCP tool gets it.
func parseSelect(t testing.TB, list string) []domain.Selector {
	t.Helper()
	var items []json.RawMessage
	if err := json.Unmarshal([]byte(list), &items); err != nil {
		t.Fatalf("select %s: %v", list, err)
	}
	sels, err := domain.ParseSelectors(items)
	if err != nil {
		t.Fatalf("select %s: %v", list, err)
	}
	return sels
}

func intPtr(n int) *int { return &n }

// getCase is one golden test: a call and the file its answer must match.
type getCase struct {
	name      string
	select_   string
	images    bool
	noCode    bool
	maxTokens *int
	lib       string // the library's root; "" is getLibRoot
}

// getCases pin every behaviour of get_documents over testdata/get/lib; each
// answer (images as their placeholder lines) is testdata/get/NAME.golden.
var getCases = []getCase{
	// Whole docs, by id or by path; ids win over paths; empty docs.
	{name: "whole-doc", select_: `["auth"]`},
	{name: "doc-by-path", select_: `["backend/storage/migrations.md", "./guides/fences.md", "guides/empty.md", "empty"]`},
	{name: "frontmatter", select_: `["getting-started", {"doc": "getting-started", "lines": [1, 3]}]`},
	// Roots expand in path order; a root shows the index's notes on docs it left out.
	{name: "root", select_: `[{"root": "backend/"}]`},
	{name: "root-whole-library", select_: `[{"root": "."}]`, noCode: true},
	// Sections in the order listed; full ids, unique leaves, ambiguous and unknown ones.
	{name: "sections-order", select_: `[{"doc": "auth", "sections": ["refresh-tokens/rotation", "login-flow"]}]`},
	{name: "section-leaf", select_: `[{"doc": "auth", "sections": ["reuse-detection", "rotation", "signing-keys/rotation", "nope"]}]`},
	// Line ranges: fence repairs where a range cuts a code block; clamping.
	{name: "lines-fence-repair", select_: `[{"doc": "auth", "lines": [27, 48]}, {"doc": "fences", "lines": [4, 15]}, {"doc": "fences", "lines": [6, 6]}, {"doc": "fences", "lines": [24, 25]}]`},
	{name: "lines-clamped", select_: `[{"doc": "migrations", "lines": [5, 99]}, {"doc": "migrations", "lines": [50, 60]}]`},
	// Code placeholders, whole and cut blocks.
	{name: "no-code", select_: `["fences", "caching"]`, noCode: true},
	{name: "no-code-cut", select_: `[{"doc": "auth", "lines": [27, 48], "include_code": false}]`},
	// Images: placeholders, images sent in place, repeats, limits, broken ones.
	{name: "images-omitted", select_: `["gallery"]`},
	{name: "images", select_: `["gallery", "caching"]`, images: true},
	{name: "images-same-doc-twice", select_: `[{"doc": "auth", "lines": [1, 10]}, {"doc": "auth", "lines": [11, 14]}]`, images: true},
	{name: "per-selector-override", select_: `[{"doc": "caching", "include_images": true}, {"doc": "fences", "include_code": false}, "migrations"]`},
	// Overlaps within one call.
	{name: "overlap-doc-then-section", select_: `["auth", {"doc": "auth", "sections": ["login-flow"]}]`},
	{name: "overlap-section-then-doc", select_: `[{"doc": "auth", "sections": ["refresh-tokens/rotation"]}, "auth"]`},
	{name: "overlap-settings", select_: `[{"doc": "caching", "include_code": false}, {"doc": "caching", "sections": ["invalidation"], "include_images": true}, {"doc": "caching", "lines": [20, 26], "include_code": false}]`},
	{name: "overlap-within-selector", select_: `[{"doc": "auth", "sections": ["refresh-tokens", "refresh-tokens/rotation"]}]`},
	{name: "overlap-cut-code", select_: `[{"doc": "caching", "lines": [1, 16]}, "caching"]`},
	{name: "overlap-root", select_: `[{"doc": "caching", "sections": ["ttl-rules"]}, {"root": "backend/storage"}]`},
	// Notes: nothing fails the call.
	{name: "notes", select_: `["nope", "authh", "gone", "escape", {"root": "nowhere"}, {"root": "../up"}, {"doc": "auth", "sections": ["nope"]}, {"doc": "auth", "lines": [90, 95]}]`},
	// The token budget.
	{name: "budget", select_: `["auth", {"doc": "caching", "sections": ["key-conventions", "invalidation"]}, {"root": "guides"}, {"doc": "migrations", "lines": [3, 5], "include_code": false}]`, maxTokens: intPtr(500), images: true},
	{name: "budget-trimmed", select_: `[{"doc": "auth", "sections": ["login-flow"]}, "auth"]`, maxTokens: intPtr(150)},
	{name: "budget-first-too-big", select_: `["auth", "migrations"]`, maxTokens: intPtr(100)},
	{name: "budget-none", select_: `[{"root": "backend"}]`, maxTokens: intPtr(0)},
	// The first chunk over the budget is cut to fit, its rest left out as a line range.
	{name: "cut-whole-doc", select_: `["big", "small"]`, maxTokens: intPtr(150), lib: budgetLibRoot},
	{name: "cut-at-heading", select_: `["big"]`, maxTokens: intPtr(130), lib: budgetLibRoot},
	{name: "cut-in-code", select_: `["big"]`, maxTokens: intPtr(200), lib: budgetLibRoot},
	{name: "cut-no-code", select_: `["big"]`, maxTokens: intPtr(200), noCode: true, lib: budgetLibRoot},
	{name: "cut-images", select_: `[{"doc": "big", "include_images": true}]`, maxTokens: intPtr(100), lib: budgetLibRoot},
	{name: "cut-nothing-fits", select_: `["big"]`, maxTokens: intPtr(5), lib: budgetLibRoot},
	{name: "cut-section", select_: `["small", {"doc": "big", "sections": ["rollout", "rollback"]}]`, maxTokens: intPtr(80), lib: budgetLibRoot},
	{name: "cut-after-kept", select_: `[{"doc": "big", "lines": [9, 16]}, "big", "stale"]`, maxTokens: intPtr(200), lib: budgetLibRoot},
	{name: "cut-too-little-left", select_: `[{"doc": "big", "lines": [5, 27]}, "big"]`, maxTokens: intPtr(200), lib: budgetLibRoot},
	{name: "cut-covered-overlap", select_: `["big", {"doc": "big", "sections": ["build"]}, {"doc": "big", "sections": ["rollback"]}]`, maxTokens: intPtr(70), lib: budgetLibRoot},
	{name: "cut-root", select_: `[{"root": "."}]`, maxTokens: intPtr(120), images: true, lib: budgetLibRoot},
	// The index's figure decides that a chunk must be cut; the cut measures the file.
	{name: "cut-index-overrates", select_: `["stale", "small"]`, maxTokens: intPtr(100), lib: budgetLibRoot},
	{name: "cut-index-overrates-later", select_: `["small", "stale"]`, maxTokens: intPtr(100), lib: budgetLibRoot},
}

func TestGetDocumentsGolden(t *testing.T) {
	libs := map[string]*library.Library{"": openTestLibrary(t), budgetLibRoot: openLibraryAt(t, budgetLibRoot)}
	worlds := map[string]*fuzzWorld{"": loadFuzzWorld(t), budgetLibRoot: loadWorldAt(t, budgetLibRoot)}
	for _, tc := range getCases {
		t.Run(tc.name, func(t *testing.T) {
			lib := libs[tc.lib]
			ans, err := browse.New(lib).GetDocuments(context.Background(), browse.GetRequest{
				Select:        parseSelect(t, tc.select_),
				IncludeImages: tc.images,
				IncludeCode:   !tc.noCode,
				MaxTokens:     tc.maxTokens,
			})
			if err != nil {
				t.Fatal(err)
			}
			checkAnswerShape(t, ans)
			if err := worlds[tc.lib].explain(ans); err != nil {
				t.Errorf("the fuzzer's checker refuses the answer: %v", err)
			}
			checkGolden(t, filepath.Join("..", "testdata", "get", tc.name+".golden"), ans.String())
		})
	}
}

// chunkTokens is the token figure of an answer's text before its Left out
// block (images are not counted).
func chunkTokens(ans answer.Answer) int {
	var b strings.Builder
	for _, p := range ans.Parts {
		b.WriteString(p.Text)
	}
	chunk, _, cut := strings.Cut(b.String(), "\n\nLeft out (")
	if cut {
		chunk += "\n" // the chunk's own last newline, which Cut took
	}
	return domain.EstimateTokens(int64(len(chunk)))
}

// restSelectorRE finds the rest of a cut chunk in a Left out block.
var restSelectorRE = regexp.MustCompile(`(?m)^- (\{.*\}) \(~\d+ tokens\): continues select\[\d+\] \(.+\), cut after L(\d+) to fit max_tokens$`)

// chunkRangeRE reads a chunk header's line range.
var chunkRangeRE = regexp.MustCompile(`(?m)^=== .* · L(\d+)(?:–(\d+))? ===$`)

// readDoc asks for sel and follows the rest of each cut chunk, call after
// call, as an agent would: every answer must hold one chunk that starts
// where the last one stopped and stays within the budget (or returns a
// single line when even that is over it). It returns the ranges returned.
func readDoc(t *testing.T, lib *library.Library, w *fuzzWorld, sel string, code, images bool, budget int) [][2]int {
	t.Helper()
	var got [][2]int
	req := browse.GetRequest{Select: parseSelect(t, sel), IncludeCode: code, IncludeImages: images, MaxTokens: &budget}
	for call := 0; ; call++ {
		if call > 200 {
			t.Fatalf("%s, budget %d: no end after %d calls", sel, budget, call)
		}
		ans, err := browse.New(lib).GetDocuments(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		text := ans.String()
		if err := w.explain(ans); err != nil {
			t.Fatalf("%s, budget %d, call %d: %v\n%s", sel, budget, call, err, text)
		}
		ranges := chunkRangeRE.FindAllStringSubmatch(text, -1)
		if len(ranges) != 1 {
			t.Fatalf("%s, budget %d, call %d: got %d chunks, want 1:\n%s", sel, budget, call, len(ranges), text)
		}
		from, _ := strconv.Atoi(ranges[0][1])
		to := from
		if ranges[0][2] != "" {
			to, _ = strconv.Atoi(ranges[0][2])
		}
		got = append(got, [2]int{from, to})
		if n := chunkTokens(ans); n > budget {
			chunk, _, _ := strings.Cut(text, "\n\nLeft out (")
			body := strings.Split(strings.TrimSuffix(chunk, "\n"), "\n")[1:]
			if to != from && !(len(body) == 1 && strings.HasPrefix(body[0], "[code block omitted:")) {
				t.Fatalf("%s, budget %d, call %d: ~%d tokens, over the budget with more than one line:\n%s", sel, budget, call, n, text)
			}
		}
		m := restSelectorRE.FindStringSubmatch(text)
		if m == nil {
			if strings.Contains(text, "Left out") {
				t.Fatalf("%s, budget %d, call %d: left out without a rest to continue from:\n%s", sel, budget, call, text)
			}
			return got
		}
		if cut, _ := strconv.Atoi(m[2]); cut != to {
			t.Fatalf("%s, budget %d, call %d: cut after L%d, the header ends at L%d", sel, budget, call, cut, to)
		}
		sel = "[" + m[1] + "]"
		req = browse.GetRequest{Select: parseSelect(t, sel), IncludeCode: true, MaxTokens: &budget}
	}
}

func TestGetDocumentsCutChunksContinue(t *testing.T) {
	libs := map[string]*library.Library{getLibRoot: openTestLibrary(t), budgetLibRoot: openLibraryAt(t, budgetLibRoot)}
	worlds := map[string]*fuzzWorld{getLibRoot: loadFuzzWorld(t), budgetLibRoot: loadWorldAt(t, budgetLibRoot)}
	docs := []struct {
		root, sel string
		from, to  int // the lines the selector asks for
	}{
		{budgetLibRoot, `["big"]`, 5, 52},
		{budgetLibRoot, `[{"doc": "big", "sections": ["release"]}]`, 22, 37},
		{getLibRoot, `["auth"]`, 1, 53},
		{getLibRoot, `["fences"]`, 1, 25},
		{getLibRoot, `[{"doc": "caching", "lines": [10, 26]}]`, 10, 26},
	}
	for _, d := range docs {
		for _, budget := range []int{1, 12, 25, 40, 64, 100, 150} {
			for _, code := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%d/code=%v", d.sel, budget, code), func(t *testing.T) {
					got := readDoc(t, libs[d.root], worlds[d.root], d.sel, code, !code, budget)
					next := d.from
					for _, r := range got {
						if r[0] != next {
							t.Fatalf("got ranges %v, want them to tile L%d–%d", got, d.from, d.to)
						}
						next = r[1] + 1
					}
					if next != d.to+1 {
						t.Fatalf("got ranges %v, want them to tile L%d–%d", got, d.from, d.to)
					}
				})
			}
		}
	}
}

// TestGetDocumentsBigDocUnderDefaultBudget is the case that made the cut:
// a 109 KB doc (~27,000 tokens) under the default 20,000-token budget came
// back as "(nothing returned)" and a Left out note naming the doc again.
func TestGetDocumentsBigDocUnderDefaultBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Big\n\n")
	for sec := 1; b.Len() < 109_000; sec++ {
		fmt.Fprintf(&b, "## Part %d\n\n", sec)
		for k := 1; k <= 30; k++ {
			fmt.Fprintf(&b, "Paragraph %d.%d says something long enough to fill a line of a big document.\n", sec, k)
		}
		fmt.Fprintf(&b, "\n```go\nfunc part%d() int {\n\treturn %d\n}\n```\n\n", sec, sec)
	}
	content := b.String()
	lines := strings.Count(content, "\n")
	for _, index := range []string{
		`{"documents": [{"id": "big", "path": "big.md"}]}`,
		`{"documents": [{"id": "big", "path": "big.md", "approx_tokens": 50000}]}`,
	} {
		dir := t.TempDir()
		for name, text := range map[string]string{"big.md": content, "index.json": index, "images/index.json": `{"images": []}`} {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ageFiles(t, dir)
		lib := openLibraryAt(t, dir)
		ans, err := browse.New(lib).GetDocuments(context.Background(), browse.GetRequest{Select: parseSelect(t, `["big"]`), IncludeCode: true})
		if err != nil {
			t.Fatal(err)
		}
		text := ans.String()
		if n := chunkTokens(ans); n > 20_000 || n < 15_000 {
			t.Errorf("%s: the first answer holds ~%d tokens, want most of the 20,000 budget", index, n)
		}
		m := restSelectorRE.FindStringSubmatch(text)
		if !strings.HasPrefix(text, "=== big (big.md) · L1–") || m == nil {
			t.Fatalf("%s: want the doc's first lines and the rest to continue from, got\n%s\n...\n%s", index, text[:200], tail(text, 600))
		}
		cut, _ := strconv.Atoi(m[2])
		t.Logf("%d bytes, %d lines, index %s: L1–%d, ~%d tokens, then %s", len(content), lines, index, cut, chunkTokens(ans), m[1])
		if want := fmt.Sprintf(`{"doc": "big", "lines": [%d,%d]}`, cut+1, lines); m[1] != want {
			t.Errorf("%s: rest %s, want %s", index, m[1], want)
		}
		if !strings.HasPrefix(string(fileLines([]byte(content))[cut]), "## Part ") {
			t.Errorf("%s: cut after L%d, want it before a section heading (L%d is %q)", index, cut, cut+1, fileLines([]byte(content))[cut])
		}
		got := readDoc(t, lib, loadWorldAt(t, dir), `["big"]`, true, false, 20_000)
		if len(got) != 2 || got[1] != [2]int{cut + 1, lines} {
			t.Errorf("%s: read in calls of %v, want L1–%d then L%d–%d", index, got, cut, cut+1, lines)
		}
	}
}

// checkGolden compares got with a golden file, rewriting it under -update.
func checkGolden(t *testing.T, file, got string) {
	t.Helper()
	if updating() {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./app/browse -run %s -update)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("answer differs from %s (-update rewrites it)\n--- got:\n%s\n--- want:\n%s", file, got, want)
	}
}

// checkAnswerShape checks what every answer holds to: text and images
// alternate (adjacent text is merged), every text part ends a line.
func checkAnswerShape(t *testing.T, ans answer.Answer) {
	t.Helper()
	for i, p := range ans.Parts {
		if p.Image == nil && p.Text == "" {
			t.Errorf("part %d is empty", i)
		}
		if i > 0 && p.Image == nil && ans.Parts[i-1].Image == nil {
			t.Errorf("parts %d and %d are both text: adjacent text must be merged", i-1, i)
		}
		if p.Image == nil && !strings.HasSuffix(p.Text, "\n") {
			t.Errorf("part %d does not end a line: %q", i, p.Text)
		}
	}
}

func TestGetDocumentsImagesInPlace(t *testing.T) {
	lib := openTestLibrary(t)
	ans, err := browse.New(lib).GetDocuments(context.Background(), browse.GetRequest{
		Select: parseSelect(t, `["gallery", "caching"]`), IncludeImages: true, IncludeCode: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	type want struct{ id, file, mime, stubLine string }
	wants := []want{
		{"img-login", "images/login.png", "image/png", "![[image:img-login]]"},
		{"img-vector", "images/arch.svg", "image/svg+xml", "A vector drawing: ![[image:img-vector]]"},
		{"img-spinner", "images/spinner.gif", "image/gif", "![[image:img-spinner]]"},
		// the same image in another doc is sent again with that doc
		{"img-fanout", "images/fanout.png", "image/png", "![[image:img-fanout]]"},
		{"img-login", "images/login.png", "image/png", "The login sequence shows where sessions start: ![[image:img-login]]"},
	}
	var got []int
	for i, p := range ans.Parts {
		if p.Image != nil {
			got = append(got, i)
		}
	}
	if len(got) != len(wants) {
		t.Fatalf("got %d images, want %d", len(got), len(wants))
	}
	for k, i := range got {
		w, img := wants[k], ans.Parts[i].Image
		if img.ID != w.id || img.File != w.file || img.MIME != w.mime {
			t.Errorf("image %d: got %s %s %s, want %s %s %s", k, img.ID, img.File, img.MIME, w.id, w.file, w.mime)
		}
		file, err := os.ReadFile(filepath.Join(getLibRoot, w.file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytesEqual(img.Data, file) {
			t.Errorf("image %d (%s): got %d bytes, want the file's %d bytes", k, w.id, len(img.Data), len(file))
		}
		// The text up to and including the stub's line comes first, the
		// rest after.
		before := ans.Parts[i-1].Text
		if !strings.HasSuffix(before, w.stubLine+"\n") {
			t.Errorf("image %d (%s): the text before it ends %q, want the stub line %q", k, w.id, tail(before, 80), w.stubLine)
		}
		if i+1 >= len(ans.Parts) || ans.Parts[i+1].Image != nil {
			t.Errorf("image %d (%s): not followed by text", k, w.id)
		}
	}
}

func bytesEqual(a, b []byte) bool { return string(a) == string(b) }

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func TestGetDocumentsNamesDocsByIDOrPath(t *testing.T) {
	lib := openTestLibrary(t)
	get := func(sel string) string {
		ans, err := browse.New(lib).GetDocuments(context.Background(), browse.GetRequest{Select: parseSelect(t, sel), IncludeCode: true})
		if err != nil {
			t.Fatal(err)
		}
		return ans.String()
	}
	want := get(`["auth"]`)
	for _, sel := range []string{`["backend/auth.md"]`, `["./backend/auth.md"]`, `["/backend/auth.md"]`, `[{"doc": "backend/auth.md"}]`} {
		if got := get(sel); got != want {
			t.Errorf("%s: got\n%s\nwant the same as \"auth\":\n%s", sel, got, want)
		}
	}
	// An id that is another doc's path names the doc with that id.
	if got := get(`["guides/empty.md"]`); !strings.HasPrefix(got, "=== guides/empty.md (guides/id-wins.md) · ") {
		t.Errorf("ids must win over paths: got\n%s", got)
	}
}

func TestGetDocumentsCallsAreIndependent(t *testing.T) {
	lib := openTestLibrary(t)
	ctx := context.Background()
	req := func(sel string) browse.GetRequest {
		return browse.GetRequest{Select: parseSelect(t, sel), IncludeCode: true, IncludeImages: true}
	}
	if _, err := browse.New(lib).GetDocuments(ctx, req(`["auth"]`)); err != nil {
		t.Fatal(err)
	}
	ans, err := browse.New(lib).GetDocuments(ctx, req(`[{"doc": "auth", "sections": ["login-flow"]}]`))
	if err != nil {
		t.Fatal(err)
	}
	got := ans.String()
	if strings.Contains(got, "Overlaps:") {
		t.Errorf("a second call must not remember the first:\n%s", got)
	}
	if n := countImages(ans); n != 1 {
		t.Errorf("got %d images, want img-login sent once again", n)
	}
}

func countImages(a answer.Answer) int {
	n := 0
	for _, p := range a.Parts {
		if p.Image != nil {
			n++
		}
	}
	return n
}

func TestGetDocumentsRejects(t *testing.T) {
	lib := openTestLibrary(t)
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		req  browse.GetRequest
		want error
	}{
		{"empty select", ctx, browse.GetRequest{}, domain.ErrInvalidSelector},
		{"negative budget", ctx, browse.GetRequest{Select: parseSelect(t, `["auth"]`), MaxTokens: intPtr(-1)}, domain.ErrInvalidArgument},
		{"cancelled", cancelled, browse.GetRequest{Select: parseSelect(t, `["auth"]`)}, context.Canceled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := browse.New(lib).GetDocuments(tc.ctx, tc.req)
			if !errors.Is(err, tc.want) {
				t.Errorf("got error %v, want %v", err, tc.want)
			}
		})
	}
}

func TestGetDocumentsInvalidIndexFailsTheCall(t *testing.T) {
	dir := copyLibrary(t)
	if err := os.WriteFile(filepath.Join(dir, "images", "index.json"), []byte(`{"images": [{"id": "x"}, {"id": "x", "file": "../up.png"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, _, _ := openCountingLibrary(t, dir)
	_, err := browse.New(lib).GetDocuments(context.Background(), browse.GetRequest{Select: parseSelect(t, `["auth"]`), IncludeCode: true})
	var ie *domain.IndexError
	if !errors.As(err, &ie) {
		t.Fatalf("got %v, want a *domain.IndexError", err)
	}
	if len(ie.Problems) < 2 {
		t.Errorf("got problems %v, want every problem listed", ie.Problems)
	}
}

// countingSource counts the document files an index source reads.
type countingSource struct {
	docindex.Source
	mu    sync.Mutex
	reads map[string]int
}

func (c *countingSource) ReadFile(ctx context.Context, p string) ([]byte, domain.Stamp, error) {
	c.mu.Lock()
	c.reads[p]++
	c.mu.Unlock()
	return c.Source.ReadFile(ctx, p)
}

func (c *countingSource) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.reads {
		n += v
	}
	return n
}

// countingParser counts parses.
type countingParser struct {
	markdown.Parser
	parses atomic.Int64
}

func (c *countingParser) Parse(src []byte) domain.Structure {
	c.parses.Add(1)
	return c.Parser.Parse(src)
}

// copyLibrary copies testdata/get/lib's regular files to a temporary
// directory that a test may change.
func copyLibrary(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.WalkDir(getLibRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(getLibRoot, p)
		switch {
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	ageFiles(t, dir)
	return dir
}

// ageFiles sets every file's times an hour back, so the parse cache trusts
// their stamps at once (a file read within seconds of its modification is
// read again, for edits within one timestamp tick).
func ageFiles(t testing.TB, dir string) {
	t.Helper()
	past := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		return os.Chtimes(p, past, past)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func openCountingLibrary(t *testing.T, dir string) (*library.Library, *countingSource, *countingParser) {
	t.Helper()
	src, err := jsonindex.New(dir, "index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	images, err := fileimages.New(dir, "images/index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { images.Close() })
	cs := &countingSource{Source: src, reads: map[string]int{}}
	cp := &countingParser{Parser: goldmarkmarkdown.New()}
	return library.New(cs, cp, images, library.DefaultConfig()), cs, cp
}

func TestGetDocumentsDoesNotRereadUnchangedFiles(t *testing.T) {
	dir := copyLibrary(t)
	lib, src, parser := openCountingLibrary(t, dir)
	ctx := context.Background()
	req := browse.GetRequest{Select: parseSelect(t, `[{"root": "."}, {"doc": "auth", "sections": ["login-flow"]}]`), IncludeCode: true}
	first, err := browse.New(lib).GetDocuments(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	docs := 8 // the readable docs of the library
	if got := src.total(); got != docs {
		t.Errorf("first call: got %d reads, want %d (one per doc)", got, docs)
	}
	if got := parser.parses.Load(); got != int64(docs) {
		t.Errorf("first call: got %d parses, want %d", got, docs)
	}
	for i := 0; i < 3; i++ {
		again, err := browse.New(lib).GetDocuments(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if again.String() != first.String() {
			t.Fatalf("unchanged library, different answer:\n%s\nthen\n%s", first.String(), again.String())
		}
	}
	if got := src.total(); got != docs {
		t.Errorf("after unchanged calls: got %d reads, want still %d", got, docs)
	}
	if got := parser.parses.Load(); got != int64(docs) {
		t.Errorf("after unchanged calls: got %d parses, want still %d", got, docs)
	}

	// One file changes: it alone is read and parsed again, and the answer
	// shows the new text.
	p := filepath.Join(dir, "backend", "storage", "migrations.md")
	if err := os.WriteFile(p, []byte("# Migrations\n\nRewritten.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	ans, err := browse.New(lib).GetDocuments(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ans.String(), "Rewritten.") {
		t.Errorf("the changed file's new text is missing:\n%s", ans.String())
	}
	if got := src.reads["backend/storage/migrations.md"]; got != 2 {
		t.Errorf("changed file: got %d reads, want 2", got)
	}
	if got := src.total(); got != docs+1 {
		t.Errorf("after one change: got %d reads, want %d", got, docs+1)
	}
	if got := parser.parses.Load(); got != int64(docs+1) {
		t.Errorf("after one change: got %d parses, want %d", got, docs+1)
	}
}

// fakeSource is an in-memory index source: files by path, and errors that
// Stat and ReadFile give for some paths (a file that vanished or turned
// into an escaping symlink after the catalog was read).
type fakeSource struct {
	docs  []domain.Document
	files map[string]string
	errs  map[string]error
}

func (f *fakeSource) Catalog(context.Context) (*domain.Catalog, error) {
	return &domain.Catalog{Docs: f.docs}, nil
}

func (f *fakeSource) Stat(_ context.Context, p string) (domain.Stamp, error) {
	if err := f.errs[p]; err != nil {
		return domain.Stamp{}, err
	}
	c, ok := f.files[p]
	if !ok {
		return domain.Stamp{}, fmt.Errorf("%s: %w", p, domain.ErrNotFound)
	}
	return domain.Stamp{Size: int64(len(c))}, nil
}

func (f *fakeSource) ReadFile(ctx context.Context, p string) ([]byte, domain.Stamp, error) {
	st, err := f.Stat(ctx, p)
	if err != nil {
		return nil, st, err
	}
	return []byte(f.files[p]), st, nil
}

// fakeParser answers a hand-built structure for each file's content.
type fakeParser map[string]domain.Structure

func (f fakeParser) Parse(src []byte) domain.Structure { return f[string(src)] }

func TestGetDocumentsFenceRepairEdges(t *testing.T) {
	content := strings.Join([]string{
		"intro",    // 1
		"  ```sh",  // 2: an indented fence
		"  echo a", // 3
		"  ```",    // 4
		"text",     // 5
		"````",     // 6: no info string, four backticks
		"raw",      // 7
		"````",     // 8
		"> ```go",  // 9: inside a block quote, never closed: it ends with the quote
		"> x := 1", // 10
		"after",    // 11
		"~~~ rb  ", // 12: unclosed at the end of the file
		"puts 1\r", // 13: CRLF stays verbatim
	}, "\n")
	structure := domain.Structure{
		Lines:    13,
		Sections: []domain.Section{{ID: "_preamble", Start: 1, End: 13, Parent: -1, Depth: 1}},
		CodeBlocks: []domain.CodeBlock{
			{Info: "sh", Fence: "```", Indent: "  ", Start: 2, End: 4, Closed: true},
			{Info: "", Fence: "````", Start: 6, End: 8, Closed: true},
			{Info: "go", Fence: "```", Start: 9, End: 10},
			{Info: "rb", Fence: "~~~", Start: 12, End: 13},
		},
	}
	src := &fakeSource{
		docs:  []domain.Document{{ID: "f", Path: "f.md"}},
		files: map[string]string{"f.md": content},
	}
	lib := library.New(src, fakeParser{content: structure}, nil, library.DefaultConfig())
	tests := []struct {
		lines string
		want  string
	}{
		{"[4, 6]", "=== f (f.md) · L4–6 ===\n" +
			"[fence re-opened: L4 is inside the sh code block of L2–4]\n" +
			"  ```sh\n" +
			"  ```\n" +
			"text\n" +
			"````\n" +
			"````\n" +
			"[fence closed: the code block of L6–8 continues after L6]\n"},
		{"[10, 11]", "=== f (f.md) · L10–11 ===\n" +
			"[fence re-opened: L10 is inside the go code block of L9–10]\n" +
			"```go\n" +
			"> x := 1\n" +
			"after\n"},
		{"[13, 13]", "=== f (f.md) · L13 ===\n" +
			"[fence re-opened: L13 is inside the rb code block of L12–13]\n" +
			"~~~ rb\n" +
			"puts 1\r\n" +
			"~~~\n" +
			"[fence closed: the rb code block of L12–13 is never closed in the file]\n"},
		{"[3, 3]", "=== f (f.md) · L3 ===\n" +
			"[fence re-opened: L3 is inside the sh code block of L2–4]\n" +
			"  ```sh\n" +
			"  echo a\n" +
			"  ```\n" +
			"[fence closed: the sh code block of L2–4 continues after L3]\n"},
	}
	for _, tc := range tests {
		t.Run(tc.lines, func(t *testing.T) {
			ans, err := browse.New(lib).GetDocuments(context.Background(), browse.GetRequest{
				Select: parseSelect(t, `[{"doc": "f", "lines": `+tc.lines+`}]`), IncludeCode: true,
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := ans.String(); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestGetDocumentsFilesThatCannotBeOpened(t *testing.T) {
	src := &fakeSource{
		docs: []domain.Document{
			{ID: "ok", Path: "ok.md"}, {ID: "moved", Path: "moved.md"},
			{ID: "escaped", Path: "escaped.md"}, {ID: "broken", Path: "broken.md"},
		},
		files: map[string]string{"ok.md": "# OK\n![[image:img-x]]\n"},
		errs: map[string]error{
			"escaped.md": fmt.Errorf("'escaped.md' resolves outside the library root: %w", domain.ErrRefused),
			"broken.md":  errors.New("input/output error"),
		},
	}
	parser := fakeParser{"# OK\n![[image:img-x]]\n": {Lines: 2, Images: []domain.ImageStub{{ID: "img-x", Line: 2}}}}
	lib := library.New(src, parser, nil, library.DefaultConfig())
	ans, err := browse.New(lib).GetDocuments(context.Background(), browse.GetRequest{
		Select: parseSelect(t, `["moved", {"root": "."}, "escaped"]`), IncludeCode: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "=== ok (ok.md) · L1–2 ===\n" +
		"# OK\n" +
		"![[image:img-x]]\n" +
		"[image unknown: img-x (see Notes)]\n" +
		"\n" +
		"Notes:\n" +
		"- select[0]: missing: moved (moved.md): file not found\n" +
		"- select[1]: refused: escaped (escaped.md): 'escaped.md' resolves outside the library root: refused\n" +
		"- select[1]: unreadable: broken (broken.md): input/output error\n" +
		"- select[1]: unknown image 'img-x' in ok (ok.md) L2: the library has no image index\n"
	if got := ans.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestGetDocumentsSeesSameStampEdit: two same-size edits within one
// timestamp tick leave the stamp unchanged; the cache must still see the
// second one (it re-checks files read soon after their modification).
func TestGetDocumentsSeesSameStampEdit(t *testing.T) {
	dir := copyLibrary(t)
	p := filepath.Join(dir, "backend", "storage", "migrations.md")
	mtime := time.Now()
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	write("# Migrations\n\nVersion AAA.\n")
	lib, _, parser := openCountingLibrary(t, dir)
	ctx := context.Background()
	req := browse.GetRequest{Select: parseSelect(t, `["migrations"]`), IncludeCode: true}
	get := func() string {
		t.Helper()
		ans, err := browse.New(lib).GetDocuments(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return ans.String()
	}
	if got := get(); !strings.Contains(got, "Version AAA.") {
		t.Fatalf("first answer lacks the text:\n%s", got)
	}
	write("# Migrations\n\nVersion BBB.\n") // same size, same mtime, same inode
	if got := get(); !strings.Contains(got, "Version BBB.") {
		t.Errorf("a same-stamp edit was missed:\n%s", got)
	}
	parses := parser.parses.Load()
	get() // unchanged bytes: read again (still racy) but not parsed again
	if got := parser.parses.Load(); got != parses {
		t.Errorf("unchanged bytes were parsed again: %d parses, want %d", got, parses)
	}
}
