package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/librarian/librarian/app/localindex"
	"github.com/librarian/librarian/ports/indexfiles"
)

// `librarian index --list` and `librarian index --prune [--older-than AGE]
// [--dry-run]`: the local index files (LIBRARY_INDEX_DIR), one per library
// root a server of this machine ever opened.

func runIndexFiles(ctx context.Context, files *localindex.Files, fs *flag.FlagSet, o *indexOptions, rep reporter, stdout io.Writer) int {
	switch {
	case o.list && o.prune:
		return rep.fail(usageError("index", "--list and --prune: give one (--prune --dry-run lists what it would remove)"))
	case given(fs, "to"):
		return rep.fail(usageError("index", "--to builds an index; --list and --prune are about the local index files: give one"))
	case o.list && (given(fs, "older-than") || o.dryRun):
		return rep.fail(usageError("index", "--older-than and --dry-run go with --prune"))
	case files == nil:
		return rep.fail(fmt.Errorf("index: no folder of index files"))
	}
	now := files.Now()
	if o.list {
		list, err := files.List(ctx)
		if err != nil {
			return rep.fail(err)
		}
		if o.json {
			out := indexListJSON{Dir: files.Dir(), Files: []indexFileJSON{}}
			for _, f := range list {
				out.Files = append(out.Files, fileJSON(f))
			}
			return rep.writeJSON(stdout, out, 0)
		}
		fmt.Fprint(stdout, indexListText(files.Dir(), list, now))
		return 0
	}
	removed, kept, err := files.Prune(ctx, localindex.PruneRequest{OlderThan: o.olderThan, DryRun: o.dryRun})
	if o.json {
		out := indexPruneJSON{Dir: files.Dir(), DryRun: o.dryRun, Removed: []prunedJSON{}, Kept: []indexFileJSON{}}
		for _, p := range removed {
			out.Removed = append(out.Removed, prunedJSON{indexFileJSON: fileJSON(p.File), Why: p.Why})
		}
		for _, f := range kept {
			out.Kept = append(out.Kept, fileJSON(f))
		}
		if code := rep.writeJSON(stdout, out, 0); code != 0 {
			return code
		}
	} else {
		fmt.Fprint(stdout, indexPruneText(files.Dir(), removed, kept, o.dryRun))
	}
	if err != nil {
		return rep.fail(err)
	}
	return 0
}

// indexListText: one line per index file, then a summary.
//
//   - library-12a3714562a7dfb7.sqlite · 4.1 MiB · used 3 hours ago · /work/main/library
//   - docs-ac83bd17ffef455b.sqlite · 32.0 KiB · used 12 days ago · /tmp/docs (gone: librarian index --prune removes it)
func indexListText(dir string, list []indexfiles.File, now time.Time) string {
	var b strings.Builder
	if len(list) == 0 {
		fmt.Fprintf(&b, "No index files in %s.\n", dir)
		return b.String()
	}
	var total int64
	gone, unknown := 0, 0
	for _, f := range list {
		total += f.Bytes
	}
	fmt.Fprintf(&b, "%d index %s in %s, %s:\n", len(list), plural(len(list), "file", "files"), dir, humanBytes(total))
	for _, f := range list {
		fmt.Fprintf(&b, "- %s · %s · used %s ago · ", filepath.Base(f.Path), humanBytes(f.Bytes), localindex.Age(now.Sub(f.LastUsed)))
		switch {
		case f.Problem != "":
			fmt.Fprintf(&b, "not readable as an index (%s): left alone\n", f.Problem)
		case f.Root == "":
			unknown++
			b.WriteString("library unknown (indexed before roots were recorded)\n")
		case !f.RootExists:
			gone++
			fmt.Fprintf(&b, "%s (gone)\n", f.Root)
		default:
			fmt.Fprintf(&b, "%s\n", f.Root)
		}
	}
	if gone > 0 {
		fmt.Fprintf(&b, "%d of them belong to library roots that are gone: librarian index --prune removes them.\n", gone)
	}
	if unknown > 0 {
		fmt.Fprintf(&b, "%d of them name no library root: librarian index --prune --older-than 30d removes those unused for 30 days.\n", unknown)
	}
	return b.String()
}

// indexPruneText says what was removed (or would be), and why.
func indexPruneText(dir string, removed []localindex.Pruned, kept []indexfiles.File, dryRun bool) string {
	var b strings.Builder
	verb := "Removed"
	if dryRun {
		verb = "Would remove (dry run)"
	}
	if len(removed) == 0 {
		fmt.Fprintf(&b, "Nothing to remove in %s: %d index %s kept.\n", dir, len(kept), plural(len(kept), "file", "files"))
		return b.String()
	}
	var total int64
	for _, p := range removed {
		total += p.Bytes
	}
	fmt.Fprintf(&b, "%s %d index %s from %s, %s:\n", verb, len(removed), plural(len(removed), "file", "files"), dir, humanBytes(total))
	for _, p := range removed {
		root := p.Root
		if root == "" {
			root = "library unknown"
		}
		fmt.Fprintf(&b, "- %s · %s · %s: %s\n", filepath.Base(p.Path), humanBytes(p.Bytes), root, p.Why)
	}
	fmt.Fprintf(&b, "Kept %d.\n", len(kept))
	return b.String()
}

// humanBytes words a size: 512 bytes, 32.0 KiB, 4.1 MiB, 1.2 GiB.
func humanBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}

// indexListJSON is `index --list --json`.
type indexListJSON struct {
	Dir   string          `json:"dir"`
	Files []indexFileJSON `json:"files"`
}

type indexFileJSON struct {
	Path       string    `json:"path"`
	Files      []string  `json:"files"`
	Root       string    `json:"root"`
	RootExists bool      `json:"root_exists"`
	Bytes      int64     `json:"bytes"`
	LastUsed   time.Time `json:"last_used"`
	Problem    string    `json:"problem"`
}

// indexPruneJSON is `index --prune --json`.
type indexPruneJSON struct {
	Dir     string          `json:"dir"`
	DryRun  bool            `json:"dry_run"`
	Removed []prunedJSON    `json:"removed"`
	Kept    []indexFileJSON `json:"kept"`
}

type prunedJSON struct {
	indexFileJSON
	Why string `json:"why"`
}

func fileJSON(f indexfiles.File) indexFileJSON {
	return indexFileJSON{Path: f.Path, Files: orEmpty(f.Files), Root: f.Root, RootExists: f.RootExists, Bytes: f.Bytes,
		LastUsed: f.LastUsed.UTC().Truncate(time.Second), Problem: f.Problem}
}
