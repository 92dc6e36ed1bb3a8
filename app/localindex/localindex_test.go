package localindex_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/app/localindex"
	"github.com/librarian/librarian/ports/indexfiles"
)

// fakeStore is a folder of index files in memory.
type fakeStore struct {
	files   []indexfiles.File
	removed []string
	refuse  string // a path Remove fails for
}

func (s *fakeStore) Dir() string { return "/cache/librarian" }

func (s *fakeStore) List(context.Context) ([]indexfiles.File, error) {
	var out []indexfiles.File
	for _, f := range s.files {
		gone := false
		for _, r := range s.removed {
			gone = gone || r == f.Path
		}
		if !gone {
			out = append(out, f)
		}
	}
	return out, nil
}

func (s *fakeStore) Remove(_ context.Context, f indexfiles.File) error {
	if f.Path == s.refuse {
		return errors.New("permission denied")
	}
	s.removed = append(s.removed, f.Path)
	return nil
}

var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func store() *fakeStore {
	return &fakeStore{files: []indexfiles.File{
		{Path: "a.sqlite", Root: "/srv/a", RootExists: true, LastUsed: now.Add(-time.Hour)},
		{Path: "gone.sqlite", Root: "/tmp/gone", LastUsed: now.Add(-time.Hour)},
		{Path: "old.sqlite", Root: "/srv/old", RootExists: true, LastUsed: now.Add(-40 * 24 * time.Hour)},
		{Path: "unknown.sqlite", LastUsed: now.Add(-50 * 24 * time.Hour)},
		{Path: "unknown-new.sqlite", LastUsed: now.Add(-time.Minute)},
		{Path: "foreign.sqlite", Problem: "not a section index", LastUsed: now.Add(-400 * 24 * time.Hour)},
	}}
}

func paths(pr []localindex.Pruned) string {
	var p []string
	for _, f := range pr {
		p = append(p, f.Path+": "+f.Why)
	}
	return strings.Join(p, ", ")
}

// TestPrune: a gone root is always removed; with an age, the files unused
// for longer too, a file that names no root only by age; a file that is
// not an index never; a dry run removes nothing.
func TestPrune(t *testing.T) {
	ctx := context.Background()
	s := store()
	removed, kept, err := localindex.New(s, func() time.Time { return now }).Prune(ctx, localindex.PruneRequest{})
	if err != nil || paths(removed) != "gone.sqlite: root gone" || len(kept) != 5 {
		t.Errorf("prune: removed %q, kept %d, %v", paths(removed), len(kept), err)
	}
	removed, _, err = localindex.New(s, func() time.Time { return now }).Prune(ctx, localindex.PruneRequest{OlderThan: 30 * 24 * time.Hour})
	if err != nil || paths(removed) != "old.sqlite: unused for 40 days, unknown.sqlite: unused for 50 days" {
		t.Errorf("prune --older-than 30d: removed %q, %v", paths(removed), err)
	}
	if strings.Join(s.removed, ",") != "gone.sqlite,old.sqlite,unknown.sqlite" {
		t.Errorf("the store removed %q", s.removed)
	}

	dry := store()
	removed, _, _ = localindex.New(dry, func() time.Time { return now }).Prune(ctx, localindex.PruneRequest{OlderThan: time.Hour / 2, DryRun: true})
	if want := "a.sqlite: unused for 1 hour, gone.sqlite: root gone, old.sqlite: unused for 40 days, unknown.sqlite: unused for 50 days"; paths(removed) != want || len(dry.removed) != 0 {
		t.Errorf("dry run with 30m: would remove %q, want %q; removed %q, want nothing", paths(removed), want, dry.removed)
	}

	failing := store()
	failing.refuse = "gone.sqlite"
	removed, kept, err = localindex.New(failing, func() time.Time { return now }).Prune(ctx, localindex.PruneRequest{})
	if err == nil || !strings.Contains(err.Error(), "remove gone.sqlite: permission denied") || len(removed) != 0 || len(kept) != 6 {
		t.Errorf("a file that cannot be removed: removed %q, kept %d, %v", paths(removed), len(kept), err)
	}
	if _, _, err := localindex.New(store(), nil).Prune(ctx, localindex.PruneRequest{OlderThan: -time.Hour}); err == nil {
		t.Error("a negative age was accepted")
	}
}

func TestAge(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * time.Second: "less than a minute", time.Minute: "1 minute", 90 * time.Minute: "1 hour",
		47 * time.Hour: "47 hours", 49 * time.Hour: "2 days", 400 * 24 * time.Hour: "400 days",
	} {
		if got := localindex.Age(d); got != want {
			t.Errorf("Age(%s) = %q, want %q", d, got, want)
		}
	}
}
