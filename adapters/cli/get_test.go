package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/fileimages"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
)

// getCLILibrary opens app's get_documents test library (seed 000's json
// layout with images), so the command prints what the use case answers.
func getCLILibrary(t *testing.T) *library.Library {
	t.Helper()
	const root = "../../app/testdata/get/lib"
	src, err := jsonindex.New(root, "index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	images, err := fileimages.New(root, "images/index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { images.Close() })
	cfg := library.DefaultConfig()
	cfg.MaxImageBytes = 2048
	return library.New(src, goldmarkmarkdown.New(), images, cfg)
}

func runGet(t *testing.T, lib *library.Library, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = RunGet(context.Background(), lib, args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// appAnswer is what the use case answers, for comparing with the command.
func appAnswer(t *testing.T, lib *library.Library, req browse.GetRequest, items ...string) string {
	t.Helper()
	var sels []domain.Selector
	for _, it := range items {
		s, err := domain.ParseSelectors([]json.RawMessage{json.RawMessage(it)})
		if err != nil {
			t.Fatal(err)
		}
		sels = append(sels, s...)
	}
	req.Select = sels
	ans, err := browse.New(lib).GetDocuments(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return ans.String()
}

func TestRunGet(t *testing.T) {
	lib := getCLILibrary(t)
	max := library.DefaultConfig().MaxAnswerTokens
	zero := 0
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"ids, paths and JSON selectors print the tool's text",
			[]string{"auth", "backend/storage/caching.md", `{"doc": "auth", "sections": ["login-flow"]}`},
			appAnswer(t, lib, browse.GetRequest{IncludeCode: true, MaxTokens: &max}, `"auth"`, `"backend/storage/caching.md"`, `{"doc": "auth", "sections": ["login-flow"]}`)},
		{"flags anywhere among the selectors",
			[]string{"caching", "--include-code=false", "--max-tokens", "0", "fences"},
			appAnswer(t, lib, browse.GetRequest{MaxTokens: &zero}, `"caching"`, `"fences"`)},
		{"a boolean takes its value as the next word",
			[]string{"caching", "--include-code", "false", "--max-tokens", "0", "fences"},
			appAnswer(t, lib, browse.GetRequest{MaxTokens: &zero}, `"caching"`, `"fences"`)},
		{"a JSON list, as the Left out block prints it",
			[]string{`[{"doc": "auth", "lines": [1,4]}, "migrations"]`},
			appAnswer(t, lib, browse.GetRequest{IncludeCode: true, MaxTokens: &max}, `{"doc": "auth", "lines": [1,4]}`, `"migrations"`)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runGet(t, lib, tc.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			if out != tc.want {
				t.Errorf("got\n%s\nwant\n%s", out, tc.want)
			}
		})
	}
}

func TestRunGetImagesNameTheirFiles(t *testing.T) {
	lib := getCLILibrary(t)
	code, out, errOut := runGet(t, lib, "--include-images", "gallery")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"![[image:img-login]]\n[image img-login: images/login.png, image/png, 156 bytes]\n",
		"A vector drawing: ![[image:img-vector]]\n[image img-vector: images/arch.svg, image/svg+xml, 151 bytes]\n",
		"[image img-spinner: shown above, at L7]\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("got\n%s\nwant it to contain %q", out, want)
		}
	}
}

func TestRunGetRefuses(t *testing.T) {
	lib := getCLILibrary(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no selector", nil, "get: takes one or more SELECTORs: a doc id or path, or a JSON selector (see librarian get --help)"},
		{"malformed selector", []string{`{"doc": "auth", "section": ["x"]}`}, "select[0]: unknown field 'section' (did you mean 'sections'?)"},
		{"invalid JSON", []string{`{"doc": "auth"`}, `argument 1 is not a valid JSON object: unexpected end of JSON input at character 14 (a closing bracket, brace or quote is missing): {"doc": "auth" <-- here`},
		{"invalid JSON, its position", []string{`{"doc": auth}`}, `argument 1 is not a valid JSON object: invalid character 'a' looking for beginning of value at character 9: {"doc": a <-- here`},
		{"invalid JSON list, its position", []string{`["auth",]`}, `argument 1 is not a valid JSON list of selectors: invalid character ']' looking for beginning of value at character 9: ["auth",] <-- here`},
		{"negative budget", []string{"--max-tokens", "-5", "auth"}, "get: --max-tokens: want 0 (no limit) or more, got -5 (see librarian get --help)"},
		{"unknown flag", []string{"--images", "auth"}, "-images"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runGet(t, lib, tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q, want it to contain %q", errOut, tc.want)
			}
		})
	}
}

func TestRunGetHelp(t *testing.T) {
	code, out, _ := runGet(t, getCLILibrary(t), "--help")
	if code != 0 || !strings.Contains(out, "librarian get") {
		t.Errorf("exit %d, stdout %q: want usage and 0", code, out)
	}
}
