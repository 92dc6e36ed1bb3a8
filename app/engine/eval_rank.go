package engine

import (
	"fmt"
	"regexp"
	"strings"
)

// Retrieval figures of an eval run: for each question, where the first
// hit, passage or doc holding an expected string stands in the answer's
// ranked list (locate's hits, ask's numbered passages, brief's numbered
// docs), so a run tells not only whether an answer passed but whether the
// answer was near the top. Depends answers are lists, not rankings.

// EvalTopN is the rank a retrieval counts as found at: the top 3.
const EvalTopN = 3

var (
	rankedLocateItem  = regexp.MustCompile(`(?m)^- \[`)
	rankedPassageItem = regexp.MustCompile(`(?m)^\[\d+\] `)
	rankedBriefItem   = regexp.MustCompile(`(?m)^\d+\. `)
)

// EvalRank returns the 1-based rank of the first item of answer that holds
// one of q's expected strings (ignoring case), 0 when none does; ranked is
// false for an answer that is not a ranked list of q's skill (free text,
// or an answer with no item at all).
func EvalRank(q EvalQuestion, answer string) (rank int, ranked bool) {
	var re *regexp.Regexp
	switch q.Skill {
	case "locate":
		re = rankedLocateItem
	case "ask_librarian":
		re = rankedPassageItem
	case "brief":
		re = rankedBriefItem
	default:
		return 0, false
	}
	starts := re.FindAllStringIndex(answer, -1)
	if len(starts) == 0 {
		return 0, false // free text (an engine's prose, or "nothing found"): no ranking to read
	}
	for i, s := range starts {
		end := len(answer)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		if k := strings.Index(answer[s[0]:end], "\n\n"); k >= 0 {
			end = s[0] + k // an item ends at a blank line: what follows is the answer's own
		}
		if _, ok := EvalMatch(answer[s[0]:end], q.Expect.AnyOf); ok {
			return i + 1, true
		}
	}
	return 0, true
}

// RetrievalText renders the retrieval figures: a line per ranked question
// (its rank, or "not ranked") and how many had the expected text in the
// top EvalTopN.
func (r EvalReport) RetrievalText() string {
	var b strings.Builder
	top, ranked := 0, 0
	b.WriteString("Retrieval (rank of the first hit, passage or doc holding an expected string):\n")
	for _, res := range r.Results {
		if res.Err != nil {
			continue
		}
		rank, ok := EvalRank(res.Question, res.Answer)
		if !ok {
			continue
		}
		ranked++
		mark := "miss"
		switch {
		case rank > 0 && rank <= EvalTopN:
			top++
			mark = fmt.Sprintf("rank %d", rank)
		case rank > 0:
			mark = fmt.Sprintf("rank %d (below the top %d)", rank, EvalTopN)
		}
		fmt.Fprintf(&b, "  %s [%s]: %s\n", res.Question.ID, res.Question.Skill, mark)
	}
	fmt.Fprintf(&b, "Top %d: %d/%d ranked answers\n", EvalTopN, top, ranked)
	return b.String()
}
