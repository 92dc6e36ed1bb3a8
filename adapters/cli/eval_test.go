package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/adapters/httpretrieval"
	"github.com/librarian/librarian/app/engine"
	"github.com/librarian/librarian/ports/retrieval/retrievaltest"
)

var (
	evalQuestionsFile = filepath.Join("..", "..", "testdata", "eval", "questions.jsonl")
	evalAnswersFile   = filepath.Join("..", "..", "testdata", "eval", "answers.jsonl")
	evalDegradedFile  = filepath.Join("..", "..", "testdata", "eval", "answers_degraded.jsonl")
)

func runEvalCLI(t *testing.T, eng *engine.Engine, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = RunEval(context.Background(), eng, args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestEvalFixturePasses(t *testing.T) {
	code, out, errOut := runEvalCLI(t, nil, evalQuestionsFile, "--fixture", evalAnswersFile)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, errOut)
	}
	if n := strings.Count(out, "\nPASS "); n != 22 {
		t.Errorf("%d PASS lines, want 22:\n%s", n, out)
	}
	if !strings.HasSuffix(out, "Score: 22/22 (100.0%), pass mark 90%: PASS\n") {
		t.Errorf("output does not end with the score:\n%s", out)
	}
}

func TestEvalDegradedFails(t *testing.T) {
	// The flag may also come first.
	code, out, _ := runEvalCLI(t, nil, "--fixture", evalDegradedFile, evalQuestionsFile)
	if code != 1 {
		t.Errorf("exit %d, want 1 (below the pass mark)", code)
	}
	for _, want := range []string{"FAIL loc-03 [locate]", "FAIL ask-05 [ask_librarian]", "FAIL dep-02 [depends]",
		"Score: 19/22 (86.4%), pass mark 90%: FAIL\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestEvalUsageErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"id": "a", "skill": "grep", "query": "q", "expect": {"any_of": ["x"]}}`+"\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no file", nil, "eval takes one QUESTIONS.jsonl file, got 0"},
		{"two files", []string{evalQuestionsFile, evalAnswersFile}, "eval takes one QUESTIONS.jsonl file, got 2"},
		{"missing file", []string{filepath.Join(dir, "nope.jsonl")}, "nope.jsonl: no such file"},
		{"missing fixture", []string{evalQuestionsFile, "--fixture", filepath.Join(dir, "none.jsonl")}, "none.jsonl: no such file"},
		{"fixture without value", []string{evalQuestionsFile, "--fixture"}, "eval: flag --fixture needs a value (see librarian eval --help)"},
		{"unknown flag", []string{evalQuestionsFile, "--fixtures", "x"}, "eval: unknown flag --fixtures (see librarian eval --help)"},
		{"bad questions", []string{bad, "--fixture", evalAnswersFile}, `bad.jsonl:1: skill "grep" is not one of`},
		{"no engine", []string{evalQuestionsFile}, "no retrieval engine is configured"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runEvalCLI(t, nil, tc.args...)
			if code != 2 || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, tc.want)
			}
		})
	}
	code, out, _ := runEvalCLI(t, nil, "--help")
	if code != 0 || !strings.Contains(out, "librarian eval QUESTIONS.jsonl [--fixture ANSWERS.jsonl]") {
		t.Errorf("--help: exit %d, output %q", code, out)
	}
}

