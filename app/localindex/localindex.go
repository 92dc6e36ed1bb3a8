// Package localindex is the use case of a machine's local index files
// (`librarian index --list` and `--prune`): which library each belongs to,
// its size and last use, and removing those of libraries that are gone or
// unused for long. Index files of old roots otherwise pile up in the cache
// folder, one per path a library was ever served from. It reads the files
// through the indexfiles port.
package localindex

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/librarian/librarian/ports/indexfiles"
)

// Files lists and prunes the index files of one folder.
type Files struct {
	store indexfiles.Store
	now   func() time.Time
}

// New is the use case over store; now is the clock (nil: time.Now).
func New(store indexfiles.Store, now func() time.Time) *Files {
	if now == nil {
		now = time.Now
	}
	return &Files{store: store, now: now}
}

// Dir is the folder the files are in.
func (f *Files) Dir() string { return f.store.Dir() }

// Now is the use case's clock, which ages are measured by.
func (f *Files) Now() time.Time { return f.now() }

// List returns every index file of the folder, by path.
func (f *Files) List(ctx context.Context) ([]indexfiles.File, error) {
	return f.store.List(ctx)
}

// PruneRequest says which index files to remove: always those whose
// library root is gone; with OlderThan, also those unused for longer.
type PruneRequest struct {
	// OlderThan, when positive, also removes the files whose last use is
	// older than this (their root may still exist: the next server of it
	// builds its index again).
	OlderThan time.Duration
	// DryRun says what would be removed, and removes nothing.
	DryRun bool
}

// Pruned is one file Prune removed (or, in a dry run, would remove), and why.
type Pruned struct {
	indexfiles.File
	// Why is "root gone" or "unused for N days".
	Why string
}

// Prune removes the index files req selects and returns them, and the
// files it kept. A file whose root it cannot tell (written before roots
// were recorded) goes only by age; a file it could not read (not a
// section index, a newer version) is never removed. Every file is tried:
// the error joins those that could not be removed.
func (f *Files) Prune(ctx context.Context, req PruneRequest) (removed []Pruned, kept []indexfiles.File, err error) {
	if req.OlderThan < 0 {
		return nil, nil, fmt.Errorf("the age must be positive, got %s", req.OlderThan)
	}
	files, err := f.store.List(ctx)
	if err != nil {
		return nil, nil, err
	}
	now := f.now()
	var errs []error
	for _, file := range files {
		why := ""
		switch {
		case file.Problem != "":
		case file.Root != "" && !file.RootExists:
			why = "root gone"
		case req.OlderThan > 0 && now.Sub(file.LastUsed) > req.OlderThan:
			why = fmt.Sprintf("unused for %s", Age(now.Sub(file.LastUsed)))
		}
		if why == "" {
			kept = append(kept, file)
			continue
		}
		if !req.DryRun {
			if err := f.store.Remove(ctx, file); err != nil {
				errs = append(errs, fmt.Errorf("remove %s: %w", file.Path, err))
				kept = append(kept, file)
				continue
			}
		}
		removed = append(removed, Pruned{File: file, Why: why})
	}
	return removed, kept, errors.Join(errs...)
}

// Age words a duration for a person, in its largest unit: "3 days",
// "5 hours", "12 minutes", "less than a minute".
func Age(d time.Duration) string {
	unit := func(n int, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	switch {
	case d >= 48*time.Hour:
		return unit(int(d/(24*time.Hour)), "day")
	case d >= time.Hour:
		return unit(int(d/time.Hour), "hour")
	case d >= time.Minute:
		return unit(int(d/time.Minute), "minute")
	}
	return "less than a minute"
}
