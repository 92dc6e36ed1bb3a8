package localretrieval_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/adapters/localretrieval"
	"github.com/librarian/librarian/adapters/memjournal"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/journal"
)

// readCounter is a journal that notes every Knowledge call's limit.
type readCounter struct {
	journal.Journal
	mu     sync.Mutex
	limits []int
}

func (r *readCounter) Knowledge(ctx context.Context, kind string, limit int) ([]knowledge.Knowledge, error) {
	r.mu.Lock()
	r.limits = append(r.limits, limit)
	r.mu.Unlock()
	return r.Journal.Knowledge(ctx, kind, limit)
}

// engineOver is the local engine over the bundled library with journal j.
func engineOver(t *testing.T, j journal.Journal, o localretrieval.Options) *localretrieval.Engine {
	t.Helper()
	ix, err := sqlitesectionindex.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	src, err := jsonindex.New(bundled(t), "index.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	indexLibrary(t, src, ix)
	o.Index, o.Journal, o.Library = ix, j, src
	eng, err := localretrieval.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// TestStatusCountsInTheJournal: status counts told records and gaps where
// they are stored and reads only the ten newest gaps, however many there
// are (it used to read every record twice).
func TestStatusCountsInTheJournal(t *testing.T) {
	j := &readCounter{Journal: memjournal.New(journal.Limits{})}
	eng := engineOver(t, j, localretrieval.Options{IndexName: "sqlite index of library 'library'"})
	for i := range 30 {
		if _, err := eng.Gap(ctx, knowledge.Gap{Subject: "billing", Missing: "invoices", Tags: tags}); err != nil {
			t.Fatal(i, err)
		}
		if _, err := eng.Tell(ctx, knowledge.Tell{Subject: "store", Info: "redis", Tags: tags}); err != nil {
			t.Fatal(i, err)
		}
	}
	st, err := eng.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"gaps":{"all":"librarian gaps","count":30,`, `"told":{"count":30}`, `"where":"sqlite index of library 'library'"`} {
		if !strings.Contains(string(st.JSON), want) {
			t.Errorf("status lacks %s: %s", want, st.JSON)
		}
	}
	for _, l := range j.limits {
		if l <= 0 || l > 10 {
			t.Errorf("status read the journal with limit %d: every record (want counts and the ten newest gaps)", l)
		}
	}
}

// TestOwners: what a token stores is recorded as its own; its sessions are
// out of another token's reach; shared knowledge is quoted as told by the
// token, with the caller it claimed as a label.
func TestOwners(t *testing.T) {
	eng := engineOver(t, memjournal.New(journal.Limits{}), localretrieval.Options{})
	alice, bob := knowledge.WithOwner(ctx, "alice"), knowledge.WithOwner(ctx, "bob")
	aliceTags := knowledge.EngineTags{Session: "alice-s", Caller: "lead"}
	if r, err := eng.Guide(alice, knowledge.Guidance{Text: "stay out of storage", Exclude: []string{"storage/"}, Tags: aliceTags}); err != nil || !r.Stored {
		t.Fatalf("alice guides: %+v %v", r, err)
	}
	foreign := knowledge.EngineTags{Session: "alice-s", Caller: "alice"}
	for name, call := range map[string]func() error{
		"log":   func() error { _, err := eng.Interactions(bob, "alice-s", 10); return err },
		"clear": func() error { _, err := eng.ClearGuide(bob, "alice-s"); return err },
		"guide": func() error { _, err := eng.Guide(bob, knowledge.Guidance{Text: "x", Tags: foreign}); return err },
		"locate": func() error {
			_, err := eng.Locate(bob, knowledge.LocateQuery{Query: "invalidate", Tags: foreign})
			return err
		},
		"tell": func() error {
			_, err := eng.Tell(bob, knowledge.Tell{Subject: "s", Info: "i", Tags: foreign})
			return err
		},
	} {
		if err := call(); !errors.Is(err, domain.ErrNotFound) || !strings.Contains(err.Error(), "no session 'alice-s' for this token") {
			t.Errorf("bob's %s in alice's session: %v, want not found", name, err)
		}
	}
	if _, err := eng.Tell(bob, knowledge.Tell{Subject: "session store", Info: "sessions moved to the quillwort cluster", Tags: knowledge.EngineTags{Session: "bob-s", Caller: "alice"}}); err != nil {
		t.Fatal(err)
	}
	a, err := eng.Ask(alice, knowledge.AskQuery{Query: "where is the session store?", Tags: aliceTags})
	if err != nil || !strings.Contains(a.Text, `(told by bob, caller label "alice", `) {
		t.Errorf("alice's ask: %v\n%s", err, a.Text)
	}
	rows, err := eng.Interactions(alice, "alice-s", 10)
	if err != nil || len(rows) != 2 || rows[0].Kind != "guide" || rows[1].Kind != "ask" {
		t.Errorf("alice's log: %+v %v", rows, err)
	}
	if _, err := eng.Gap(bob, knowledge.Gap{Subject: "billing", Missing: "invoices", Tags: knowledge.EngineTags{Session: "bob-s", Caller: "alice"}}); err != nil {
		t.Fatal(err)
	}
	if gaps, _ := eng.Gaps(ctx, 0); len(gaps) != 1 || gaps[0].Owner != "bob" || gaps[0].Tags.Caller != "alice" {
		t.Errorf("gaps: %+v", gaps)
	}
	st, _ := eng.Status(ctx)
	if !strings.Contains(string(st.JSON), `"owner":"bob"`) {
		t.Errorf("status's recent gaps do not name their token: %s", st.JSON)
	}
}

// TestRefreshFailureLeavesOutItsDetail: a refresh that fails on a file
// answers what failed; the file's absolute path goes to the log only.
func TestRefreshFailureLeavesOutItsDetail(t *testing.T) {
	var logs strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(p)
	}), nil))
	eng := engineOver(t, memjournal.New(journal.Limits{}), localretrieval.Options{Logger: logger,
		Refresh: func(context.Context) error { return errors.New("open /home/me/docs/secret.md: permission denied") }})
	_, err := eng.Locate(ctx, knowledge.LocateQuery{Query: "Validate", Tags: tags})
	if err == nil || strings.Contains(err.Error(), "/home/me") || !strings.Contains(err.Error(), "the index database failed (locate): refreshing the index from the library failed") {
		t.Errorf("locate with a failing refresh: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), "/home/me/docs/secret.md") {
		t.Errorf("the log lacks the detail: %s", logs.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