// evalEngine builds the real engine tools against url, with tiny waits.
func evalEngine(t *testing.T, url string) *engine.Engine {
	t.Helper()
	remote, err := httpretrieval.New(httpretrieval.Options{URL: url, Waits: []time.Duration{time.Millisecond, time.Millisecond, time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return engine.New(remote, engine.Config{Session: "eval-session"})
}

// knowingEngine scripts a fake engine that answers every shipped question
// with its first expected substring, each through its own endpoint, so a
// live run passes only if every skill reaches the right endpoint and its
// answer is read and rendered.
func knowingEngine(t *testing.T) *retrievaltest.FakeEngine {
	t.Helper()
	f, err := os.Open(evalQuestionsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	qs, err := engine.ReadEvalQuestions(f, evalQuestionsFile)
	if err != nil {
		t.Fatal(err)
	}
	expected := map[string]string{} // skill + query -> expected text
	for _, q := range qs {
		expected[q.Skill+"\x00"+q.Query] = q.Expect.AnyOf[0]
	}
	fake := retrievaltest.NewFakeEngine(t)
	write := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	}
	bodyField := func(r *http.Request, name string) string {
		var m map[string]any
		data, _ := io.ReadAll(r.Body)
		json.Unmarshal(data, &m)
		s, _ := m[name].(string)
		return s
	}
	fake.Script("GET", "/api/library/locate", func(w http.ResponseWriter, r *http.Request) {
		name := expected["locate\x00"+r.URL.Query().Get("q")]
		write(w, map[string]any{"source": "index", "hits": []any{map[string]any{"kind": "function", "name": name, "file": "src/app.py", "line": 3}}})
	})
	fake.Script("POST", "/api/library/ask", func(w http.ResponseWriter, r *http.Request) {
		write(w, map[string]any{"answer": "It is " + expected["ask_librarian\x00"+bodyField(r, "query")] + ".", "provider": "fake"})
	})
	fake.Script("POST", "/api/library/brief", func(w http.ResponseWriter, r *http.Request) {
		write(w, map[string]any{"brief": "Reuse " + expected["brief\x00"+bodyField(r, "task")] + "."})
	})
	fake.Script("GET", "/api/library/depends", func(w http.ResponseWriter, r *http.Request) {
		write(w, map[string]any{"dependents": []string{expected["depends\x00"+r.URL.Query().Get("eid")]}, "depends_on": []string{}})
	})
	return fake
}

func TestEvalLiveEngine(t *testing.T) {
	fake := knowingEngine(t)
	code, out, errOut := runEvalCLI(t, evalEngine(t, fake.URL()), evalQuestionsFile)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q, output:\n%s", code, errOut, out)
	}
	if !strings.HasPrefix(out, "Eval of 22 questions from "+evalQuestionsFile+", asked to the engine (session eval-session)\n") ||
		!strings.Contains(out, "Score: 22/22 (100.0%), pass mark 90%: PASS\nRetrieval (rank of the first hit, passage or doc holding an expected string):\n  loc-01 [locate]: rank 1\n") ||
		!strings.HasSuffix(out, "Top 3: 8/8 ranked answers\n") {
		t.Errorf("output:\n%s", out)
	}
	counts := map[string]int{}
	for _, r := range fake.Requests() {
		counts[r.Endpoint()]++
	}
	want := map[string]int{"GET /api/library/locate": 8, "POST /api/library/ask": 6, "POST /api/library/brief": 4, "GET /api/library/depends": 4}
	for ep, n := range want {
		if counts[ep] != n {
			t.Errorf("%s got %d requests, want %d (all: %v)", ep, counts[ep], n, counts)
		}
	}
}

// An engine that knows nothing fails the run.
func TestEvalLiveEngineThatKnowsNothing(t *testing.T) {
	fake := retrievaltest.NewFakeEngine(t) // default answers: right shapes, wrong content
	code, out, _ := runEvalCLI(t, evalEngine(t, fake.URL()), evalQuestionsFile)
	if code != 1 || !strings.Contains(out, "pass mark 90%: FAIL") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

// An unreachable engine is asked once, not 22 times, and the run fails.
func TestEvalUnreachableEngine(t *testing.T) {
	url := retrievaltest.RefusedURL(t)
	code, out, _ := runEvalCLI(t, evalEngine(t, url), evalQuestionsFile)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(out, "error: engine unreachable at "+url) || strings.Count(out, "error: not asked: the engine was unreachable") != 21 {
		t.Errorf("output:\n%s", out)
	}
}
