package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/domain/wording"
)

// EngineGapLister is an engine that can list the gaps agents reported to it
// (the local engine keeps them in its journal; a remote engine keeps its
// own, out of reach).
type GapLister interface {
	Gaps(ctx context.Context, limit int) ([]knowledge.Knowledge, error)
}

// Gaps is `librarian gaps`: the gaps agents reported with librarian_gap,
// newest first, up to limit (0: all), for a docs team to fill.
func (e *Engine) Gaps(ctx context.Context, limit int) (string, error) {
	gaps, err := e.GapsData(ctx, limit)
	if err != nil {
		return "", err
	}
	return renderGaps(gaps), nil
}

// GapsData is Gaps as data (the command line's gaps --json): the gaps,
// newest first, up to limit (0: all).
func (e *Engine) GapsData(ctx context.Context, limit int) ([]knowledge.Knowledge, error) {
	if limit < 0 {
		return nil, fmt.Errorf("%w: --limit is %d: give 0 (all) or more", domain.ErrInvalidArgument, limit)
	}
	lister, ok := e.port.(GapLister)
	if !ok {
		return nil, fmt.Errorf("%w: a remote engine keeps the gaps it was told itself: `librarian gaps` lists the local engine's (leave LIBRARIAN_URL unset, or set LIBRARIAN_ENGINE=local)", domain.ErrInvalidArgument)
	}
	return lister.Gaps(ctx, limit)
}

func renderGaps(gaps []knowledge.Knowledge) string {
	if len(gaps) == 0 {
		return "No gaps recorded."
	}
	var b strings.Builder
	noun := "gaps"
	if len(gaps) == 1 {
		noun = "gap"
	}
	fmt.Fprintf(&b, "%d %s recorded, newest first:\n", len(gaps), noun)
	for _, g := range gaps {
		// The token reported it; a caller is only the name it gave itself.
		who := []string{}
		switch caller := g.Tags.Caller; {
		case g.Owner != "" && caller != "" && caller != g.Owner:
			who = append(who, "token "+g.Owner+", caller label "+caller)
		case g.Owner != "":
			who = append(who, "token "+g.Owner)
		case caller != "":
			who = append(who, caller)
		}
		where := "session " + g.Tags.Session
		if g.Tags.Project != "" {
			where += ", project " + g.Tags.Project
		}
		who = append(who, "("+where+")")
		fmt.Fprintf(&b, "- gap #%d · %s · %s\n  %s: %s\n", g.ID, g.At.UTC().Format(engineTimeLayout), strings.Join(who, " "),
			wording.OneLine(g.Subject, 200), wording.OneLine(g.Text, 1000))
	}
	return strings.TrimRight(b.String(), "\n")
}
