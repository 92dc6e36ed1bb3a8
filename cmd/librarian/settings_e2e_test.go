package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSettingsFlagsAndEnvSameRules: a settings flag refuses what its env
// var refuses, before or after the command, and a flag overriding an
// invalid env var starts fine.
func TestSettingsFlagsAndEnvSameRules(t *testing.T) {
	lib := filepath.Join(repoRoot(t), "library")
	for _, tc := range []struct {
		name   string
		env    map[string]string
		args   []string
		code   int
		stderr string
	}{
		{"flag -1 tokens", nil, []string{"--root", lib, "--max-answer-tokens", "-1", "ls"}, 2, `--max-answer-tokens: want a non-negative integer, got "-1"`},
		{"flag -1 tokens after the command", nil, []string{"ls", "--root", lib, "--max-answer-tokens=-1"}, 2, `--max-answer-tokens: want a non-negative integer`},
		{"env -1 tokens", map[string]string{"LIBRARY_MAX_ANSWER_TOKENS": "-1"}, []string{"--root", lib, "ls"}, 2, `LIBRARY_MAX_ANSWER_TOKENS: want a non-negative integer`},
		{"flag 0 doc bytes", nil, []string{"--root", lib, "--max-doc-bytes", "0", "ls"}, 2, `--max-doc-bytes: want a positive byte count`},
		{"env 0 doc bytes", map[string]string{"LIBRARY_MAX_DOC_BYTES": "0"}, []string{"--root", lib, "ls"}, 2, `LIBRARY_MAX_DOC_BYTES: want a positive byte count`},
		{"flag overrides an invalid env var", map[string]string{"LIBRARY_MAX_ANSWER_TOKENS": "-1", "LIBRARY_MAX_DOC_BYTES": "0"},
			[]string{"--root", lib, "ls", "--max-answer-tokens", "100", "--max-doc-bytes", "1MB"}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.env, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q\nstdout: %s", code, stderr, tc.code, tc.stderr, stdout)
			}
		})
	}
}

// TestToolsListDefaultsAreTheBudget starts the server with budgets set by
// flag and checks that the tools advertise that budget as max_tokens'
// default, with no minimum a default could fall under.
func TestToolsListDefaultsAreTheBudget(t *testing.T) {
	lib := filepath.Join(repoRoot(t), "library")
	for _, budget := range []string{"-1", "0", "7"} {
		t.Run("max-answer-tokens="+budget, func(t *testing.T) {
			args := []string{"--root", lib, "--tools", "library,librarian-ts", "--max-answer-tokens", budget}
			if budget == "-1" {
				out, err := exec.Command(binary, args...).CombinedOutput()
				if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "--max-answer-tokens") {
					t.Fatalf("a negative budget should be refused at start-up naming the flag (exit 2), got %v: %s", err, out)
				}
				return
			}
			cmd := exec.Command(binary, args...)
			cmd.Env = os.Environ()
			cmd.Stderr = &testLogWriter{t: t}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer cs.Close()
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			// The schemas publish the server's budget as max_tokens' default
			// (and no minimum: the tools refuse a negative budget themselves,
			// naming it): it must be the budget the server was given.
			checked := 0
			for _, tool := range res.Tools {
				raw, err := json.Marshal(tool.InputSchema)
				if err != nil {
					t.Fatal(err)
				}
				var schema struct {
					Properties map[string]map[string]json.RawMessage `json:"properties"`
				}
				if err := json.Unmarshal(raw, &schema); err != nil {
					t.Fatalf("%s: %v", tool.Name, err)
				}
				p, ok := schema.Properties["max_tokens"]
				if !ok {
					continue
				}
				checked++
				if got := string(p["default"]); got != budget {
					t.Errorf("%s.max_tokens advertises default %s, want the server's %s", tool.Name, got, budget)
				}
				if _, ok := p["minimum"]; ok {
					t.Errorf("%s.max_tokens publishes a minimum the tool checks itself", tool.Name)
				}
			}
			if checked == 0 {
				t.Error("no tool has max_tokens: the check checked nothing")
			}
		})
	}
}
