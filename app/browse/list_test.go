package browse_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/fileimages"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/library/librarytest"
	"github.com/librarian/librarian/domain"
)

func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files")
	}
}

// checkGolden compares got with testdata/NAME, or rewrites it under -update.
func checkListGolden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join("..", "testdata", name)
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update to accept):\n--- got\n%s\n--- want\n%s", file, got, want)
	}
}

// jsonLibrary opens a json-convention library with the real adapters and
// the default limits.
func jsonLibrary(t testing.TB, root string) *library.Library {
	t.Helper()
	return jsonLibraryWith(t, root, library.DefaultConfig())
}

// jsonLibraryWith opens the json-convention library at root, its image
// index at images/index.json, with the real adapters and cfg; both are
// closed when the test ends.
func jsonLibraryWith(t testing.TB, root string, cfg library.Config) *library.Library {
	t.Helper()
	src, err := jsonindex.New(root, "index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	img, err := fileimages.New(root, "images/index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { img.Close() })
	return library.New(src, goldmarkmarkdown.New(), img, cfg)
}

func intp(n int) *int { return &n }

func TestListDocumentsGolden(t *testing.T) {
	bundled := jsonLibrary(t, filepath.Join("..", "..", "library"))
	edge := jsonLibrary(t, filepath.Join("..", "..", "testdata", "edge-library"))
	for _, tc := range []struct {
		name string
		lib  *library.Library
		req  browse.ListRequest
	}{
		{"library-root", bundled, browse.ListRequest{Scope: domain.Scope{Root: ".", Depth: -1}}},
		{"library-line-bounds", bundled, browse.ListRequest{Scope: domain.Scope{Root: ".", Depth: -1}, LineBounds: true}},
		{"library-storage", bundled, browse.ListRequest{Scope: domain.Scope{Root: "backend/storage", Depth: -1}, LineBounds: true}},
		{"library-section-depth-1", bundled, browse.ListRequest{Scope: domain.Scope{Root: "backend", Depth: -1}, LineBounds: true, SectionDepth: intp(1)}},
		{"library-section-depth-0", bundled, browse.ListRequest{Scope: domain.Scope{Root: "", Depth: -1}, SectionDepth: intp(0)}},
		{"library-tags", bundled, browse.ListRequest{Scope: domain.Scope{Root: "/", Tags: []string{"security", "onboarding"}, Depth: -1}}},
		{"library-depth-1", bundled, browse.ListRequest{Scope: domain.Scope{Root: "backend/", Depth: 1}}},
		{"library-budget", bundled, browse.ListRequest{Scope: domain.Scope{Root: ".", Depth: -1}, MaxTokens: intp(250)}},
		{"library-no-budget", bundled, browse.ListRequest{Scope: domain.Scope{Root: ".", Depth: -1}, MaxTokens: intp(0)}},
		{"edge-line-bounds", edge, browse.ListRequest{Scope: domain.Scope{Root: ".", Depth: -1}, LineBounds: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := browse.New(tc.lib).ListDocuments(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			checkListGolden(t, filepath.Join("list", tc.name+".txt"), got)
		})
	}
}

func TestListDocumentsSeedExample(t *testing.T) {
	lib := jsonLibrary(t, filepath.Join("..", "..", "library"))
	got, err := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Root: "backend/storage", Depth: -1}, LineBounds: true})
	if err != nil {
		t.Fatal(err)
	}
	// Seed 000's example, line for line (our sample library is written to match it).
	want := []string{
		"backend/storage/ (2 docs, ~351 tokens)",
		"- caching [caching.md] ~226 tokens — Redis key conventions, invalidation with fan-out deletes, TTL rules · tags: backend, storage",
		"sections, 38 lines:",
		`§ _intro "Caching" L1–5`,
		`§ key-conventions "Key conventions" L6–16`,
		`§ invalidation "Invalidation" L17–34`,
		`§ invalidation/fan-out-deletes "Fan-out deletes" L21–34`,
		`§ ttl-rules "TTL rules" L35–38`,
	}
	lines := strings.Split(got, "\n")
	if len(lines) < len(want) {
		t.Fatalf("got %d lines, want at least %d:\n%s", len(lines), len(want), got)
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d = %q, want %q", i+1, lines[i], w)
		}
	}
}

func TestListDocumentsUnknownRoot(t *testing.T) {
	lib := jsonLibrary(t, filepath.Join("..", "..", "library"))
	for root, want := range map[string]string{
		"nowhere":         "no folder 'nowhere' in the library; folders at the top: backend/, guides/",
		"backend/nothing": "no folder 'backend/nothing' in the library; folders in 'backend/': backend/storage/",
		"../outside":      "may not contain '..'",
	} {
		_, err := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Root: root, Depth: -1}})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("root %q: err = %v, want it to contain %q", root, err, want)
		}
	}
}

