package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/librarian/librarian/app/config"
	"github.com/librarian/librarian/app/library"
)

// runIndex builds or refreshes the section index: a progress line on a
// terminal (rewritten in place on stderr), then one summary line on stdout.
func runIndex(ctx context.Context, lib *library.Library, args []string, stdout, stderr io.Writer) int {
	fs := newIndexFlags()
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "librarian: index takes no arguments, got %q\n", rest)
		return 2
	}
	if lib.Index() == nil {
		fmt.Fprintln(stderr, "librarian: no section index in use")
		return 2
	}
	var progress func(done, total int)
	terminal := isTerminal(stderr)
	if terminal {
		last := time.Time{}
		progress = func(done, total int) {
			if now := time.Now(); done == total || now.Sub(last) > 100*time.Millisecond {
				last = now
				fmt.Fprintf(stderr, "\rindexing: %d of %d changed docs", done, total)
			}
		}
	}
	st, err := lib.Refresh(ctx, progress)
	if terminal {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return fail(stderr, err)
	}
	status, err := lib.Index().Status(ctx)
	if err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintf(stdout, "indexed %d docs (%d sections) in %s: %d parsed, %d removed, %d left for the next run (modified in the last 2 s); %s, %d bytes\n",
		status.Docs, status.Sections, st.Took.Round(time.Millisecond), st.Parsed, st.Removed, st.Deferred, status.Where, status.Bytes)
	return 0
}

// indexTarget takes `--to DSN` (or `--to=DSN`) out of index's arguments:
// the index to build, as LIBRARY_INDEX (--index) would name it, e.g. a
// postgres:// URL for a team's shared index. It becomes the --index
// setting, checked with the others.
func indexTarget(args []string, given []config.FlagValue) ([]string, []config.FlagValue, error) {
	var keep []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(keep, args[i:]...), given, nil
		case a == "--to" || a == "-to":
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("index --to needs a value: the index to build (a postgres://… URL, on or off)")
			}
			given = append(given, config.FlagValue{Name: "index", Value: args[i+1]})
			i++
		case strings.HasPrefix(a, "--to=") || strings.HasPrefix(a, "-to="):
			given = append(given, config.FlagValue{Name: "index", Value: a[strings.IndexByte(a, '=')+1:]})
		default:
			keep = append(keep, a)
		}
	}
	return keep, given, nil
}

// newIndexFlags is index's own flag set: --to, which Parse has already
// turned into the --index setting (indexTarget), so it is never set here.
func newIndexFlags() *flag.FlagSet {
	fs := newFlagSet("index", io.Discard)
	fs.String("to", "", "the index to build, as LIBRARY_INDEX names it")
	return fs
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
