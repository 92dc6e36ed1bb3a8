package mcpresources_test

import (
	"bytes"
	"context"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/adapters/fileimages"
	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/adapters/mcpresources"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/library/librarytest"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/ports/imagestore/imagestoretest"
)

// resourceClient serves the library at root (frontmatter convention, or
// json when jsonIndex) as resources to a go-sdk client.
func resourceClient(t *testing.T, root string, jsonIndex bool) *mcp.ClientSession {
	t.Helper()
	var lib *library.Library
	if jsonIndex {
		src, err := jsonindex.New(root, "index.json")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { src.Close() })
		img, err := fileimages.New(root, "images/index.json")
		if err != nil {
			t.Fatal(err)
		}
		lib = library.New(src, goldmarkmarkdown.New(), img, library.DefaultConfig())
	} else {
		src, err := frontmatterindex.New(root)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { src.Close() })
		lib = library.New(src, goldmarkmarkdown.New(), nil, library.DefaultConfig())
	}
	b := browse.New(lib)
	srv := mcpserver.NewServer(mcpserver.Options{Name: "librarian", Version: "test", Complete: mcpresources.LibraryCompletion(b)})
	mcpserver.AddLibraryTools(srv, b, search.New(lib), nil, mcpserver.Ceilings{})
	mcpresources.AddLibraryResources(srv, b)
	return connectClient(t, srv, "resources", "2025-11-25")
}

// TestResourcesListInPages: every doc is a resource (URI from its id,
// title, size, text/markdown), listed 1,000 at a time with cursors.
func TestResourcesListInPages(t *testing.T) {
	dir := t.TempDir()
	layout := librarytest.GenLibrary(t, dir, 1500)
	cs := resourceClient(t, dir, true)
	ctx := context.Background()
	var all []*mcp.Resource
	pages := 0
	cursor := ""
	for {
		res, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		all = append(all, res.Resources...)
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	// The generated library has 20 images, listed after its docs.
	if pages != 2 || len(all) != len(layout.IDs)+20 {
		t.Fatalf("%d pages, %d resources; want 2 pages of the %d docs and 20 images", pages, len(all), len(layout.IDs))
	}
	first := all[0]
	if first.URI != mcpresources.DocURI(first.Name) || first.MIMEType != "text/markdown" || first.Size <= 0 {
		t.Errorf("first resource %+v: want its doc id's URI, text/markdown and a size", first)
	}
	if _, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: "not-a-cursor"}); err == nil {
		t.Error("an invalid cursor was accepted")
	}
}

// TestResourcesReadAsGetDocuments: a doc, a section, a folder and a tag
// read as the tools answer them; anything the library does not hold, or
// outside it, is not found.
func TestResourcesReadAsGetDocuments(t *testing.T) {
	cs := resourceClient(t, filepath.Join(repoRoot(t), "library"), true)
	ctx := context.Background()
	read := func(uri string) (string, error) {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			return "", err
		}
		if len(res.Contents) != 1 {
			t.Fatalf("%s: %d contents", uri, len(res.Contents))
		}
		return res.Contents[0].Text, nil
	}
	for uri, want := range map[string]string{
		mcpresources.DocURI("auth"):                                "=== auth (backend/auth.md) · L1–",
		mcpresources.SectionURI("auth", "refresh-tokens/rotation"): "Every refresh returns a NEW refresh token",
		"librarian://folder/backend/storage":                       "caching",
		"librarian://tag/security":                                 "auth",
	} {
		got, err := read(uri)
		if err != nil || !strings.Contains(got, want) {
			t.Errorf("read %s: %v\n%.400s\nwant it to hold %q", uri, err, got, want)
		}
	}
	for _, uri := range []string{mcpresources.DocURI("nope"), "librarian://doc/../../etc/passwd", "librarian://folder/../up",
		mcpresources.SectionURI("auth", "no-such-section"), "file:///etc/passwd"} {
		if got, err := read(uri); err == nil {
			t.Errorf("read %s: got %.200q, want not found", uri, got)
		}
	}
	img, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "librarian://image/img-fanout"})
	if err != nil || len(img.Contents) != 1 || img.Contents[0].MIMEType != "image/png" || len(img.Contents[0].Blob) == 0 {
		t.Errorf("image resource: %v %+v", err, img)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "librarian://image/nope"}); err == nil {
		t.Error("an unknown image was read")
	}
	list, err := cs.ListResources(ctx, nil)
	if err != nil || list.Resources[len(list.Resources)-1].URI != "librarian://image/img-login-sequence" {
		t.Errorf("the images are not listed after the docs: %v", err)
	}
	tmpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tmpl.ResourceTemplates) != 5 {
		t.Fatalf("templates: %v %+v", err, tmpl)
	}
}

