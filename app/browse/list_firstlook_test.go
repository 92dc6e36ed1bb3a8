package browse_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library/librarytest"
	"github.com/librarian/librarian/domain"
)

// TestListDocumentsFirstLookIsBreadthFirst: a budget too small for a big
// library still shows every folder under the root with its counts, and
// what it names as left out are the highest folders, never one inside
// another.
func TestListDocumentsFirstLookIsBreadthFirst(t *testing.T) {
	dir := t.TempDir()
	librarytest.GenLibrary(t, dir, 1000) // area-00..area-09, ten mod-N folders each, ten docs each
	lib := jsonLibrary(t, dir)
	for _, budget := range []int{300, 2000, 6000} {
		got, err := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Depth: -1}, MaxTokens: intp(budget)})
		if err != nil {
			t.Fatal(err)
		}
		body, leftOut, cut := strings.Cut(got, "\n\nLeft out")
		if !cut {
			t.Fatalf("max_tokens=%d: want a cut listing, got\n%s", budget, got)
		}
		if !strings.HasPrefix(body, "./ (1000 docs, ~") {
			t.Errorf("max_tokens=%d: want the root's line first, got\n%.300s", budget, body)
		}
		for a := 0; a < 10; a++ {
			if !regexp.MustCompile(fmt.Sprintf(`(?m)^area-%02d/ \(100 docs, ~\d+ tokens\)$`, a)).MatchString(body) {
				t.Errorf("max_tokens=%d: folder area-%02d/ is not shown with its counts:\n%s", budget, a, body)
			}
		}
		if n := (len(got) + 3) / 4; n > budget+200 {
			t.Errorf("max_tokens=%d: answer is ~%d tokens", budget, n)
		}
		var named []string
		for _, m := range regexp.MustCompile(`(?m)^- root="([^"]+)"`).FindAllStringSubmatch(leftOut, -1) {
			named = append(named, m[1])
		}
		if len(named) == 0 {
			t.Errorf("max_tokens=%d: no folder named as left out:\n%s", budget, leftOut)
		}
		for _, a := range named {
			for _, b := range named {
				if strings.HasPrefix(b, a+"/") {
					t.Errorf("max_tokens=%d: left out names both %s and its descendant %s", budget, a, b)
				}
			}
		}
		// A doc of a subfolder only when every mod-N line of the level is shown.
		if strings.Contains(body, "- doc-") && strings.Count(body, "/mod-") < 100 {
			t.Errorf("max_tokens=%d: docs shown before every folder line of their level:\n%s", budget, body)
		}
	}
	// The smallest budget names the top folders themselves.
	got, _ := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Depth: -1}, MaxTokens: intp(300)})
	if !strings.Contains(got, "- root=\"area-00\"\n") || !strings.Contains(got, "- root=\"area-09\"") {
		t.Errorf("max_tokens=300: want every top folder named as left out:\n%s", got)
	}
}

// TestListDocumentsDepthShowsTheFoldersItStopsAt: depth lists the folders
// where it stops, with their counts, and never says no document matches
// when there are folders.
func TestListDocumentsDepthShowsTheFoldersItStopsAt(t *testing.T) {
	dir := t.TempDir()
	librarytest.GenLibrary(t, dir, 200)
	lib := jsonLibrary(t, dir)
	for depth, want := range map[int][]string{
		0: {"./ (200 docs, ~", "\narea-00/ (100 docs, ~", "\narea-01/ (100 docs, ~"},
		1: {"./ (200 docs, ~", "\narea-00/ (100 docs, ~", "\narea-01/ (100 docs, ~"},
		2: {"\narea-00/ (100 docs, ~", "\narea-00/mod-0/ (10 docs, ~", "\narea-01/mod-9/ (10 docs, ~"},
		3: {"\narea-00/mod-0/ (10 docs, ~", "\n- doc-00000 [doc-00000.md]"},
	} {
		got, err := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Depth: depth}, SectionDepth: intp(0), MaxTokens: intp(0)})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("depth=%d: want %q in\n%.600s", depth, w, got)
			}
		}
		if strings.Contains(got, "no documents match") || depth < 3 && strings.Contains(got, "- doc-") {
			t.Errorf("depth=%d: got\n%.600s", depth, got)
		}
		if depth == 1 && strings.Contains(got, "mod-") {
			t.Errorf("depth=1 should stop at area-NN/:\n%s", got)
		}
	}
	// A budget cut under a depth carries the depth down to the folders named.
	got, err := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Depth: 3}, MaxTokens: intp(400)})
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`- root="area-0\d(/mod-\d)?" depth=[12]\n`).MatchString(got + "\n") {
		t.Errorf("a cut under depth 3 should name folders with the depth left for them:\n%s", got)
	}
}

