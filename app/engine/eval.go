package engine

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/domain/wording"
)

// Seed 004's eval: questions about a codebase, each run through one skill
// of the engine tools and passed when the answer holds any of its expected
// substrings, case-insensitively.

// EvalSkills are the skills a question may name, and the tool each runs:
// locate (librarian_locate), ask_librarian (librarian_ask), brief
// (librarian_brief), depends (librarian_depends, the query is an entry id).
var EvalSkills = []string{"locate", "ask_librarian", "brief", "depends"}

// EvalPassMark is the lowest passing score: below it `librarian eval` exits 1.
const EvalPassMark = 0.90

// EvalQuestion is one line of a questions file:
//
//	{"id": "loc-01", "skill": "locate", "query": "auth middleware", "expect": {"any_of": ["auth_middleware.py"]}}
type EvalQuestion struct {
	ID     string     `json:"id"`
	Skill  string     `json:"skill"`
	Query  string     `json:"query"`
	Expect EvalExpect `json:"expect"`
	// Line is the question's line in its file, for messages.
	Line int `json:"-"`
}

// EvalExpect says what a passing answer holds: any one of AnyOf, matched
// as a case-insensitive substring.
type EvalExpect struct {
	AnyOf []string `json:"any_of"`
}

// evalAnswerLine is one line of a fixture answers file:
//
//	{"id": "loc-01", "answer": "Locations for ..."}
type evalAnswerLine struct {
	ID     string `json:"id"`
	Answer string `json:"answer"`
}

// ReadEvalQuestions reads a questions file (JSON Lines; blank lines are
// skipped). Every problem is reported, each with its line, in one error
// wrapping domain.ErrInvalidArgument: a malformed line, an unknown field or
// skill, an empty id or query, a duplicate id, an empty expect.any_of (such
// a question could never pass).
func ReadEvalQuestions(r io.Reader, name string) ([]EvalQuestion, error) {
	var questions []EvalQuestion
	seen := map[string]int{}
	problems := evalReadLines(r, name, func(line int, raw []byte) []string {
		var q EvalQuestion
		if err := evalDecodeStrict(raw, &q); err != nil {
			return []string{err.Error()}
		}
		q.Line = line
		var msgs []string
		if strings.TrimSpace(q.ID) == "" {
			msgs = append(msgs, "'id' is missing or empty")
		} else if first, dup := seen[q.ID]; dup {
			msgs = append(msgs, fmt.Sprintf("id %q is already used on line %d", q.ID, first))
		} else {
			seen[q.ID] = line
		}
		if !slices.Contains(EvalSkills, q.Skill) {
			msgs = append(msgs, fmt.Sprintf("skill %q is not one of %s", q.Skill, strings.Join(EvalSkills, ", ")))
		}
		if strings.TrimSpace(q.Query) == "" {
			msgs = append(msgs, "'query' is missing or empty")
		}
		if len(q.Expect.AnyOf) == 0 {
			msgs = append(msgs, "'expect.any_of' is missing or empty: list the substrings a right answer holds")
		}
		for i, s := range q.Expect.AnyOf {
			if strings.TrimSpace(s) == "" {
				msgs = append(msgs, fmt.Sprintf("'expect.any_of[%d]' is empty (it would match every answer)", i))
			}
		}
		if len(msgs) == 0 {
			questions = append(questions, q)
		}
		return msgs
	})
	if len(problems) > 0 {
		return nil, evalProblems(name, problems)
	}
	if len(questions) == 0 {
		return nil, fmt.Errorf("%w: %s holds no questions", domain.ErrInvalidArgument, name)
	}
	return questions, nil
}

// ReadEvalAnswers reads a fixture answers file (JSON Lines of id and
// answer) into a map by id, with ReadEvalQuestions' error rules.
func ReadEvalAnswers(r io.Reader, name string) (map[string]string, error) {
	answers := map[string]string{}
	lines := map[string]int{}
	problems := evalReadLines(r, name, func(line int, raw []byte) []string {
		var a evalAnswerLine
		if err := evalDecodeStrict(raw, &a); err != nil {
			return []string{err.Error()}
		}
		switch first, dup := lines[a.ID]; {
		case strings.TrimSpace(a.ID) == "":
			return []string{"'id' is missing or empty"}
		case dup:
			return []string{fmt.Sprintf("id %q is already answered on line %d", a.ID, first)}
		}
		lines[a.ID] = line
		answers[a.ID] = a.Answer
		return nil
	})
	if len(problems) > 0 {
		return nil, evalProblems(name, problems)
	}
	return answers, nil
}

// evalReadLines calls parse on each non-blank line and gathers its
// problems as "LINE: problem".
func evalReadLines(r io.Reader, name string, parse func(line int, raw []byte) []string) []string {
	var problems []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	line := 0
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		for _, p := range parse(line, raw) {
			problems = append(problems, fmt.Sprintf("%s:%d: %s", name, line, p))
		}
	}
	if err := sc.Err(); err != nil {
		problems = append(problems, fmt.Sprintf("%s:%d: %v", name, line+1, err))
	}
	return problems
}

func evalDecodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not a valid line: %v", err)
	}
	if dec.More() {
		return errors.New("not a valid line: more than one JSON value")
	}
	return nil
}

