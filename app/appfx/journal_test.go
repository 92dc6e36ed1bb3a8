package appfx_test

import (
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/librarian/librarian/adapters/engineapi"
	"github.com/librarian/librarian/app/appfx"
	"github.com/librarian/librarian/app/config"
	"github.com/librarian/librarian/ports/journal"
)

// TestJournalBoundsInGraph: with LIBRARY_INDEX=off the journal lives in
// memory under the same settings' bounds, and status names the index by
// kind and library.
func TestJournalBoundsInGraph(t *testing.T) {
	s := config.Settings{Root: filepath.Join("..", "..", "library"), Convention: "auto", DocIndex: "index.json", ImageIndex: "images/index.json",
		MaxImageBytes: 5 << 20, Index: "off", Tools: []string{"engine"}, Journal: config.JournalSettings{Quota: 2}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	var api *engineapi.Handler
	fxApp := fx.New(appfx.Module(s, slog.New(slog.DiscardHandler)), fx.Populate(&api), fx.NopLogger)
	if err := fxApp.Err(); err != nil {
		t.Fatal(err)
	}
	post := func(body string) (int, string) {
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, httptest.NewRequest("POST", "/api/library/tell", strings.NewReader(body)))
		return rec.Code, rec.Body.String()
	}
	for i := range 2 {
		if code, body := post(`{"subject": "s", "info": "i", "session": "s"}`); code != 200 {
			t.Fatalf("tell %d of the quota's 2: %d %s", i+1, code, body)
		}
	}
	if code, body := post(`{"subject": "s", "info": "i", "session": "s"}`); code != 403 || !strings.Contains(body, "journal quota reached: this token already holds 2 told and gap records") {
		t.Errorf("a tell past the quota: %d %s, want 403 naming the quota", code, body)
	}
	rec := httptest.NewRecorder()
	api.ServeHTTP(rec, httptest.NewRequest("GET", "/api/library/status", nil))
	if !strings.Contains(rec.Body.String(), `"where":"in-memory index of library 'library'"`) || !strings.Contains(rec.Body.String(), `"told":{"count":2}`) {
		t.Errorf("status: %s", rec.Body)
	}
}

func TestJournalLimits(t *testing.T) {
	got := appfx.JournalLimits(config.DefaultJournalSettings())
	want := journal.Limits{OwnerRecords: 1000, Records: 5000, SessionRows: 1000, OwnerRows: 20000, MaxAge: 30 * 24 * time.Hour}
	if got != want {
		t.Errorf("default limits %+v, want %+v", got, want)
	}
	if name := appfx.IndexName("sqlite", "/home/me/work/docs/"); name != "sqlite index of library 'docs'" {
		t.Errorf("index name %q", name)
	}
}
