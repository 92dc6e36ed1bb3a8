package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// readRepoFile reads a file at the module root.
func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestReadmeInspectorCommands: every npx command in the README runs
// without a terminal (`npx --yes`, or npx cancels for want of an answer)
// and names the Inspector version .ci/run installs, and the README states
// the Node version the Inspector declares.
func TestReadmeInspectorCommands(t *testing.T) {
	readme, ci := readRepoFile(t, "README.md"), readRepoFile(t, ".ci/run")
	pinned := regexp.MustCompile(`@modelcontextprotocol/inspector@[0-9.]+`).FindString(ci)
	if pinned == "" {
		t.Fatal(".ci/run installs no pinned MCP Inspector")
	}
	npx := 0
	all := readme
	for _, page := range docPages(t) {
		all += "\n" + readRepoFile(t, page)
	}
	for _, line := range strings.Split(all, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "npx ") {
			continue
		}
		npx++
		if !strings.HasPrefix(strings.TrimSpace(line), "npx --yes "+pinned+" --cli ") {
			t.Errorf("README command %q: want `npx --yes %s --cli ...`", line, pinned)
		}
	}
	if npx == 0 {
		t.Error("README has no Inspector command")
	}
	if !strings.Contains(readme, "22.19.0") {
		t.Error("README does not state the Node version the Inspector needs (>=22.19.0)")
	}
}

// TestReadmeFacts: the README's Go version is go.mod's, `go install`'s
// folder is named, its first commands are the two the project promises,
// the three projects it follows are named, and each of its links to a
// section lands on a heading.
func TestReadmeFacts(t *testing.T) {
	readme, gomod := readRepoFile(t, "README.md"), readRepoFile(t, "go.mod")
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(gomod)
	if goVersion == nil || !strings.Contains(readme, "Go "+goVersion[1]+" ") {
		t.Errorf("README should name go.mod's Go version (%v)", goVersion)
	}
	if !strings.Contains(readme, "$(go env GOPATH)/bin") {
		t.Error("README should say go install writes to $(go env GOPATH)/bin, which must be on PATH")
	}
	if first := strings.Index(readme, "```sh\n"); first < 0 || !strings.HasPrefix(readme[first:], "```sh\ngo run ./cmd/librarian ls --line-bounds\ngo test -race ./...\n```") {
		t.Error("README's first commands must stay `go run ./cmd/librarian ls --line-bounds` and `go test -race ./...`")
	}
	for _, name := range []string{"library-tools-mcp", "the TypeScript Librarian", "librarian-mcp"} {
		if !strings.Contains(readme, name) {
			t.Errorf("README does not name %q", name)
		}
	}
	headings := map[string]bool{}
	for _, line := range strings.Split(readme, "\n") {
		if strings.HasPrefix(line, "#") {
			headings[githubSlug(strings.TrimLeft(line, "# "))] = true
		}
	}
	links := regexp.MustCompile(`\]\(#([^)]+)\)`).FindAllStringSubmatch(readme, -1)
	if len(links) < 5 {
		t.Errorf("README links to %d sections; want each followed project's conventions linked", len(links))
	}
	for _, l := range links {
		if !headings[l[1]] {
			t.Errorf("README links to #%s, which is no heading", l[1])
		}
	}
}

// docPages are the reference pages under docs/, as paths from the root.
func docPages(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(repoRoot(t), "docs", "*.md"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	var out []string
	for _, n := range names {
		out = append(out, filepath.Join("docs", filepath.Base(n)))
	}
	return out
}

// TestDocsLinksLand: the README is at most 300 lines, and every link from
// the README or a docs/ page to a page of the two, with an anchor or not,
// lands on that page and on one of its headings.
func TestDocsLinksLand(t *testing.T) {
	pages := append([]string{"README.md"}, docPages(t)...)
	if n := strings.Count(readRepoFile(t, "README.md"), "\n"); n > 300 {
		t.Errorf("README.md has %d lines: a newcomer's guide is at most 300, the rest goes to docs/", n)
	}
	headings := map[string]map[string]bool{}
	for _, p := range pages {
		headings[p] = map[string]bool{}
		inFence := false
		for _, line := range strings.Split(readRepoFile(t, p), "\n") {
			if strings.HasPrefix(line, "```") {
				inFence = !inFence
			}
			if !inFence && strings.HasPrefix(line, "#") {
				headings[p][githubSlug(strings.TrimLeft(line, "# "))] = true
			}
		}
	}
	link := regexp.MustCompile(`\]\(((?:\.\./)?(?:docs/)?[a-z-]+\.md|README\.md)?(?:#([^)]+))?\)`)
	for _, p := range pages {
		for _, m := range link.FindAllStringSubmatch(readRepoFile(t, p), -1) {
			target, anchor := p, m[2]
			if m[1] != "" {
				target = filepath.Clean(filepath.Join(filepath.Dir(p), m[1]))
			}
			hs, ok := headings[target]
			if !ok {
				if m[1] != "" && !strings.Contains(m[1], "/") && p == "README.md" {
					continue // a file of the repository's root, not a page
				}
				t.Errorf("%s links to %s, which is not a page", p, m[0])
				continue
			}
			if anchor != "" && !hs[anchor] {
				t.Errorf("%s links to %s#%s, which is no heading there", p, target, anchor)
			}
		}
	}
}

// githubSlug is a heading's anchor as GitHub makes it: lower case, spaces
// to '-', every other character but letters, digits, '-' and '_' dropped.
func githubSlug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestLicenseIsMIT: the root LICENSE is MIT, like the projects followed.
// TestDocsSpeakPlainly (issue 23): the README and docs/ named the
// projects Librarian follows by seed numbers ("seed 000") and sent readers
// to ../shared/, which is not in the repository.
func TestDocsSpeakPlainly(t *testing.T) {
	insider := regexp.MustCompile(`(?i)\bseed[ -]?00[0-9]|\.\./shared/`)
	for _, p := range append([]string{"README.md"}, docPages(t)...) {
		for i, line := range strings.Split(readRepoFile(t, p), "\n") {
			if m := insider.FindString(line); m != "" {
				t.Errorf("%s:%d says %q: name the project by what it is, and point inside the repository", p, i+1, m)
			}
		}
	}
}

func TestLicenseIsMIT(t *testing.T) {
	if license := readRepoFile(t, "LICENSE"); !strings.HasPrefix(license, "MIT License\n") || !strings.Contains(license, "Permission is hereby granted, free of charge") {
		t.Error("LICENSE is not the MIT license")
	}
}

// TestCIInstallsOnlyWhatItRuns: .ci/run installs ripgrep only if it also
// runs the comparison that needs it (LIBRARIAN_RG_COMPARE=1).
func TestCIInstallsOnlyWhatItRuns(t *testing.T) {
	ci := readRepoFile(t, ".ci/run")
	var commands []string
	for _, line := range strings.Split(ci, "\n") {
		if code, _, _ := strings.Cut(line, "#"); strings.TrimSpace(code) != "" {
			commands = append(commands, code)
		}
	}
	run := strings.Join(commands, "\n")
	if strings.Contains(run, "ripgrep") && !strings.Contains(run, "LIBRARIAN_RG_COMPARE=1") {
		t.Error(".ci/run installs ripgrep but never runs the rg comparison (LIBRARIAN_RG_COMPARE=1)")
	}
}