// TestCompletionOfTemplateArguments: doc ids by prefix, then by edit
// distance; the sections of the doc already chosen; folders; tags.
func TestCompletionOfTemplateArguments(t *testing.T) {
	cs := resourceClient(t, filepath.Join(repoRoot(t), "library"), true)
	ctx := context.Background()
	complete := func(template, arg, value string, context map[string]string) []string {
		t.Helper()
		params := &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: template},
			Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}}
		if context != nil {
			params.Context = &mcp.CompleteContext{Arguments: context}
		}
		res, err := cs.Complete(ctx, params)
		if err != nil {
			t.Fatal(err)
		}
		return res.Completion.Values
	}
	if got := complete("librarian://doc/{+id}", "id", "ca", nil); len(got) == 0 || got[0] != "caching" {
		t.Errorf("id 'ca': %v, want caching first", got)
	}
	if got := complete("librarian://doc/{+id}", "id", "cahcing", nil); len(got) == 0 || got[0] != "caching" {
		t.Errorf("id 'cahcing' (a typo): %v, want caching", got)
	}
	got := complete("librarian://section/{section}/{+id}", "section", "refresh-tokens/", map[string]string{"id": "auth"})
	if len(got) == 0 || !strings.HasPrefix(got[0], "refresh-tokens/") {
		t.Errorf("sections of auth: %v", got)
	}
	if got := complete("librarian://folder/{+folder}", "folder", "backend/s", nil); len(got) == 0 || got[0] != "backend/storage" {
		t.Errorf("folder 'backend/s': %v, want backend/storage first", got)
	}
	if got := complete("librarian://tag/{tag}", "tag", "sec", nil); len(got) == 0 || got[0] != "security" {
		t.Errorf("tag 'sec': %v, want security first", got)
	}
}

// TestAnswerPrompt: the library tools come with one prompt for a person,
// which asks the agent to answer from the library with citations.
func TestAnswerPrompt(t *testing.T) {
	cs := resourceClient(t, filepath.Join(repoRoot(t), "library"), true)
	ctx := context.Background()
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(list.Prompts) != 1 || list.Prompts[0].Name != mcpresources.AnswerPromptName {
		t.Fatalf("prompts: %v %+v", err, list)
	}
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: mcpresources.AnswerPromptName, Arguments: map[string]string{"question": "how are refresh tokens rotated?"}})
	if err != nil || len(res.Messages) != 1 {
		t.Fatalf("get prompt: %v %+v", err, res)
	}
	if text := res.Messages[0].Content.(*mcp.TextContent).Text; !strings.Contains(text, "how are refresh tokens rotated?") || !strings.Contains(text, "cite") {
		t.Errorf("prompt text: %s", text)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: mcpresources.AnswerPromptName, Arguments: map[string]string{"question": " "}}); err == nil {
		t.Error("an empty question was accepted")
	}
}

// TestStandardImagesAreResources: the file a doc's markdown image shows is
// an image resource, by its library path, listed and read as a blob; a
// file no doc shows is not found.
func TestStandardImagesAreResources(t *testing.T) {
	dir := t.TempDir()
	png := imagestoretest.PNG(t, 2, 3, color.RGBA{R: 40, A: 255})
	for name, data := range map[string][]byte{
		"index.json":      []byte(`{"documents": [{"id": "guide", "path": "docs/guide.md"}]}`),
		"docs/guide.md":   []byte("# Guide\n\n![Architecture](../img/arch.png)\n"),
		"img/arch.png":    png,
		"img/unshown.png": png,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := resourceClient(t, dir, true)
	ctx := context.Background()
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	last := list.Resources[len(list.Resources)-1]
	if len(list.Resources) != 2 || last.URI != "librarian://image/img%2Farch.png" || last.Name != "img/arch.png" || last.Title != "Architecture" {
		t.Fatalf("resources: %d, last %+v; want the doc, then img/arch.png titled by its alt text", len(list.Resources), last)
	}
	img, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: last.URI})
	if err != nil || len(img.Contents) != 1 || img.Contents[0].MIMEType != "image/png" || !bytes.Equal(img.Contents[0].Blob, png) {
		t.Errorf("read %s: %v %+v", last.URI, err, img)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "librarian://image/img%2Funshown.png"}); err == nil {
		t.Error("a file no doc shows was read as an image")
	}
}