// TestListDocumentsRootNamesADoc: root may be a doc's id or path; the answer
// is its line and outline with line bounds and each section's tokens.
func TestListDocumentsRootNamesADoc(t *testing.T) {
	lib := jsonLibrary(t, filepath.Join("..", "..", "library"))
	want := "- auth [backend/auth.md] ~353 tokens — Gateway token validation, login flow, refresh token rotation and reuse detection · tags: backend, security\n" +
		"sections, 57 lines:\n" +
		"§ _intro \"Authentication\" L1–4 ~25 tokens\n" +
		"§ login-flow \"Login flow\" L5–13 ~77 tokens\n" +
		"§ refresh-tokens \"Refresh tokens\" L14–43 ~226 tokens\n" +
		"§ refresh-tokens/rotation \"Rotation\" L18–38 ~160 tokens\n" +
		"§ refresh-tokens/reuse-detection \"Reuse detection\" L39–43 ~42 tokens\n" +
		"§ gateway-validation \"Gateway validation\" L44–57 ~94 tokens"
	for _, root := range []string{"auth", "backend/auth.md", "/backend/auth.md"} {
		got, err := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Root: root, Depth: -1}})
		if err != nil {
			t.Fatalf("root %q: %v", root, err)
		}
		if got != want {
			t.Errorf("root %q: got\n%s\nwant\n%s", root, got, want)
		}
	}
	got, err := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Root: "auth", Depth: -1}, SectionDepth: intp(2)})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "§ refresh-tokens/rotation") || !strings.Contains(got, "§ gateway-validation \"Gateway validation\" L44–57 ~94 tokens") {
		t.Errorf("section_depth=2 on a doc root: got\n%s", got)
	}
}

// TestListDocumentsCutsALongOutline (issue 14.5): a doc with 10,000
// headings listed with max_tokens 1000 stays near the budget, as a doc root
// and inside a folder listing, and says what it left out.
func TestListDocumentsCutsALongOutline(t *testing.T) {
	dir := t.TempDir()
	var doc strings.Builder
	doc.WriteString("# Many\n\n")
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&doc, "## Heading number %d\n\ntext %d\n\n", i, i)
	}
	writeFile(t, filepath.Join(dir, "index.json"), `{"documents": [{"id": "many", "path": "big/many.md", "title": "Many", "summary": "", "approx_tokens": 90000}]}`)
	writeFile(t, filepath.Join(dir, "big", "many.md"), doc.String())
	lib := jsonLibrary(t, dir)
	for _, req := range []browse.ListRequest{
		{Scope: domain.Scope{Root: "many", Depth: -1}, MaxTokens: intp(1000)},
		{Scope: domain.Scope{Root: "big", Depth: -1}, MaxTokens: intp(1000)},
		{Scope: domain.Scope{Depth: -1}, MaxTokens: intp(1000), LineBounds: true},
	} {
		got, err := browse.New(lib).ListDocuments(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if n := (len(got) + 3) / 4; n > 1000+60 {
			t.Errorf("root %q: answer is ~%d tokens over max_tokens=1000", req.Root, n)
		}
		if !strings.Contains(got, "§ heading-number-0 ") {
			t.Errorf("root %q: the outline's start is missing:\n%.400s", req.Root, got)
		}
		if !strings.Contains(got, "Left out (over max_tokens=1000)") && !strings.Contains(got, "[outline cut at max_tokens: ") {
			t.Errorf("root %q: the cut is not said:\n%s", req.Root, got[max(0, len(got)-600):])
		}
	}
	got, _ := browse.New(lib).ListDocuments(context.Background(), browse.ListRequest{Scope: domain.Scope{Root: "many", Depth: -1}, MaxTokens: intp(1000)})
	if !regexp.MustCompile(`Left out \(over max_tokens=1000\): \d+ of the outline's sections, L\d+–40002\. .*get_documents \{"doc": "many", "lines": \[\d+, 40002\]\}`).MatchString(got) {
		t.Errorf("a doc root's cut outline should say what is left and how to get it:\n%s", got[max(0, len(got)-400):])
	}
}
