// Package journaltest is the journal port's contract suite: every adapter
// (memory, SQLite, PostgreSQL) runs Run and so keeps the same promises.
package journaltest

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/journal"
)

// Factory builds the journals under test.
type Factory struct {
	// New returns an empty journal; the suite closes it.
	New func(t *testing.T) journal.Journal
	// Reopen closes j and opens the same store again, for adapters that
	// keep what they hold across a restart; nil for one that lives in
	// memory only.
	Reopen func(t *testing.T, j journal.Journal) journal.Journal
}

// Run checks the journal port's contract.
func Run(t *testing.T, f Factory) {
	open := func(t *testing.T) journal.Journal {
		j := f.New(t)
		t.Cleanup(func() { j.Close() })
		return j
	}
	t.Run("Learn", func(t *testing.T) { testLearn(t, open(t)) })
	t.Run("KnowledgeOrderAndLimit", func(t *testing.T) { testKnowledge(t, open(t)) })
	t.Run("Guidance", func(t *testing.T) { testGuidance(t, open(t)) })
	t.Run("GuidanceExpires", func(t *testing.T) { testGuidanceExpires(t, open(t)) })
	t.Run("Log", func(t *testing.T) { testLog(t, open(t)) })
	t.Run("Concurrent", func(t *testing.T) { testConcurrent(t, open(t)) })
	if f.Reopen != nil {
		t.Run("Durable", func(t *testing.T) { testDurable(t, f) })
	}
}

var (
	ctx   = context.Background()
	epoch = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	tags  = knowledge.EngineTags{Session: "sess-1", Project: "shop", Caller: "worker-2"}
)

// get unwraps a call's value, failing t on its error.
func get[T any](v T, err error) func(*testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatalf("%v", err)
		}
		return v
	}
}

func testLearn(t *testing.T, j journal.Journal) {
	before := time.Now().Add(-time.Second)
	a := get(j.Learn(ctx, knowledge.Knowledge{Kind: knowledge.KnowledgeTold, Subject: "session store", Text: "moved to redis in v2", Tags: tags}))(t)
	if a.ID <= 0 {
		t.Errorf("ID is %d, want a positive id", a.ID)
	}
	if a.At.Before(before) || a.At.After(time.Now().Add(time.Second)) {
		t.Errorf("At is %v, want now", a.At)
	}
	b := get(j.Learn(ctx, knowledge.Knowledge{Kind: knowledge.KnowledgeGap, Subject: "billing", Text: "where invoices are rendered", Tags: knowledge.EngineTags{Session: "s2"}, At: epoch}))(t)
	if b.ID <= a.ID {
		t.Errorf("second ID %d is not above the first %d", b.ID, a.ID)
	}
	if !b.At.Equal(epoch) {
		t.Errorf("At is %v, want the given %v", b.At, epoch)
	}
	told := get(j.Knowledge(ctx, knowledge.KnowledgeTold, 0))(t)
	if len(told) != 1 {
		t.Fatalf("got %d told records, want 1", len(told))
	}
	got := told[0]
	if got.ID != a.ID || got.Kind != knowledge.KnowledgeTold || got.Subject != "session store" || got.Text != "moved to redis in v2" || got.Tags != tags || !got.At.Equal(a.At) {
		t.Errorf("stored %+v, got back %+v", a, got)
	}
	gaps := get(j.Knowledge(ctx, knowledge.KnowledgeGap, 0))(t)
	if len(gaps) != 1 || gaps[0].Subject != "billing" || gaps[0].Tags.Session != "s2" || gaps[0].Tags.Caller != "" {
		t.Errorf("gaps are %+v", gaps)
	}
}

func testKnowledge(t *testing.T, j journal.Journal) {
	if got := get(j.Knowledge(ctx, knowledge.KnowledgeTold, 0))(t); len(got) != 0 {
		t.Errorf("an empty journal has %d records", len(got))
	}
	for i := range 5 {
		get(j.Learn(ctx, knowledge.Knowledge{Kind: knowledge.KnowledgeTold, Subject: fmt.Sprint("s", i), Text: "t", Tags: tags, At: epoch.Add(time.Duration(i) * time.Minute)}))(t)
	}
	got := get(j.Knowledge(ctx, knowledge.KnowledgeTold, 3))(t)
	var subjects []string
	for _, k := range got {
		subjects = append(subjects, k.Subject)
	}
	if want := []string{"s4", "s3", "s2"}; !reflect.DeepEqual(subjects, want) {
		t.Errorf("newest three are %v, want %v", subjects, want)
	}
	if got := get(j.Knowledge(ctx, knowledge.KnowledgeTold, -1))(t); len(got) != 5 {
		t.Errorf("limit -1 gave %d records, want all 5", len(got))
	}
	if got := get(j.Knowledge(ctx, knowledge.KnowledgeGap, 0))(t); len(got) != 0 {
		t.Errorf("gaps: %d, want none (kinds are kept apart)", len(got))
	}
}

