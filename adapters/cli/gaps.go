package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/librarian/librarian/app/engine"
)

// RunGaps is `librarian gaps [--limit N]`: the gaps agents reported to the
// local engine (librarian_gap), newest first, for a docs team.
func RunGaps(ctx context.Context, eng *engine.Engine, args []string, stdout, stderr io.Writer) int {
	rep := reporterFor(stderr, args)
	fs, limit, asJSON := newGapsFlags()
	operands, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		Usage(stdout, "gaps")
		return 0
	}
	if err != nil {
		return rep.fail(fmt.Errorf("gaps: %w (usage: librarian gaps [--limit N])", err))
	}
	if len(operands) > 0 {
		return rep.fail(fmt.Errorf("gaps takes no operands, got %q (usage: librarian gaps [--limit N])", operands))
	}
	if eng == nil {
		return rep.fail(errors.New("gaps: `librarian gaps` lists the gaps reported to the local engine, which needs a library (LIBRARY_ROOT or --root) and no LIBRARIAN_URL (or LIBRARIAN_ENGINE=local); a remote engine keeps its own"))
	}
	if *asJSON {
		gaps, err := eng.GapsData(ctx, *limit)
		if err != nil {
			return rep.fail(err)
		}
		return rep.writeJSON(stdout, gapListJSON(gaps), 0)
	}
	text, err := eng.Gaps(ctx, *limit)
	if err != nil {
		return rep.fail(err)
	}
	fmt.Fprintln(stdout, text)
	return 0
}

// newGapsFlags is gaps' own flag set.
func newGapsFlags() (*flag.FlagSet, *int, *bool) {
	fs := newFlagSet("gaps", io.Discard)
	return fs, fs.Int("limit", 0, ""), fs.Bool("json", false, "")
}
