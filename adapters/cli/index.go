package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/librarian/librarian/app/config"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/localindex"
)

// runIndex builds or refreshes the section index: a progress line on a
// terminal (rewritten in place on stderr), then one summary line on stdout.
func runIndex(ctx context.Context, lib *library.Library, files *localindex.Files, args []string, stdout, stderr io.Writer) int {
	rep := reporterFor(stderr, args)
	fs, o := newIndexFlags()
	rest, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		Usage(stdout, "index")
		return 0
	}
	if err != nil {
		return rep.fail(err)
	}
	if len(rest) > 0 {
		return rep.fail(usageError("index", "takes no arguments, got %q", rest))
	}
	if o.list || o.prune {
		return runIndexFiles(ctx, files, fs, o, rep, stdout)
	}
	for _, name := range []string{"older-than", "dry-run", "json"} {
		if given(fs, name) {
			return rep.fail(usageError("index", "--%s goes with --list or --prune", name))
		}
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

// indexOptions are index's own flags.
type indexOptions struct {
	list, prune, dryRun, json bool
	olderThan                 time.Duration
}

// newIndexFlags is index's own flag set: --to, which Parse has already
// turned into the --index setting (indexTarget), so it is never set here;
// --list and --prune (the local index files) and theirs.
func newIndexFlags() (*flag.FlagSet, *indexOptions) {
	fs, o := newFlagSet("index", io.Discard), &indexOptions{}
	fs.String("to", "", "the index to build, as LIBRARY_INDEX names it")
	fs.BoolVar(&o.list, "list", false, "")
	fs.BoolVar(&o.prune, "prune", false, "")
	fs.BoolVar(&o.dryRun, "dry-run", false, "")
	fs.BoolVar(&o.json, "json", false, "")
	fs.Func("older-than", "", func(v string) error {
		d, err := parseAge(v)
		o.olderThan = d
		return err
	})
	return fs, o
}

// IndexFilesOnly reports whether index's arguments ask about the local
// index files (--list, --prune), which need no library: main then builds
// none.
func IndexFilesOnly(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if name, _ := flagName(a); name == "list" || name == "prune" {
			return true
		}
	}
	return false
}

// parseAge reads --older-than: a Go duration (36h, 90m) or a number of
// days (30d).
func parseAge(v string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(strings.TrimSpace(v), "d"); ok {
		days, err := strconv.Atoi(n)
		if err == nil && days > 0 {
			return time.Duration(days) * 24 * time.Hour, nil
		}
	}
	d, err := time.ParseDuration(strings.TrimSpace(v))
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("want an age such as 30d or 36h, got %q", v)
	}
	return d, nil
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