func TestListDocumentsInvalidIndexFailsWithEveryProblem(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.json"), []byte(`{"documents": [
		{"id": "a", "path": "/abs.md"},
		{"id": "a", "path": "x\\y.md"},
		{"path": "../up.md"}
	]}`), 0o644)
	os.MkdirAll(filepath.Join(dir, "images"), 0o755)
	os.WriteFile(filepath.Join(dir, "images", "index.json"), []byte(`{"images": [{"id": "i", "file": "../x.png"}]}`), 0o644)
	lib := jsonLibrary(t, dir)
	_, err := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Depth: -1}})
	var ie *domain.IndexError
	if !asIndexError(err, &ie) {
		t.Fatalf("err = %v, want a *domain.IndexError", err)
	}
	msg := err.Error()
	for _, want := range []string{"must be relative", "may not contain '\\'", "duplicate", "'id'", "'path' may not contain '..'", "images[0] (id 'i'): 'file' may not contain '..'"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
}

func TestListDocumentsBudgetReadsOnlyWhatItShows(t *testing.T) {
	dir := t.TempDir()
	layout := librarytest.GenLibrary(t, dir, 300)
	_ = layout
	lib, src, parser := openCountingLibrary(t, dir)
	got, err := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Depth: -1}, MaxTokens: intp(2000)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "Left out (over max_tokens=2000): ") || !strings.Contains(got, `- root="area-02"`) {
		t.Errorf("a cut listing should end with what was left out:\n%s", got[max(0, len(got)-1500):])
	}
	if n := (len(got) + 3) / 4; n > 2000+200 {
		t.Errorf("answer is ~%d tokens, want about the budget of 2000", n)
	}
	if reads, parses := src.total(), parser.parses.Load(); reads >= 300 || parses >= 300 {
		t.Errorf("a cut listing read %d and parsed %d of 300 docs; want only those shown (and their batch)", reads, parses)
	}
	full, err := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Depth: -1}, MaxTokens: intp(0)})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(full, "Left out") || !strings.HasPrefix(full, "./ (300 docs") {
		t.Errorf("max_tokens=0 should list everything:\n%s", full[:200])
	}
	if _, err := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Depth: -1}, MaxTokens: intp(-1)}); err == nil {
		t.Error("a negative max_tokens should be refused")
	}
}

func TestHugeDocIsNotRead(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "index.json"), `{"documents": [{"id": "big", "path": "big.md"}, {"id": "small", "path": "small.md"}]}`)
	writeFile(t, filepath.Join(dir, "small.md"), "# Small\n")
	big, err := os.Create(filepath.Join(dir, "big.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(40 << 30); err != nil { // sparse: 40 GiB of nothing
		t.Skipf("cannot make a sparse file here: %v", err)
	}
	big.Close()
	lib := jsonLibrary(t, dir)
	got, err := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Depth: -1}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "too large: big (big.md): 42949672960 bytes, over the 16777216-byte limit for a document (the default; raise it with LIBRARY_MAX_DOC_BYTES or --max-doc-bytes)") || !strings.Contains(got, "§ _intro \"Small\"") {
		t.Errorf("a huge doc should be noted, naming the setting, and the rest listed:\n%s", got)
	}
	cfg := library.DefaultConfig()
	cfg.MaxDocBytes, cfg.MaxDocBytesFrom = 4, "--max-doc-bytes"
	got, err = browse.New(jsonLibraryWith(t, dir, cfg)).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Depth: -1}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "too large: small (small.md): 8 bytes, over the 4-byte limit for a document (set by --max-doc-bytes)") {
		t.Errorf("the note should name the flag that set the limit:\n%s", got)
	}
}

func TestListDocumentsBudgetNeverEndsOnABareFolderLine(t *testing.T) {
	lib := jsonLibrary(t, filepath.Join("..", "..", "library"))
	for budget := 60; budget <= 600; budget += 15 {
		got, err := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Depth: -1}, MaxTokens: intp(budget)})
		if err != nil {
			t.Fatal(err)
		}
		body, leftOut, cut := strings.Cut(got, "\n\nLeft out")
		if !cut {
			continue
		}
		// A folder line with none of its docs is fine now (breadth first),
		// but then the folder is named among those left out.
		lines := strings.Split(body, "\n")
		for k, line := range lines {
			name, _, isFolder := strings.Cut(line, "/ (")
			if !isFolder || name == "." {
				continue
			}
			if (k+1 == len(lines) || !strings.HasPrefix(lines[k+1], "- ")) && !strings.Contains(leftOut, `root="`+name+`"`) && !strings.Contains(leftOut, `root="`+strings.Split(name, "/")[0]+`"`) {
				t.Errorf("max_tokens=%d: folder %s shows none of its docs and is not named as left out:\n%s", budget, name, got)
			}
		}
	}
}