func evalProblems(name string, problems []string) error {
	return fmt.Errorf("%w: %s has %d problem(s):\n%s", domain.ErrInvalidArgument, name, len(problems), strings.Join(problems, "\n"))
}

// EvalAnswerer answers one question.
type EvalAnswerer func(ctx context.Context, q EvalQuestion) (string, error)

// EvalAnswer runs q through its skill, as an agent's tool call would, and
// returns the text the agent would read.
func (e *Engine) EvalAnswer(ctx context.Context, q EvalQuestion) (string, error) {
	switch q.Skill {
	case "locate":
		return e.Locate(ctx, "", q.Query)
	case "ask_librarian":
		return e.Ask(ctx, "", q.Query)
	case "brief":
		return e.Brief(ctx, "", q.Query)
	case "depends":
		return e.Depends(ctx, q.Query)
	}
	return "", fmt.Errorf("%w: question %s: skill %q is not one of %s", domain.ErrInvalidArgument, q.ID, q.Skill, strings.Join(EvalSkills, ", "))
}

// EvalFixture answers from hand-written fixture answers by question id; a
// question without one fails with an error saying so.
func EvalFixture(answers map[string]string) EvalAnswerer {
	return func(_ context.Context, q EvalQuestion) (string, error) {
		a, ok := answers[q.ID]
		if !ok {
			return "", fmt.Errorf("the fixture has no answer for %s", q.ID)
		}
		return a, nil
	}
}

// EvalResult is one question's outcome. Matched is the expected substring
// found, when the question passed.
type EvalResult struct {
	Question EvalQuestion
	Answer   string
	Err      error
	Matched  string
	Passed   bool
}

// EvalReport is a whole run, results in question order.
type EvalReport struct {
	Results []EvalResult
}

// Passed counts the passing questions.
func (r EvalReport) Passed() int {
	n := 0
	for _, res := range r.Results {
		if res.Passed {
			n++
		}
	}
	return n
}

// Score is the share of passing questions, 0 for an empty run.
func (r EvalReport) Score() float64 {
	if len(r.Results) == 0 {
		return 0
	}
	return float64(r.Passed()) / float64(len(r.Results))
}

// OK reports whether the score reaches EvalPassMark.
func (r EvalReport) OK() bool { return len(r.Results) > 0 && r.Score() >= EvalPassMark }

// RunEvalQuestions asks every question in order and grades each answer.
// Once the engine is unreachable (or ctx ends) the remaining questions are
// not asked: they fail with the reason, so a dead engine costs one set of
// retries, not one per question.
func RunEvalQuestions(ctx context.Context, questions []EvalQuestion, answer EvalAnswerer) EvalReport {
	var report EvalReport
	var stop error
	for _, q := range questions {
		res := EvalResult{Question: q}
		switch {
		case stop != nil:
			res.Err = fmt.Errorf("not asked: %w", stop)
		case ctx.Err() != nil:
			stop = ctx.Err()
			res.Err = fmt.Errorf("not asked: %w", stop)
		default:
			res.Answer, res.Err = answer(ctx, q)
			if errors.Is(res.Err, knowledge.ErrEngineUnreachable) {
				stop = errors.New("the engine was unreachable")
			}
		}
		if res.Err == nil {
			res.Matched, res.Passed = EvalMatch(res.Answer, q.Expect.AnyOf)
		}
		report.Results = append(report.Results, res)
	}
	return report
}

// EvalMatch is the grader: the first of anyOf found in answer, ignoring
// case. Empty expectations never match.
func EvalMatch(answer string, anyOf []string) (string, bool) {
	lower := strings.ToLower(answer)
	for _, want := range anyOf {
		if strings.TrimSpace(want) != "" && strings.Contains(lower, strings.ToLower(want)) {
			return want, true
		}
	}
	return "", false
}

// Text renders the report as `librarian eval` prints it: a line per
// question (a failure also shows what was expected and what came back),
// then the score against the pass mark.
func (r EvalReport) Text() string {
	var b strings.Builder
	for _, res := range r.Results {
		q := res.Question
		if res.Passed {
			fmt.Fprintf(&b, "PASS %s [%s] %s (found %q)\n", q.ID, q.Skill, q.Query, res.Matched)
			continue
		}
		fmt.Fprintf(&b, "FAIL %s [%s] %s\n", q.ID, q.Skill, q.Query)
		quoted := make([]string, len(q.Expect.AnyOf))
		for i, s := range q.Expect.AnyOf {
			quoted[i] = fmt.Sprintf("%q", s)
		}
		fmt.Fprintf(&b, "     expected any of: %s\n", strings.Join(quoted, ", "))
		if res.Err != nil {
			fmt.Fprintf(&b, "     error: %s\n", wording.OneLine(res.Err.Error(), 300))
		} else {
			fmt.Fprintf(&b, "     answer: %s\n", wording.OneLine(res.Answer, 200))
		}
	}
	verdict := "PASS"
	if !r.OK() {
		verdict = "FAIL"
	}
	fmt.Fprintf(&b, "Score: %d/%d (%.1f%%), pass mark %.0f%%: %s\n", r.Passed(), len(r.Results), 100*r.Score(), 100*EvalPassMark, verdict)
	return b.String()
}
