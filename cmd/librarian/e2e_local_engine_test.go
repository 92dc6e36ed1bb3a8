package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStdioLocalEngine: with the engine tool set and a library, and no
// engine configured (no LIBRARIAN_URL), the ten engine tools answer from
// the local engine over stdio, through the go-sdk client, in one session
// whose steps build on each other (tell then ask, guide then locate, gap
// then status, everything in the session log). The index lives in a
// throwaway folder; nothing is written into the library.
func TestStdioLocalEngine(t *testing.T) {
	lib := filepath.Join(repoRoot(t), "library")
	before := treeOf(t, lib)
	cs := connect(t, "",
		"LIBRARY_ROOT="+lib,
		"LIBRARIAN_TOOLS=library,engine",
		"LIBRARY_INDEX_DIR="+t.TempDir(),
		"LIBRARIAN_URL=",
		"CLAUDE_CODE_SESSION_ID=e2e-local",
	)
	for _, step := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"librarian_locate", map[string]any{"query": "Validate"}, []string{
			"Locations for 'Validate' (source: index):\n- [function] Validate -> backend/auth.md:47  (r *http.Request) (Claims, error)"}},
		{"librarian_locate", map[string]any{"query": "caching"}, []string{"- [entry] caching -> backend/storage/caching.md:1\n    depends_on: auth"}},
		{"librarian_ask", map[string]any{"query": "how are refresh tokens rotated?"}, []string{
			`[1] auth (backend/auth.md) § refresh-tokens/rotation · L18–38`, "L20: Every refresh returns a NEW refresh token",
			"L3 (§ _intro): Gateway token validation, the login flow, refresh tokens and how sessions end.", "(provider: librarian-local)"}},
		{"librarian_discuss", map[string]any{"message": "how does cache invalidation work?", "caller": "w1"}, []string{"caching (backend/storage/caching.md)"}},
		{"librarian_discuss", map[string]any{"message": "and what is the TTL?", "caller": "w1"}, []string{"earlier question", "ttl-rules"}},
		{"librarian_brief", map[string]any{"task": "add rate limiting to the login flow"}, []string{"auth (backend/auth.md)", "Nothing in the library on: rate, limiting"}},
		{"librarian_depends", map[string]any{"entry_id": "auth"}, []string{"Dependencies of 'auth':", "dependents (2):\n- caching\n- getting-started"}},
		{"librarian_tell", map[string]any{"subject": "session store", "info": "sessions moved to the quillwort cluster in v2", "caller": "w2"}, []string{"Knowledge stored: tell #1"}},
		{"librarian_ask", map[string]any{"query": "where is the session store?"}, []string{"Told by agents (not in the docs):", "quillwort cluster"}},
		{"librarian_gap", map[string]any{"subject": "billing", "missing": "where invoices are rendered"}, []string{"Gap recorded: gap #2"}},
		{"librarian_status", map[string]any{}, []string{"Index age:", `"engine": "librarian-local"`, `"count": 1`}},
		{"librarian_guide", map[string]any{"text": "stay out of storage", "exclude": []string{"storage/"}, "expect": "backend/auth.md"}, []string{"Guidance stored: version 1, expires"}},
		{"librarian_locate", map[string]any{"query": "invalidate"}, []string{"excluded by this session's guidance"}},
		{"librarian_session_log", map[string]any{"limit": 50}, []string{"Session log for e2e-local", "[locate]", "[guide]", "expect: backend/auth.md", "(guidance v1,"}},
	} {
		got, isErr := callText(t, cs, step.tool, step.args)
		if isErr {
			t.Fatalf("%s(%v) failed: %s", step.tool, step.args, got)
		}
		for _, w := range step.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s(%v) lacks %q:\n%s", step.tool, step.args, w, got)
			}
		}
	}
	if got, isErr := callText(t, cs, "librarian_locate", map[string]any{"query": ""}); !isErr || !strings.Contains(got, "'query' is empty") {
		t.Errorf("an empty query: %q (isError %v)", got, isErr)
	}
	if after := treeOf(t, lib); after != before {
		t.Errorf("the library folder changed")
	}
}

// TestGapsCommand: `librarian gaps` lists what agents reported, from the
// journal in the index's file, after the server that took them has ended.
func TestGapsCommand(t *testing.T) {
	lib := filepath.Join(repoRoot(t), "library")
	dir := t.TempDir()
	env := []string{"LIBRARY_ROOT=" + lib, "LIBRARY_INDEX_DIR=" + dir, "LIBRARIAN_URL=", "CLAUDE_CODE_SESSION_ID=gaps-e2e"}
	cs := connect(t, "", append(env, "LIBRARIAN_TOOLS=library,engine")...)
	if got, isErr := callText(t, cs, "librarian_gap", map[string]any{"subject": "billing", "missing": "where invoices are rendered", "caller": "w3"}); isErr {
		t.Fatalf("gap: %s", got)
	}
	cs.Close()
	cmd := exec.Command(binary, "gaps")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("librarian gaps: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "1 gap recorded, newest first:\n- gap #1 · ") || !strings.Contains(string(out), "w3 (session gaps-e2e)\n  billing: where invoices are rendered") {
		t.Errorf("librarian gaps:\n%s", out)
	}
}

// TestEvalWithoutEngine: no library and no engine named is said at once
// (exit 2), not after retrying seed 004's default URL (issue 13).
func TestEvalWithoutEngine(t *testing.T) {
	cmd := exec.Command(binary, "eval", filepath.Join(repoRoot(t), "testdata", "eval", "questions.jsonl"))
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "LIBRARIAN_URL=", "LIBRARY_ROOT=", "LIBRARIAN_DOCS_ROOT=")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "no retrieval engine is configured") {
		t.Errorf("eval without an engine: %v\n%s", err, out)
	}
}

func treeOf(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			rel, _ := filepath.Rel(root, p)
			b.WriteString(rel + " " + info.ModTime().String() + "\n")
		}
		return nil
	})
	return b.String()
}
