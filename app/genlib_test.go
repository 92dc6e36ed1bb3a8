package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// GenLayout describes a library GenLibrary wrote, for building requests.
type GenLayout struct {
	Root string
	// IDs and Paths of every doc, in path order.
	IDs   []string
	Paths []string
	// Folders holds every deepest folder (10 docs each), in path order.
	Folders []string
	// Sections are the full section ids every doc has, in order.
	Sections []string
	// Lines is the number of lines of every doc.
	Lines int
}

// genImages is how many images the generated library has; doc i shows
// image i % genImages, twice.
const genImages = 20

// GenLibrary writes a json-convention library (seed 000's layout) of n docs
// under dir: area-NN/mod-M/doc-NNNNN.md, ten docs a folder, each with
// sections, two code blocks and a repeated image stub; an index.json in
// which every other doc has approx_tokens; and images/index.json with
// genImages small PNGs. The same n always gives the same bytes. It is
// exported for the tests of package app_test (benchmarks, the lead's own).
func GenLibrary(tb testing.TB, dir string, n int) GenLayout {
	tb.Helper()
	layout := GenLayout{Root: dir}
	type entry struct {
		ID      string `json:"id"`
		Path    string `json:"path"`
		Title   string `json:"title"`
		Summary string `json:"summary"`
		Tokens  *int   `json:"approx_tokens,omitempty"`
	}
	var index struct {
		Documents []entry `json:"documents"`
	}
	folders := map[string]bool{}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("doc-%05d", i)
		folder := fmt.Sprintf("area-%02d/mod-%d", i/100, (i/10)%10)
		p := path.Join(folder, id+".md")
		content := genDoc(i)
		if layout.Lines == 0 {
			layout.Lines = strings.Count(content, "\n")
		}
		write(tb, filepath.Join(dir, filepath.FromSlash(p)), []byte(content))
		e := entry{ID: id, Path: p, Title: fmt.Sprintf("Doc %d", i), Summary: fmt.Sprintf("Service %d: setup, configuration and reference", i)}
		if i%2 == 0 {
			t := (len(content) + 3) / 4
			e.Tokens = &t
		}
		index.Documents = append(index.Documents, e)
		layout.IDs = append(layout.IDs, id)
		layout.Paths = append(layout.Paths, p)
		if !folders[folder] {
			folders[folder] = true
			layout.Folders = append(layout.Folders, folder)
		}
	}
	b, err := json.MarshalIndent(index, "", " ")
	if err != nil {
		tb.Fatal(err)
	}
	write(tb, filepath.Join(dir, "index.json"), b)

	type image struct {
		ID      string `json:"id"`
		File    string `json:"file"`
		Caption string `json:"caption"`
	}
	var images struct {
		Images []image `json:"images"`
	}
	for k := 0; k < genImages; k++ {
		file := fmt.Sprintf("img-%02d.png", k)
		write(tb, filepath.Join(dir, "images", file), genPNG(k))
		images.Images = append(images.Images, image{ID: fmt.Sprintf("img-%02d", k), File: file, Caption: fmt.Sprintf("Diagram %d", k)})
	}
	b, err = json.MarshalIndent(images, "", " ")
	if err != nil {
		tb.Fatal(err)
	}
	write(tb, filepath.Join(dir, "images", "index.json"), b)
	layout.Sections = []string{"_intro", "overview", "setup", "setup/install", "setup/configure", "reference", "reference/limits"}
	return layout
}

func write(tb testing.TB, p string, b []byte) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// genDoc is doc i: about 60 lines, 2 KB.
func genDoc(i int) string {
	img := fmt.Sprintf("img-%02d", i%genImages)
	var b strings.Builder
	fmt.Fprintf(&b, "# Doc %d\n\nService %d owns one part of the platform. This page says how to set it up and what it accepts.\n\n", i, i)
	fmt.Fprintf(&b, "## Overview\n\nThe service reads requests from the gateway and writes to its own tables.\nIt runs three replicas in every region.\n\n![[image:%s]]\n\n", img)
	b.WriteString("Each replica keeps a local cache that expires after five minutes.\n\n")
	b.WriteString("## Setup\n\n### Install\n\n```bash\n")
	for k := 0; k < 8; k++ {
		fmt.Fprintf(&b, "make -C services/svc-%d step-%d\n", i, k)
	}
	b.WriteString("```\n\n### Configure\n\nSet these variables before the first start:\n\n")
	for k := 0; k < 6; k++ {
		fmt.Fprintf(&b, "- `SVC_%d_OPTION_%d`: what option %d changes, and its default.\n", i, k, k)
	}
	fmt.Fprintf(&b, "\nThe same diagram again: ![[image:%s]]\n\n## Reference\n\n", img)
	b.WriteString("```json\n{\n  \"replicas\": 3,\n  \"cache_ttl_seconds\": 300,\n  \"regions\": [\"eu\", \"us\"]\n}\n```\n\n")
	b.WriteString("### Limits\n\nRequests above 1 MB are refused. At most 500 requests a second per client.\n")
	for k := 0; k < 8; k++ {
		fmt.Fprintf(&b, "Limit %d applies to endpoint /v1/resource-%d and resets every minute.\n", k, k)
	}
	return b.String()
}

// genPNG is a 1x1 PNG followed by the byte k, so each file differs
// (decoders and the MIME sniffer stop at IEND).
func genPNG(k int) []byte {
	base := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
		"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")
	return append(base[:len(base):len(base)], byte(k))
}