func guidance(session, text string, exclude ...string) knowledge.SessionGuidance {
	return knowledge.SessionGuidance{Session: session, Caller: "lead", Text: text, Exclude: exclude, Expect: "backend/auth.md",
		SetAt: epoch, ExpiresAt: epoch.Add(12 * time.Hour)}
}

func testGuidance(t *testing.T, j journal.Journal) {
	now := epoch.Add(time.Hour)
	if _, ok := current(j.CurrentGuidance(ctx, "sess-1", now))(t); ok {
		t.Errorf("a new journal has guidance")
	}
	if cleared := get(j.ClearGuidance(ctx, "sess-1", now))(t); cleared {
		t.Errorf("clearing no guidance reported true")
	}
	g1 := get(j.SetGuidance(ctx, guidance("sess-1", "prefer v2", "legacy/", "*.old.md")))(t)
	if g1.Version != 1 {
		t.Errorf("first version is %d, want 1", g1.Version)
	}
	g2 := get(j.SetGuidance(ctx, guidance("sess-1", "prefer v3")))(t)
	if g2.Version != 2 {
		t.Errorf("second version is %d, want 2", g2.Version)
	}
	other := get(j.SetGuidance(ctx, guidance("sess-2", "other session", "x/")))(t)
	if other.Version != 1 {
		t.Errorf("another session's first version is %d, want 1", other.Version)
	}
	cur, ok := current(j.CurrentGuidance(ctx, "sess-1", now))(t)
	if !ok || cur.Text != "prefer v3" || cur.Version != 2 || len(cur.Exclude) != 0 || cur.Expect != "backend/auth.md" || cur.Caller != "lead" ||
		!cur.SetAt.Equal(epoch) || !cur.ExpiresAt.Equal(epoch.Add(12*time.Hour)) || cur.Session != "sess-1" {
		t.Errorf("current guidance is %+v (ok %v), want the second one", cur, ok)
	}
	cur2, _ := current(j.CurrentGuidance(ctx, "sess-2", now))(t)
	if !reflect.DeepEqual(cur2.Exclude, []string{"x/"}) {
		t.Errorf("exclude is %q, want [x/]", cur2.Exclude)
	}
	if cleared := get(j.ClearGuidance(ctx, "sess-1", now))(t); !cleared {
		t.Errorf("clearing guidance reported false")
	}
	if _, ok := current(j.CurrentGuidance(ctx, "sess-1", now))(t); ok {
		t.Errorf("guidance still there after a clear")
	}
	if _, ok := current(j.CurrentGuidance(ctx, "sess-2", now))(t); !ok {
		t.Errorf("clearing one session cleared another")
	}
	g3 := get(j.SetGuidance(ctx, guidance("sess-1", "again", "a/", "b/")))(t)
	if g3.Version != 3 {
		t.Errorf("version after a clear is %d, want 3 (versions are never reused)", g3.Version)
	}
	cur3, _ := current(j.CurrentGuidance(ctx, "sess-1", now))(t)
	if !reflect.DeepEqual(cur3.Exclude, []string{"a/", "b/"}) {
		t.Errorf("exclude is %q, want [a/ b/] in order", cur3.Exclude)
	}
}

// current unwraps CurrentGuidance's answer, failing t on its error.
func current(g knowledge.SessionGuidance, ok bool, err error) func(*testing.T) (knowledge.SessionGuidance, bool) {
	return func(t *testing.T) (knowledge.SessionGuidance, bool) {
		t.Helper()
		if err != nil {
			t.Fatalf("%v", err)
		}
		return g, ok
	}
}

func testGuidanceExpires(t *testing.T, j journal.Journal) {
	get(j.SetGuidance(ctx, guidance("s", "short")))(t)
	if _, ok := current(j.CurrentGuidance(ctx, "s", epoch.Add(12*time.Hour-time.Second)))(t); !ok {
		t.Errorf("guidance gone before it expired")
	}
	if _, ok := current(j.CurrentGuidance(ctx, "s", epoch.Add(12*time.Hour)))(t); ok {
		t.Errorf("guidance still current at its expiry")
	}
	if cleared := get(j.ClearGuidance(ctx, "s", epoch.Add(13*time.Hour)))(t); cleared {
		t.Errorf("clearing expired guidance reported true")
	}
}

