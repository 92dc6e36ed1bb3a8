// Package librarytest writes the generated libraries the use cases' tests
// and benchmarks run on: a json-convention library of any size with images
// (GenLibrary), and the 10,000-doc frontmatter library of the benchmarks
// and the side-by-side runs (WriteBenchLibrary). Deterministic: the same
// arguments always give the same bytes. It imports only the standard
// library.
package librarytest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
// genImages small PNGs. The same n always gives the same bytes.
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

// The benchmark library WriteBenchLibrary writes: 10 areas of 10 topics of
// 100 docs (10,111 files with the index.md of every folder), frontmatter
// tags, nested sections, prose, lists and code, and words of known
// frequency for the searches that measure it.
const (
	BenchAreas, BenchTopics, BenchDocsPerTopic = 10, 10, 100
	BenchRare                                  = "zanzibar" // in ~1 doc in 1,000, body only
	BenchCommon                                = "service"  // in most docs, many lines
	BenchRegex                                 = `\w+_token_id\b`
	BenchRegexNoLiteral                        = `\b[0-9]{4}\b`
	// BenchVersion names the folder a generated library is kept in: a
	// change to the generator changes it.
	BenchVersion = "v1"
)

// BenchDocs is how many docs the benchmark library holds: every topic's
// docs and the index.md of the root, each area and each topic.
const BenchDocs = BenchAreas*BenchTopics*BenchDocsPerTopic + 1 + BenchAreas*(1+BenchTopics)

// BenchLibraryDir returns the benchmark library's folder, writing it on
// first use: $LIBRARIAN_BENCH_LIBRARY, else a folder of the temporary
// directory named after BenchVersion, kept between runs.
func BenchLibraryDir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv("LIBRARIAN_BENCH_LIBRARY")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "librarian-search-bench-"+BenchVersion)
	}
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err != nil {
		if err := WriteBenchLibrary(dir); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// WriteBenchLibrary writes the library: areas/topics/docs, an index.md
// with tags in every folder, docs with frontmatter tags, nested sections,
// prose, lists and code. Deterministic; file times are set in the past so
// the frontmatter index trusts its cache at once.
func WriteBenchLibrary(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("the a of to and in is for on with as by that this from at be are it or an " +
		"request response client server cache queue worker deploy config index shard replica lease " +
		"retry timeout backoff budget latency throughput schema migration rollout flag metric alert " +
		"trace span log event stream batch partition offset commit snapshot backup restore policy " +
		"quota limit owner review release branch build test fixture mock stub handler router " +
		"gateway session cookie header payload buffer socket thread lock mutex channel signal")
	tagPool := strings.Fields("backend frontend storage security ops data ml mobile infra billing search auth " +
		"payments growth platform api docs onboarding oncall reliability")
	sentence := func(b *strings.Builder) {
		n := 8 + rng.IntN(14)
		for i := 0; i < n; i++ {
			w := words[rng.IntN(len(words))]
			switch r := rng.IntN(1000); {
			case r < 40:
				w = BenchCommon
			case r < 41 && rng.IntN(400) == 0:
				w = BenchRare
			case r < 45:
				w = fmt.Sprintf("ref-%04d", rng.IntN(10000))
			}
			if i == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
			if i < n-1 {
				b.WriteByte(' ')
			}
		}
		b.WriteString(". ")
	}
	paragraph := func(b *strings.Builder) {
		for i := 2 + rng.IntN(4); i > 0; i-- {
			sentence(b)
			if rng.IntN(3) == 0 {
				b.WriteString("\n")
			}
		}
		b.WriteString("\n\n")
	}
	code := func(b *strings.Builder) {
		b.WriteString("```go\n")
		for i := 3 + rng.IntN(8); i > 0; i-- {
			id := []string{"user_id", "refresh_token_id", "access_token_id", "shard_id", "lease_id"}[rng.IntN(5)]
			fmt.Fprintf(b, "\tif err := s.%s(ctx, req.%s); err != nil {\n", words[rng.IntN(len(words))], id)
		}
		b.WriteString("```\n\n")
	}
	write := func(rel, text string) error {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
		old := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
		return os.Chtimes(p, old, old)
	}
	if err := write("index.md", "---\ntitle: Bench library\ntags: [docs]\n---\n# Bench library\n\nGenerated.\n"); err != nil {
		return err
	}
	for a := 0; a < BenchAreas; a++ {
		area := fmt.Sprintf("area-%02d", a)
		if err := write(area+"/index.md", fmt.Sprintf("---\ntags: [%s]\n---\n# Area %d\n\nAn area.\n", tagPool[a], a)); err != nil {
			return err
		}
		for tp := 0; tp < BenchTopics; tp++ {
			topic := fmt.Sprintf("%s/topic-%02d", area, tp)
			if err := write(topic+"/index.md", fmt.Sprintf("---\ntags: [%s]\n---\n# Topic %d\n\nA topic.\n", tagPool[10+tp%10], tp)); err != nil {
				return err
			}
			for d := 0; d < BenchDocsPerTopic; d++ {
				var b strings.Builder
				fmt.Fprintf(&b, "---\ntitle: Doc %d of %s\nsummary: Generated doc number %d\ntags: [%s, %s]\n---\n",
					d, topic, d, tagPool[rng.IntN(len(tagPool))], tagPool[rng.IntN(len(tagPool))])
				fmt.Fprintf(&b, "# Doc %d\n\n", d)
				paragraph(&b)
				for s := 2 + rng.IntN(5); s > 0; s-- {
					fmt.Fprintf(&b, "## Section %d\n\n", s)
					paragraph(&b)
					for ss := rng.IntN(3); ss > 0; ss-- {
						fmt.Fprintf(&b, "### Part %d\n\n", ss)
						paragraph(&b)
						if rng.IntN(3) == 0 {
							code(&b)
						}
						if rng.IntN(2) == 0 {
							for i := 2 + rng.IntN(3); i > 0; i-- {
								b.WriteString("- ")
								sentence(&b)
								b.WriteString("\n")
							}
							b.WriteString("\n")
						}
					}
				}
				if err := write(fmt.Sprintf("%s/doc-%03d.md", topic, d), b.String()); err != nil {
					return err
				}
			}
		}
	}
	return os.WriteFile(filepath.Join(dir, ".complete"), nil, 0o644)
}
