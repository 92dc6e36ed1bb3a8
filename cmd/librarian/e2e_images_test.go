package main

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// standardImageLibrary writes a frontmatter library whose docs show images
// the standard markdown way (no image index), one of them in a doc with an
// upper-case extension, and returns its root and the PNG's bytes.
func standardImageLibrary(t *testing.T) (root string, pic []byte) {
	t.Helper()
	root = t.TempDir()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	pic = b.Bytes()
	for name, data := range map[string]string{
		"guides/arch.md": "# Architecture\n\n![Architecture diagram](../img/arch.png)\n\n" +
			"Remote: ![Badge](https://example.com/badge.svg)\n\nMissing: <img src=\"../img/gone.png\" alt=\"Gone\">\n",
		"ops/README.MD": "# Ops\n\n![Ops diagram](../img/arch.png \"the same file\")\n",
		"img/arch.png":  string(pic),
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, pic
}

// TestStdioStandardImages: through the real binary over stdio, a standard
// markdown image's file is MCP image content right after its line with
// include_images, a placeholder without; a remote image is never fetched;
// a README.MD is a doc.
func TestStdioStandardImages(t *testing.T) {
	root, pic := standardImageLibrary(t)
	cs := connect(t, "", "LIBRARY_ROOT="+root)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_documents", Arguments: map[string]any{
		"select": []any{"guides/arch", "ops/README"}, "include_images": true}})
	if err != nil || res.IsError {
		t.Fatalf("get_documents: %v %+v", err, res)
	}
	var images int
	var text strings.Builder
	for i, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			text.WriteString(c.Text)
		case *mcp.ImageContent:
			images++
			if c.MIMEType != "image/png" || !bytes.Equal(c.Data, pic) {
				t.Errorf("image %d: MIME %q, %d bytes; want image/png and the %d bytes of img/arch.png", images, c.MIMEType, len(c.Data), len(pic))
			}
			want := []string{"![Architecture diagram](../img/arch.png)\n", "![Ops diagram](../img/arch.png \"the same file\")\n"}[min(images, 2)-1]
			if prev, ok := res.Content[i-1].(*mcp.TextContent); i == 0 || !ok || !strings.HasSuffix(prev.Text, want) {
				t.Errorf("image %d is not right after its line %q", images, want)
			}
		}
	}
	if images != 2 {
		t.Errorf("got %d images, want 2 (the same file in two docs is sent with each)", images)
	}
	for _, want := range []string{
		"=== ops/README (ops/README.MD) · L1–3 ===",
		"[image omitted: https://example.com/badge.svg — Badge (remote, never fetched)]",
		"[image unavailable: img/gone.png — Gone (see Notes)]",
		"image '../img/gone.png' (img/gone.png) in guides/arch (guides/arch.md) L7: file not found",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the answer lacks %q:\n%s", want, text.String())
		}
	}

	got, isErr := callText(t, cs, "get_documents", map[string]any{"select": []any{"guides/arch"}})
	if isErr || !strings.Contains(got, "![Architecture diagram](../img/arch.png)\n[image omitted: img/arch.png — Architecture diagram]\n") {
		t.Errorf("without include_images:\n%s", got)
	}
}

// TestCheckStandardImages: librarian check names the missing image with
// its doc, line and path, and exits 1.
func TestCheckStandardImages(t *testing.T) {
	root, _ := standardImageLibrary(t)
	cmd := exec.Command(binary, "check", "--root", root)
	cmd.Env = append(os.Environ(), "LIBRARY_INDEX=off")
	out, err := cmd.Output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("check: %v, want exit 1\n%s", err, out)
	}
	want := "1 problem in 1 doc (2 checked):\n- missing image: guides/arch (guides/arch.md) L7: '../img/gone.png' (img/gone.png): file not found\n"
	if string(out) != want {
		t.Errorf("check printed:\n%s\nwant:\n%s", out, want)
	}
}