func testLog(t *testing.T, j journal.Journal) {
	if got := get(j.Interactions(ctx, "sess-1", 10))(t); len(got) != 0 {
		t.Errorf("an empty log has %d rows", len(got))
	}
	first := knowledge.LoggedInteraction{At: epoch, Session: "sess-1", Caller: "worker-2", Kind: "locate", Query: "auth middleware",
		Served: []string{"backend/auth.md:44", "backend/auth.md:1"}, GuidanceVersion: 2, ExcludedHits: 3, Provider: "local"}
	if err := j.Record(ctx, first); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 6; i++ {
		if err := j.Record(ctx, knowledge.LoggedInteraction{At: epoch.Add(time.Duration(i) * time.Second), Session: "sess-1", Kind: "ask", Query: fmt.Sprint("q", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Record(ctx, knowledge.LoggedInteraction{At: epoch, Session: "sess-2", Kind: "ask", Query: "elsewhere"}); err != nil {
		t.Fatal(err)
	}
	all := get(j.Interactions(ctx, "sess-1", 0))(t)
	if len(all) != 6 {
		t.Fatalf("got %d rows, want 6 (the other session's kept apart)", len(all))
	}
	got := all[0]
	if !got.At.Equal(first.At) {
		t.Errorf("At is %v, want %v", got.At, first.At)
	}
	got.At = first.At
	if !reflect.DeepEqual(got, first) {
		t.Errorf("row is %+v, want %+v", got, first)
	}
	if all[1].Served != nil && len(all[1].Served) != 0 {
		t.Errorf("a row served nothing has Served %q", all[1].Served)
	}
	last := get(j.Interactions(ctx, "sess-1", 2))(t)
	if len(last) != 2 || last[0].Query != "q4" || last[1].Query != "q5" {
		t.Errorf("last two rows are %+v, want q4 then q5", last)
	}
}

func testConcurrent(t *testing.T, j journal.Journal) {
	var wg sync.WaitGroup
	errs := make(chan error, 60)
	for i := range 20 {
		wg.Add(3)
		go func() {
			defer wg.Done()
			_, err := j.Learn(ctx, knowledge.Knowledge{Kind: knowledge.KnowledgeTold, Subject: fmt.Sprint("s", i), Text: "t", Tags: tags})
			errs <- err
		}()
		go func() {
			defer wg.Done()
			errs <- j.Record(ctx, knowledge.LoggedInteraction{At: epoch, Session: "c", Kind: "ask", Query: fmt.Sprint(i)})
		}()
		go func() {
			defer wg.Done()
			_, err := j.SetGuidance(ctx, guidance("c", fmt.Sprint(i)))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent call: %v", err)
		}
	}
	if got := get(j.Knowledge(ctx, knowledge.KnowledgeTold, 0))(t); len(got) != 20 {
		t.Errorf("%d records, want 20", len(got))
	}
	if got := get(j.Interactions(ctx, "c", 0))(t); len(got) != 20 {
		t.Errorf("%d rows, want 20", len(got))
	}
	g, _ := current(j.CurrentGuidance(ctx, "c", epoch))(t)
	if g.Version != 20 {
		t.Errorf("version after 20 concurrent sets is %d, want 20", g.Version)
	}
}

func testDurable(t *testing.T, f Factory) {
	j := f.New(t)
	k := get(j.Learn(ctx, knowledge.Knowledge{Kind: knowledge.KnowledgeTold, Subject: "kept", Text: "across restarts", Tags: tags}))(t)
	get(j.SetGuidance(ctx, guidance("sess-1", "kept too")))(t)
	if err := j.Record(ctx, knowledge.LoggedInteraction{At: epoch, Session: "sess-1", Kind: "tell", Query: "kept"}); err != nil {
		t.Fatal(err)
	}
	j = f.Reopen(t, j)
	t.Cleanup(func() { j.Close() })
	told := get(j.Knowledge(ctx, knowledge.KnowledgeTold, 0))(t)
	if len(told) != 1 || told[0].ID != k.ID || told[0].Text != "across restarts" {
		t.Errorf("after reopening: %+v", told)
	}
	if g, ok := current(j.CurrentGuidance(ctx, "sess-1", epoch))(t); !ok || g.Text != "kept too" {
		t.Errorf("guidance after reopening: %+v %v", g, ok)
	}
	if g := get(j.SetGuidance(ctx, guidance("sess-1", "next")))(t); g.Version != 2 {
		t.Errorf("version after reopening is %d, want 2", g.Version)
	}
	if rows := get(j.Interactions(ctx, "sess-1", 0))(t); len(rows) != 1 {
		t.Errorf("log after reopening: %+v", rows)
	}
}
