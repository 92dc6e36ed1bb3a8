package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// runCLI runs the program in-process with env, as a person would.
func runCLI(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, func(k string) string { return env[k] }, io.NopCloser(strings.NewReader("")), nopWriteCloser{&stdout}, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestCommandLine(t *testing.T) {
	lib := filepath.Join(repoRoot(t), "library")
	edge := filepath.Join(repoRoot(t), "testdata", "edge-library")
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "index.json"), []byte(`{"documents": [{"id": "dots", "path": "../x.md"}, {"path": "a.md"}]}`), 0o644)
	env := map[string]string{"LIBRARY_ROOT": lib}
	for _, tc := range []struct {
		name     string
		env      map[string]string
		args     []string
		code     int
		stdout   string // substring
		stderr   string // substring
		noStdout bool
	}{
		{name: "version", args: []string{"--version"}, stdout: "librarian 0.1.0"},
		{name: "check of a folder with no docs", args: []string{"check", "--root", t.TempDir()}, code: 1,
			stderr: "librarian check: no docs found: is --root (or LIBRARY_ROOT) the library's folder?", noStdout: true},
		{name: "help", args: []string{"--help"}, stdout: "librarian check"},
		{name: "serve help names the HTTP settings", args: []string{"serve", "--help"}, stdout: "LIBRARIAN_ALLOWED_ORIGINS LIST serve --http"},
		{name: "command help", args: []string{"ls", "--help"}, stdout: "usage: librarian ls"},
		{name: "check help", args: []string{"check", "--help"}, stdout: "usage: librarian check"},
		{name: "ls", env: env, args: []string{"ls", "backend/storage", "--line-bounds"}, stdout: `§ invalidation/fan-out-deletes "Fan-out deletes" L21–34`},
		{name: "ls root flag before command", args: []string{"--root", lib, "ls"}, stdout: "./ (4 docs, ~884 tokens)"},
		{name: "ls docs-root after command", args: []string{"ls", "--docs-root", lib, "--section-depth", "0"}, stdout: "guides/ (1 docs, ~180 tokens)"},
		{name: "ls root flag after command is the library root", args: []string{"ls", "--root", lib}, stdout: "./ (4 docs, ~884 tokens)"},
		{name: "search root flag after command is the library root", args: []string{"search", "fan-out", "--root", lib}, stdout: "caching (backend/storage/caching.md)"},
		{name: "search folder operand", env: env, args: []string{"search", "token", "guides"}, stdout: `No hits for "token" in 1 doc`},
		{name: "tags root flag after command", args: []string{"tags", "--root", lib, "backend"}, stdout: "- backend (3)"},
		{name: "absolute folder is refused", env: env, args: []string{"ls", "/tmp/big"}, code: 2,
			stderr: `ls: folder "/tmp/big" is an absolute path, but a folder is relative to the library root (e.g. backend/storage); to use /tmp/big as the library, write --root /tmp/big`, noStdout: true},
		{name: "ls negative budget", env: env, args: []string{"ls", "--max-tokens", "-5"}, code: 2, stderr: "ls: --max-tokens: want 0 (no limit) or more, got -5 (see librarian ls --help)"},
		{name: "unknown flag before the command", env: env, args: []string{"--fuzzy", "ls"}, code: 2, stderr: "librarian: unknown flag --fuzzy (see librarian --help)"},
		{name: "unknown flag after the command", env: env, args: []string{"ls", "--fuzzy"}, code: 2, stderr: "librarian: ls: unknown flag --fuzzy (see librarian ls --help)"},
		{name: "check ok", env: env, args: []string{"check"}, stdout: "ok: 4 docs, no problems"},
		{name: "check finds problems", args: []string{"--root", edge, "check"}, code: 1, stdout: "missing: documents[7] (id 'gone')"},
		{name: "check invalid index", args: []string{"--root", bad, "check"}, code: 1, stdout: "documents[0] (id 'dots'): 'path' may not contain '..'"},
		{name: "missing root", args: []string{"--root", "/nonexistent/lib", "ls"}, code: 2, stderr: `library root "/nonexistent/lib" does not exist`, noStdout: true},
		{name: "unknown command", args: []string{"frobnicate"}, code: 2, stderr: `unknown command "frobnicate"`},
		{name: "bad convention", env: map[string]string{"LIBRARY_CONVENTION": "xml"}, args: []string{"ls"}, code: 2, stderr: `convention "xml"`},
		{name: "bad max image bytes", env: map[string]string{"LIBRARY_MAX_IMAGE_BYTES": "lots"}, args: []string{"ls"}, code: 2, stderr: "LIBRARY_MAX_IMAGE_BYTES"},
		{name: "unknown folder", env: env, args: []string{"ls", "nowhere"}, code: 1, stderr: "no folder 'nowhere'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.env, tc.args...)
			if code != tc.code {
				t.Errorf("exit code = %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, stdout, stderr)
			}
			if !strings.Contains(stdout, tc.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdout, stdout)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr)
			}
			if tc.noStdout && stdout != "" {
				t.Errorf("stdout should be empty, got %q", stdout)
			}
		})
	}
}

