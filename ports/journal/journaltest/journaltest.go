// Package journaltest is the journal port's contract suite: every adapter
// (memory, SQLite, PostgreSQL) runs Run and so keeps the same promises.
package journaltest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/journal"
)

// Factory builds the journals under test.
type Factory struct {
	// New returns an empty journal bounded by l; the suite closes it.
	New func(t *testing.T, l journal.Limits) journal.Journal
	// Reopen closes j and opens the same store again, for adapters that
	// keep what they hold across a restart; nil for one that lives in
	// memory only.
	Reopen func(t *testing.T, j journal.Journal) journal.Journal
}

// Run checks the journal port's contract.
func Run(t *testing.T, f Factory) {
	bounded := func(t *testing.T, l journal.Limits) journal.Journal {
		j := f.New(t, l)
		t.Cleanup(func() { j.Close() })
		return j
	}
	open := func(t *testing.T) journal.Journal { return bounded(t, journal.Limits{}) }
	t.Run("Learn", func(t *testing.T) { testLearn(t, open(t)) })
	t.Run("KnowledgeOrderAndLimit", func(t *testing.T) { testKnowledge(t, open(t)) })
	t.Run("Count", func(t *testing.T) { testCount(t, open(t)) })
	t.Run("Guidance", func(t *testing.T) { testGuidance(t, open(t)) })
	t.Run("GuidanceExpires", func(t *testing.T) { testGuidanceExpires(t, open(t)) })
	t.Run("Log", func(t *testing.T) { testLog(t, open(t)) })
	t.Run("Claim", func(t *testing.T) { testClaim(t, open(t)) })
	t.Run("Concurrent", func(t *testing.T) { testConcurrent(t, open(t)) })
	t.Run("OwnerQuota", func(t *testing.T) { testOwnerQuota(t, bounded(t, journal.Limits{OwnerRecords: 3})) })
	t.Run("RecordsCap", func(t *testing.T) { testRecordsCap(t, bounded(t, journal.Limits{Records: 4})) })
	t.Run("SessionRows", func(t *testing.T) { testSessionRows(t, bounded(t, journal.Limits{SessionRows: 3})) })
	t.Run("OwnerRows", func(t *testing.T) { testOwnerRows(t, bounded(t, journal.Limits{OwnerRows: 4})) })
	t.Run("MaxAge", func(t *testing.T) { testMaxAge(t, bounded(t, journal.Limits{MaxAge: 30 * 24 * time.Hour})) })
	t.Run("Bounded", func(t *testing.T) {
		testBounded(t, bounded(t, journal.Limits{OwnerRecords: 50, Records: 200, SessionRows: 5, OwnerRows: 40, MaxAge: time.Hour}))
	})
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
	a := get(j.Learn(ctx, knowledge.Knowledge{Kind: knowledge.KnowledgeTold, Subject: "session store", Text: "moved to redis in v2", Tags: tags, Owner: "alice"}))(t)
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
	if got.ID != a.ID || got.Kind != knowledge.KnowledgeTold || got.Subject != "session store" || got.Text != "moved to redis in v2" || got.Tags != tags || got.Owner != "alice" || !got.At.Equal(a.At) {
		t.Errorf("stored %+v, got back %+v", a, got)
	}
	gaps := get(j.Knowledge(ctx, knowledge.KnowledgeGap, 0))(t)
	if len(gaps) != 1 || gaps[0].Subject != "billing" || gaps[0].Tags.Session != "s2" || gaps[0].Tags.Caller != "" || gaps[0].Owner != "" {
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
	return knowledge.SessionGuidance{Session: session, Owner: "alice", Caller: "lead", Text: text, Exclude: exclude, Expect: "backend/auth.md",
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
	if !ok || cur.Text != "prefer v3" || cur.Version != 2 || len(cur.Exclude) != 0 || cur.Expect != "backend/auth.md" || cur.Caller != "lead" || cur.Owner != "alice" ||
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
	first := knowledge.LoggedInteraction{At: epoch, Session: "sess-1", Owner: "alice", Caller: "worker-2", Kind: "locate", Query: "auth middleware",
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
	errs := make(chan error, 80)
	var claimed sync.Map
	for i := range 20 {
		wg.Add(4)
		go func() {
			defer wg.Done()
			ok, err := j.Claim(ctx, "contested", fmt.Sprint("owner-", i), epoch)
			if ok {
				claimed.Store(i, true)
			}
			errs <- err
		}()
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
	holders := 0
	claimed.Range(func(any, any) bool { holders++; return true })
	if holders != 1 {
		t.Errorf("20 owners claiming one new session at once: %d got it, want exactly 1", holders)
	}
}

func testDurable(t *testing.T, f Factory) {
	j := f.New(t, journal.Limits{})
	k := get(j.Learn(ctx, knowledge.Knowledge{Kind: knowledge.KnowledgeTold, Subject: "kept", Text: "across restarts", Tags: tags, Owner: "alice"}))(t)
	if ok := get(j.Claim(ctx, "sess-1", "alice", epoch))(t); !ok {
		t.Fatal("a new session could not be claimed")
	}
	get(j.SetGuidance(ctx, guidance("sess-1", "kept too")))(t)
	if err := j.Record(ctx, knowledge.LoggedInteraction{At: epoch, Session: "sess-1", Kind: "tell", Query: "kept"}); err != nil {
		t.Fatal(err)
	}
	j = f.Reopen(t, j)
	t.Cleanup(func() { j.Close() })
	told := get(j.Knowledge(ctx, knowledge.KnowledgeTold, 0))(t)
	if len(told) != 1 || told[0].ID != k.ID || told[0].Text != "across restarts" || told[0].Owner != "alice" {
		t.Errorf("after reopening: %+v", told)
	}
	if ok := get(j.Claim(ctx, "sess-1", "bob", epoch))(t); ok {
		t.Errorf("after reopening, another owner may claim alice's session")
	}
	if k2 := get(j.Learn(ctx, knowledge.Knowledge{Kind: knowledge.KnowledgeGap, Subject: "next", Text: "t", Tags: tags}))(t); k2.ID <= k.ID {
		t.Errorf("after reopening, a new ID %d is not above %d", k2.ID, k.ID)
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

func testCount(t *testing.T, j journal.Journal) {
	if n := get(j.Count(ctx, knowledge.KnowledgeTold))(t); n != 0 {
		t.Errorf("an empty journal counts %d told records", n)
	}
	for i := range 5 {
		kind := knowledge.KnowledgeTold
		if i%2 == 1 {
			kind = knowledge.KnowledgeGap
		}
		get(j.Learn(ctx, knowledge.Knowledge{Kind: kind, Subject: fmt.Sprint("s", i), Text: "t", Tags: tags, Owner: fmt.Sprint("o", i%3)}))(t)
	}
	if told, gaps := get(j.Count(ctx, knowledge.KnowledgeTold))(t), get(j.Count(ctx, knowledge.KnowledgeGap))(t); told != 3 || gaps != 2 {
		t.Errorf("counted %d told and %d gaps, want 3 and 2", told, gaps)
	}
}

func testClaim(t *testing.T, j journal.Journal) {
	claim := func(session, owner string) bool {
		t.Helper()
		return get(j.Claim(ctx, session, owner, epoch))(t)
	}
	if !claim("s1", "alice") {
		t.Fatal("alice cannot claim a new session")
	}
	if !claim("s1", "alice") {
		t.Error("alice cannot claim her own session again")
	}
	if claim("s1", "bob") {
		t.Error("bob may claim alice's session")
	}
	if claim("s1", "") {
		t.Error("the owner \"\" may claim alice's session")
	}
	if !claim("s2", "") || claim("s2", "alice") {
		t.Error("a session of the owner \"\" is not its own")
	}
	if !claim("s3", "bob") {
		t.Error("bob cannot claim a session of his own")
	}
}

func testOwnerQuota(t *testing.T, j journal.Journal) {
	learn := func(owner, kind string, i int) error {
		_, err := j.Learn(ctx, knowledge.Knowledge{Kind: kind, Subject: fmt.Sprint("s", i), Text: "t", Tags: tags, Owner: owner})
		return err
	}
	for i, kind := range []string{knowledge.KnowledgeTold, knowledge.KnowledgeGap, knowledge.KnowledgeTold} {
		if err := learn("alice", kind, i); err != nil {
			t.Fatalf("record %d of 3: %v", i+1, err)
		}
	}
	err := learn("alice", knowledge.KnowledgeTold, 3)
	if !errors.Is(err, knowledge.ErrQuota) {
		t.Fatalf("a fourth record with a quota of 3: %v, want ErrQuota", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "3") {
		t.Errorf("the refusal does not name the limit: %s", msg)
	}
	for _, leak := range []string{"postgres", "sqlite", "/", "host", "user="} {
		if strings.Contains(msg, leak) {
			t.Errorf("the refusal shows %q of where the journal lives: %s", leak, msg)
		}
	}
	if n := get(j.Count(ctx, knowledge.KnowledgeTold))(t); n != 2 {
		t.Errorf("%d told records after the refusal, want 2", n)
	}
	if err := learn("alice", knowledge.KnowledgeGap, 4); !errors.Is(err, knowledge.ErrQuota) {
		t.Errorf("a gap past the quota: %v, want ErrQuota (gaps count too)", err)
	}
	if err := learn("bob", knowledge.KnowledgeTold, 5); err != nil {
		t.Errorf("bob's first record: %v (the quota is per owner)", err)
	}
	if err := learn("", knowledge.KnowledgeTold, 6); err != nil {
		t.Errorf("the owner \"\"'s first record: %v", err)
	}
}

func testRecordsCap(t *testing.T, j journal.Journal) {
	var ids []int64
	for i := range 7 {
		kind := knowledge.KnowledgeTold
		if i%2 == 1 {
			kind = knowledge.KnowledgeGap
		}
		k := get(j.Learn(ctx, knowledge.Knowledge{Kind: kind, Subject: fmt.Sprint("s", i), Text: "t", Tags: tags, Owner: fmt.Sprint("o", i)}))(t)
		if len(ids) > 0 && k.ID <= ids[len(ids)-1] {
			t.Errorf("ID %d after %d: IDs must keep increasing past the cap", k.ID, ids[len(ids)-1])
		}
		ids = append(ids, k.ID)
	}
	told, gaps := get(j.Count(ctx, knowledge.KnowledgeTold))(t), get(j.Count(ctx, knowledge.KnowledgeGap))(t)
	if told+gaps != 4 {
		t.Errorf("%d told and %d gaps kept, want 4 in all", told, gaps)
	}
	var kept []string
	for _, kind := range []string{knowledge.KnowledgeTold, knowledge.KnowledgeGap} {
		for _, k := range get(j.Knowledge(ctx, kind, 0))(t) {
			kept = append(kept, k.Subject)
		}
	}
	slices.Sort(kept)
	if want := []string{"s3", "s4", "s5", "s6"}; !reflect.DeepEqual(kept, want) {
		t.Errorf("kept %v, want the newest four %v", kept, want)
	}
}

// logRow is a row of session by owner, n seconds after epoch.
func logRow(session, owner string, n int) knowledge.LoggedInteraction {
	return knowledge.LoggedInteraction{At: epoch.Add(time.Duration(n) * time.Second), Session: session, Owner: owner, Kind: "ask", Query: fmt.Sprint("q", n)}
}

func record(t *testing.T, j journal.Journal, rows ...knowledge.LoggedInteraction) {
	t.Helper()
	for _, r := range rows {
		if err := j.Record(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
}

func queries(t *testing.T, j journal.Journal, session string) []string {
	t.Helper()
	var out []string
	for _, r := range get(j.Interactions(ctx, session, 0))(t) {
		out = append(out, r.Query)
	}
	return out
}

func testSessionRows(t *testing.T, j journal.Journal) {
	for i := range 5 {
		record(t, j, logRow("a", "alice", i))
	}
	record(t, j, logRow("b", "alice", 10), logRow("b", "alice", 11))
	if got, want := queries(t, j, "a"), []string{"q2", "q3", "q4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("session a keeps %v, want its last three %v", got, want)
	}
	if got := queries(t, j, "b"); len(got) != 2 {
		t.Errorf("session b keeps %v, want both its rows", got)
	}
}

func testOwnerRows(t *testing.T, j journal.Journal) {
	record(t, j, logRow("a1", "alice", 0), logRow("a1", "alice", 1))
	for i := 2; i < 8; i++ {
		record(t, j, logRow(fmt.Sprint("b", i%2), "bob", i))
	}
	if got, want := append(queries(t, j, "b0"), queries(t, j, "b1")...), []string{"q4", "q6", "q5", "q7"}; !reflect.DeepEqual(got, want) {
		t.Errorf("bob's sessions keep %v, want his newest four %v", got, want)
	}
	if got := queries(t, j, "a1"); len(got) != 2 {
		t.Errorf("alice's session keeps %v, want both her rows (the bound is per owner)", got)
	}
}

func testMaxAge(t *testing.T, j journal.Journal) {
	day := 24 * time.Hour
	at := func(d time.Duration) time.Time { return epoch.Add(d) }
	claim := func(session, owner string, when time.Time) bool {
		t.Helper()
		return get(j.Claim(ctx, session, owner, when))(t)
	}
	claim("old", "alice", epoch)
	record(t, j, knowledge.LoggedInteraction{At: epoch, Session: "old", Owner: "alice", Kind: "ask", Query: "old"})
	old := guidance("old", "old guidance")
	old.ExpiresAt = at(100 * day)
	get(j.SetGuidance(ctx, old))(t)
	claim("empty", "alice", epoch) // claimed, never used
	claim("kept", "alice", at(29*day))
	record(t, j, knowledge.LoggedInteraction{At: at(29 * day), Session: "kept", Owner: "alice", Kind: "ask", Query: "kept"})
	claim("new", "bob", at(31*day))
	record(t, j, knowledge.LoggedInteraction{At: at(31 * day), Session: "new", Owner: "bob", Kind: "ask", Query: "new"})
	if got := queries(t, j, "old"); len(got) != 0 {
		t.Errorf("a row 31 days old is kept: %v", got)
	}
	if got := queries(t, j, "kept"); len(got) != 1 {
		t.Errorf("a row 2 days old is dropped: %v", got)
	}
	if _, ok := current(j.CurrentGuidance(ctx, "old", at(31*day)))(t); ok {
		t.Errorf("the guidance of a session unused for 31 days is kept")
	}
	if !claim("old", "bob", at(31*day)) {
		t.Errorf("a session unused for 31 days is still alice's")
	}
	if !claim("empty", "bob", at(31*day)) {
		t.Errorf("a session claimed and never used is still alice's")
	}
	if claim("kept", "bob", at(31*day)) {
		t.Errorf("bob may claim alice's session used 2 days ago")
	}
}

// testBounded: many callers writing much keep the journal within its limits.
func testBounded(t *testing.T, j journal.Journal) {
	refused := 0
	for i := range 300 {
		_, err := j.Learn(ctx, knowledge.Knowledge{Kind: knowledge.KnowledgeTold, Subject: fmt.Sprint("s", i), Text: "t", Tags: tags, Owner: fmt.Sprint("o", i%3)})
		switch {
		case errors.Is(err, knowledge.ErrQuota):
			refused++
		case err != nil:
			t.Fatal(err)
		}
		session := fmt.Sprint("sess-", i%30)
		get(j.Claim(ctx, session, fmt.Sprint("o", i%3), epoch.Add(time.Duration(i)*time.Second)))(t)
		record(t, j, logRow(session, fmt.Sprint("o", i%3), i))
	}
	if n := get(j.Count(ctx, knowledge.KnowledgeTold))(t); n != 150 {
		t.Errorf("%d told records kept, want 150 (3 owners with a quota of 50)", n)
	}
	if refused != 300-150 {
		t.Errorf("%d tells refused, want 150 (3 owners with a quota of 50)", refused)
	}
	perOwner := map[string]int{}
	for s := range 30 {
		rows := get(j.Interactions(ctx, fmt.Sprint("sess-", s), 0))(t)
		if len(rows) > 5 {
			t.Errorf("session %d keeps %d rows, over 5", s, len(rows))
		}
		for _, r := range rows {
			perOwner[r.Owner]++
		}
	}
	for owner, n := range perOwner {
		if n > 40 {
			t.Errorf("owner %s keeps %d rows, over 40", owner, n)
		}
	}
}
