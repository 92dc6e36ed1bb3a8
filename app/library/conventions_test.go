package library_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/docindex"
	"github.com/librarian/librarian/ports/docindex/docindextest"
)

// TestOneCorpusTwoEncodings writes the same documents as a JSON index and
// as frontmatter, and checks that both conventions give the same domain
// values: the same catalog, and the same sections for every doc.
func TestOneCorpusTwoEncodings(t *testing.T) {
	docs := docindextest.Corpus()
	jsonDir, fmDir := t.TempDir(), t.TempDir()
	var index struct {
		Documents []map[string]any `json:"documents"`
	}
	for _, d := range docs {
		entry := map[string]any{"id": strings.TrimSuffix(d.Path, ".md"), "path": d.Path, "title": d.Title}
		if d.Summary != "" {
			entry["summary"] = d.Summary
		}
		if d.Tokens != 0 {
			entry["approx_tokens"] = d.Tokens
		}
		if len(d.Tags) > 0 {
			entry["tags"] = d.Tags
		}
		index.Documents = append(index.Documents, entry)
		writeFile(t, filepath.Join(jsonDir, d.Path), d.Body)

		var fm strings.Builder
		fm.WriteString("---\n")
		fmt.Fprintf(&fm, "title: %s\n", yamlString(d.Title))
		if d.Summary != "" {
			fmt.Fprintf(&fm, "summary: %s\n", yamlString(d.Summary))
		}
		if d.Tokens != 0 {
			fmt.Fprintf(&fm, "tokens: %d\n", d.Tokens)
		}
		if len(d.Tags) > 0 {
			var quoted []string
			for _, tag := range d.Tags {
				quoted = append(quoted, yamlString(tag))
			}
			fmt.Fprintf(&fm, "tags: [%s]\n", strings.Join(quoted, ", "))
		}
		fm.WriteString("---\n")
		writeFile(t, filepath.Join(fmDir, d.Path), fm.String()+d.Body)
	}
	raw, err := json.Marshal(index)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(jsonDir, "index.json"), string(raw))

	js, err := jsonindex.New(jsonDir, "index.json")
	if err != nil {
		t.Fatal(err)
	}
	defer js.Close()
	fms, err := frontmatterindex.New(fmDir)
	if err != nil {
		t.Fatal(err)
	}
	defer fms.Close()
	ctx := context.Background()
	jsonCat, err := js.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fmCat, err := fms.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := metadataOf(fmCat.Docs), metadataOf(jsonCat.Docs); !reflect.DeepEqual(got, want) {
		t.Errorf("frontmatter catalog:\n%+v\njson catalog:\n%+v", got, want)
	}
	if len(jsonCat.Notes)+len(fmCat.Notes) != 0 {
		t.Errorf("notes: json %q, frontmatter %q; want none", jsonCat.Notes, fmCat.Notes)
	}
	parser := goldmarkmarkdown.New()
	for _, d := range jsonCat.Docs {
		got := outlineOf(t, fms, parser, d.Path)
		want := outlineOf(t, js, parser, d.Path)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: frontmatter sections %q, json sections %q", d.Path, got, want)
		}
	}
}

// metadataOf is a catalog's docs without their stamps (files differ by
// their frontmatter).
func metadataOf(docs []domain.Document) []domain.Document {
	out := make([]domain.Document, len(docs))
	for i, d := range docs {
		d.Stamp = domain.Stamp{}
		if len(d.Tags) == 0 {
			d.Tags = nil
		}
		out[i] = d
	}
	return out
}

// outlineOf is a doc's section ids and headings (line numbers differ by the
// frontmatter's lines).
func outlineOf(t *testing.T, src docindex.Source, parser *goldmarkmarkdown.Parser, path string) []string {
	t.Helper()
	b, _, err := src.ReadFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range parser.Parse(b).Sections {
		out = append(out, s.ID+" "+s.Heading)
	}
	return out
}

func yamlString(s string) string {
	b, _ := json.Marshal(s) // a JSON string is a valid YAML double-quoted scalar
	return string(b)
}

func writeFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