// TestEveryIndexProblemInOneAnswer: both malformed fixtures at once (the doc
// index's and the image index's all-problems.json) fail `librarian check`
// and a list_documents call over stdio with every problem listed together.
func TestEveryIndexProblemInOneAnswer(t *testing.T) {
	dir := t.TempDir()
	fixtures := filepath.Join(repoRoot(t), "testdata", "indexes")
	copyFile := func(from, to string) {
		t.Helper()
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(to), 0o755)
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(filepath.Join(fixtures, "doc-index", "all-problems.json"), filepath.Join(dir, "index.json"))
	copyFile(filepath.Join(fixtures, "image-index", "all-problems.json"), filepath.Join(dir, "images", "index.json"))
	wants := []string{
		"index.json and images/index.json are invalid",
		"may not contain '..'",
		"must be relative, not absolute",
		"may not contain '\\'",
		"duplicate id",
		"missing required field 'id'",
		"'approx_tokens' must be a non-negative integer",
		"'tags' must be a list of strings",
		"images[",
	}
	code, stdout, stderr := runCLI(t, nil, "--root", dir, "check")
	if code != 1 {
		t.Errorf("check: exit %d, want 1 (stderr %s)", code, stderr)
	}
	cs := connect(t, "", "LIBRARY_ROOT="+dir)
	listed, isErr := callText(t, cs, "list_documents", map[string]any{})
	if !isErr {
		t.Errorf("list_documents over an invalid index should fail, got %s", listed)
	}
	for _, w := range wants {
		if !strings.Contains(stdout, w) {
			t.Errorf("check output lacks %q:\n%s", w, stdout)
		}
		if !strings.Contains(listed, w) {
			t.Errorf("list_documents error lacks %q:\n%s", w, listed)
		}
	}
}

