package appfx_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/fx"

	"github.com/librarian/librarian/adapters/engineapi"
	"github.com/librarian/librarian/adapters/localretrieval"
	"github.com/librarian/librarian/app/appfx"
	"github.com/librarian/librarian/app/config"
	"github.com/librarian/librarian/app/engine"
)

// TestEvalLocalEngine runs seed 004's eval against the local engine, as
// `librarian eval` does with no engine configured, over the bundled
// library and over the librarian-examples corpus (the json and the
// frontmatter conventions), and gates at the seed's 90 %. The retrieval
// figures (was the expected text in the top 3) are logged per question.
func TestEvalLocalEngine(t *testing.T) {
	for _, tc := range []struct{ root, questions string }{
		{filepath.Join("..", "..", "library"), filepath.Join("..", "..", "testdata", "eval", "library.jsonl")},
		{filepath.Join("..", "..", "testdata", "librarian-examples", "docs"), filepath.Join("..", "..", "testdata", "eval", "librarian-examples.jsonl")},
	} {
		t.Run(filepath.Base(tc.questions), func(t *testing.T) {
			s := config.Settings{Root: tc.root, Convention: "auto", DocIndex: "index.json", ImageIndex: "images/index.json",
				MaxImageBytes: 5 << 20, MaxAnswerTokens: 20000, Index: "off", Tools: []string{"engine"}}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			if got := appfx.EngineChoice(s); got != config.EngineLocal {
				t.Fatalf("engine choice %q with a library and no LIBRARIAN_URL, want local", got)
			}
			var eng *engine.Engine
			fxApp := fx.New(appfx.Module(s, slog.New(slog.DiscardHandler)), fx.Populate(&eng), fx.NopLogger)
			if err := fxApp.Err(); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(tc.questions)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			questions, err := engine.ReadEvalQuestions(f, tc.questions)
			if err != nil {
				t.Fatal(err)
			}
			report := engine.RunEvalQuestions(context.Background(), questions, eng.EvalAnswer)
			t.Logf("\n%s%s", report.Text(), report.RetrievalText())
			if !report.OK() {
				t.Errorf("the local engine scores %d/%d, under seed 004's 90%%:\n%s", report.Passed(), len(report.Results), report.Text())
			}
			for _, res := range report.Results {
				if res.Passed && res.Question.Skill == "ask_librarian" && !strings.Contains(res.Answer, "(provider: "+localretrieval.Provider+")") {
					t.Errorf("%s: the answer does not name the local engine as its provider", res.Question.ID)
				}
			}
		})
	}
}

// TestEngineAPIInGraph: the graph gives the engine API over the local
// engine, ready for the HTTP listener to mount.
func TestEngineAPIInGraph(t *testing.T) {
	s := config.Settings{Root: filepath.Join("..", "..", "library"), Convention: "auto", DocIndex: "index.json", ImageIndex: "images/index.json",
		MaxImageBytes: 5 << 20, Index: "off", Tools: []string{"library", "engine"}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	var api *engineapi.Handler
	fxApp := fx.New(appfx.Module(s, slog.New(slog.DiscardHandler)), fx.Populate(&api), fx.NopLogger)
	if err := fxApp.Err(); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	api.ServeHTTP(rec, httptest.NewRequest("GET", "/api/library/locate?q=Validate&session=s", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"file":"backend/auth.md","kind":"function","line":47,"name":"Validate"`) {
		t.Errorf("GET /api/library/locate: %d %s", rec.Code, rec.Body)
	}
}
