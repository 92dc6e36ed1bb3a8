package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/librarian/librarian/app/engine"
)

// RunEval is `librarian eval QUESTIONS.jsonl [--fixture ANSWERS.jsonl]`
// (args are what follows "eval"), seed 004's eval runner: each question is
// run through its skill (locate, ask_librarian, brief, depends) against the
// engine, or answered from the fixture file, and passes when the answer
// holds any of its expect.any_of substrings, case-insensitively. It prints a
// line per question and the score, and returns the exit code: 0 at or above
// the 90% pass mark, 1 below it, 2 for a usage error or an unreadable file.
// engine may be nil in fixture mode.
func RunEval(ctx context.Context, eng *engine.Engine, args []string, stdout, stderr io.Writer) int {
	fs, fixture := newEvalFlags()
	operands, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		Usage(stdout, "eval")
		return 0
	}
	if err != nil {
		return fail(stderr, err)
	}
	if len(operands) != 1 {
		return fail(stderr, fmt.Errorf("eval takes one QUESTIONS.jsonl file, got %d operands %q (usage: librarian eval QUESTIONS.jsonl [--fixture ANSWERS.jsonl])", len(operands), operands))
	}
	questions, err := readEvalFile(operands[0], engine.ReadEvalQuestions)
	if err != nil {
		return fail(stderr, err)
	}
	var answer engine.EvalAnswerer
	if *fixture != "" {
		answers, err := readEvalFile(*fixture, engine.ReadEvalAnswers)
		if err != nil {
			return fail(stderr, err)
		}
		answer = engine.EvalFixture(answers)
		fmt.Fprintf(stdout, "Eval of %d questions from %s, answered from the fixture %s\n", len(questions), operands[0], *fixture)
	} else {
		if eng == nil {
			return fail(stderr, errors.New("eval: no retrieval engine is configured: point LIBRARY_ROOT (or --root) at a library for the local engine, set LIBRARIAN_URL (or --engine-url) for a remote one, or pass --fixture ANSWERS.jsonl"))
		}
		answer = eng.EvalAnswer
		fmt.Fprintf(stdout, "Eval of %d questions from %s, asked to the engine (session %s)\n", len(questions), operands[0], eng.Session())
	}
	report := engine.RunEvalQuestions(ctx, questions, answer)
	fmt.Fprint(stdout, report.Text())
	if *fixture == "" {
		fmt.Fprint(stdout, report.RetrievalText())
	}
	if !report.OK() {
		return 1
	}
	return 0
}

func newEvalFlags() (*flag.FlagSet, *string) {
	fs := newFlagSet("eval", io.Discard)
	return fs, fs.String("fixture", "", "")
}

// readEvalFile opens path and reads it with read, naming the file in errors.
func readEvalFile[T any](path string, read func(io.Reader, string) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	return read(f, path)
}