// TestAliasIsAWarning: two index entries with the same path fail nothing:
// check prints a warning and exits 0, and both ids are served.
func TestAliasIsAWarning(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.json"), []byte(`{"documents": [{"id": "auth", "path": "auth.md"}, {"id": "login", "path": "auth.md"}]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "auth.md"), []byte("# Auth\n\nTokens.\n"), 0o644)
	code, stdout, stderr := runCLI(t, nil, "--root", dir, "check")
	want := "ok: 2 docs, no problems\n1 warning (these fail nothing):\n- documents[1] (id 'login'): same path 'auth.md' as documents[0] (id 'auth'): both ids serve that file\n"
	if code != 0 || stdout != want {
		t.Errorf("check: exit %d, stdout %q, stderr %q; want 0 and %q", code, stdout, stderr, want)
	}
	code, stdout, stderr = runCLI(t, nil, "--root", dir, "get", "login")
	if code != 0 || !strings.Contains(stdout, "=== login (auth.md) · L1–3 ===") {
		t.Errorf("get login: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestCommandLineFindings: a selector that returns nothing is a finding
// (exit 1) whose note suggests, in the command line's words, what was
// meant; so is a mistyped folder (exit 1 too: the same mistake exits
// the same way in every command).
func TestCommandLineFindings(t *testing.T) {
	env := map[string]string{"LIBRARY_ROOT": filepath.Join(repoRoot(t), "library")}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"a typo of a doc", []string{"get", "auht"}, 1, "unknown doc 'auht': no document has this id or path (did you mean: auth?)", "librarian: get: 1 of 1 selector returned nothing (see Notes)"},
		{"a folder as a doc", []string{"get", "backend"}, 1, `('backend' is a folder: select its docs with librarian get '{"root": "backend"}')`, "returned nothing"},
		{"nothing near", []string{"get", "quillwort"}, 1, "(librarian ls shows every doc)", "returned nothing"},
		{"a typo of a section", []string{"get", `{"doc": "auth", "sections": ["login-flw"]}`}, 1, "has no section 'login-flw' (did you mean: login-flow?)", "returned nothing"},
		{"one of two found", []string{"get", "caching", "cachng"}, 1, "=== caching (backend/storage/caching.md)", "1 of 2 selectors returned nothing"},
		{"all found", []string{"get", "caching"}, 0, "=== caching (backend/storage/caching.md)", ""},
		{"a typo of a folder", []string{"ls", "bakend"}, 1, "", "no folder 'bakend' in the library (did you mean: backend/?)"},
		{"a lookbehind", []string{"search", "--regex", `(?<=token )\w+`}, 2, "", "RE2 (Go's regex syntax) has neither lookbehind nor backreferences"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, env, tc.args...)
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}

// TestStartupErrorsAreShort (issue 23): a failed start-up says once, in a
// line, which setting failed and why: no dependency graph, no stack, no
// driver detail; a flag without its value is named with one prefix.
func TestStartupErrorsAreShort(t *testing.T) {
	lib := filepath.Join(repoRoot(t), "library")
	code, _, stderr := runCLI(t, map[string]string{"LIBRARY_INDEX": "postgres://nobody:x@127.0.0.1:1/nodb"}, "--root", lib, "ls")
	want := "librarian: LIBRARY_INDEX: postgres index: postgres database nodb on 127.0.0.1:1, schema librarian: cannot reach the database: no server took the connection (is PostgreSQL running there, and are the host and port right?)\n"
	if code != 2 || stderr != want {
		t.Errorf("unreachable index: exit %d, stderr:\n%s\nwant exit 2 and:\n%s", code, stderr, want)
	}
	// From a folder without ./library, a library given as ls's operand.
	cwd, _ := os.Getwd()
	if err := os.Chdir(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, nil, "ls", lib)
	os.Chdir(cwd)
	if want := "librarian ls: \"" + lib + "\" is an absolute path, but a folder is relative to the library root; to use " + lib + " as the library, write --root " + lib + "\n"; code != 2 || stderr != want {
		t.Errorf("ls ABSOLUTE_LIBRARY from elsewhere: exit %d, stderr %q, want %q", code, stderr, want)
	}
	code, _, stderr = runCLI(t, nil, "--root")
	if code != 2 || stderr != "librarian: flag --root needs a value (see librarian --help)\n" {
		t.Errorf("--root without a value: exit %d, stderr %q", code, stderr)
	}
}

// TestOneLogFormat: what the markdown parser warns about goes to stderr in
// the program's one log format (slog's text), not the standard logger's.
func TestOneLogFormat(t *testing.T) {
	dir := t.TempDir()
	costly := strings.Repeat("`a` [b\n", 11000) // too many '[' in one inline run: a plain heading scan instead
	if err := os.WriteFile(filepath.Join(dir, "big.md"), []byte("# Big\n\n"+costly), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, stderr := runCLI(t, nil, "--root", dir, "--index", "off", "ls")
	if !strings.Contains(stderr, `level=WARN msg="markdown: document too costly`) {
		t.Fatalf("no parser warning in slog's format:\n%s", stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !strings.HasPrefix(line, "time=") {
			t.Errorf("a stderr line in another format: %q", line)
		}
	}
}
