package frontmatterindex

import (
	"bytes"
	"strings"
	"testing"
	"os"
	"syscall"

	"github.com/adrg/frontmatter"
	"gopkg.in/yaml.v2"
)

var sampleDoc = []byte("---\ntitle: Document 1\nsummary: What document 1 explains, in one line.\ntags: [tag-1, tag-2, kind-3]\nsource: \"https://example.com/1\"\n---\n\n# Document 1\n\n" + strings.Repeat("Some prose about the topic, with `code` and a [link](https://example.com).\n", 25))

func BenchmarkParseMeta(b *testing.B) {
	for b.Loop() {
		parseMeta(sampleDoc)
	}
}
func BenchmarkAdrg(b *testing.B) {
	for b.Loop() {
		var bl block
		frontmatter.Parse(bytes.NewReader(sampleDoc), &bl, yamlFormats...)
	}
}
func BenchmarkYAML(b *testing.B) {
	data := []byte("title: Document 1\nsummary: What document 1 explains, in one line.\ntags: [tag-1, tag-2, kind-3]\nsource: \"https://example.com/1\"\n")
	for b.Loop() {
		var f frontmatterFields
		yaml.Unmarshal(data, &f)
	}
}
func BenchmarkHeading(b *testing.B) {
	for b.Loop() {
		firstHeading(sampleDoc[120:])
	}
}
func BenchmarkYAMLPlain(b *testing.B) {
	data := []byte("title: Document 1\nsummary: What document 1 explains, in one line.\ntags: [tag-1, tag-2, kind-3]\nsource: \"https://example.com/1\"\n")
	for b.Loop() {
		var f struct{ Title, Summary string; Tags []string }
		yaml.Unmarshal(data, &f)
	}
}
func BenchmarkYAMLMap(b *testing.B) {
	data := []byte("title: Document 1\nsummary: What document 1 explains, in one line.\ntags: [tag-1, tag-2, kind-3]\nsource: \"https://example.com/1\"\n")
	for b.Loop() {
		var f yaml.MapSlice
		yaml.Unmarshal(data, &f)
	}
}
func BenchmarkOpenPlain(b *testing.B) {
	r, _ := os.OpenRoot(".")
	for b.Loop() {
		f, _ := r.Open("meta.go")
		f.Close()
	}
}
func BenchmarkOpenNonblock(b *testing.B) {
	r, _ := os.OpenRoot(".")
	for b.Loop() {
		f, _ := r.OpenFile("meta.go", os.O_RDONLY|syscall.O_NONBLOCK, 0)
		f.Close()
	}
}
