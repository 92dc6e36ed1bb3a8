package appfx

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/librarian/librarian/adapters/engineapi"
	"github.com/librarian/librarian/adapters/localretrieval"
	"github.com/librarian/librarian/adapters/memjournal"
	"github.com/librarian/librarian/adapters/postgresjournal"
	"github.com/librarian/librarian/adapters/sqlitejournal"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/app/config"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/ports/docindex"
	"github.com/librarian/librarian/ports/journal"
	"github.com/librarian/librarian/ports/retrieval"
)

// EngineChoice is the engine the settings pick (config.Settings.EngineChoice),
// with the library's root checked on disk.
func EngineChoice(s config.Settings) string {
	return s.EngineChoice(CheckRoot(s) == nil)
}

// indexRefreshEvery is how often the local engine starts a refresh of the
// section index in the background while it is being asked.
const indexRefreshEvery = 2 * time.Second

// newLocalEngine builds the local engine over the library's section index
// (one in memory when the library has none) and a journal kept in the
// index's own SQLite file when it has one, in its PostgreSQL database when
// it is one, else in memory.
func newLocalEngine(s config.Settings, logger *slog.Logger, lib *library.Library, src docindex.Source) (*localretrieval.Engine, error) {
	ix := lib.Index()
	if ix == nil {
		mem, err := sqlitesectionindex.OpenMemory()
		if err != nil {
			return nil, err
		}
		lib.UseIndex(mem, logger)
		ix = mem
	}
	limits := JournalLimits(s.Journal)
	var j journal.Journal = memjournal.New(limits)
	kind := "in-memory"
	if s.PostgresIndex() {
		kind = "postgres"
		// The team's servers share one journal in the index's database. A
		// role that may not create or write its tables (a read-only
		// server) keeps the journal in memory for the run.
		pj, err := postgresjournal.Open(context.Background(), s.Index, postgresjournal.Options{Logger: logger, Limits: limits})
		writable := false
		if err == nil {
			if writable, err = pj.Writable(context.Background()); err == nil && !writable {
				err = errors.New("this role may not write the journal tables")
			}
		}
		switch {
		case err != nil:
			if pj != nil {
				pj.Close()
			}
			logger.Warn("journal: using memory for this run", "reason", err.Error())
		default:
			j = pj
		}
	} else if f, ok := ix.(interface{ File() string }); ok && f.File() != "" {
		kind = "sqlite"
		sj, err := sqlitejournal.Open(f.File(), limits)
		if err != nil {
			logger.Warn("journal: using memory for this run", "file", f.File(), "reason", err.Error())
		} else {
			j = sj
		}
	}
	return localretrieval.New(localretrieval.Options{Index: ix, Journal: j, Library: src, Refresh: lib.IndexFreshener(indexRefreshEvery),
		IndexName: IndexName(kind, s.Root), Logger: logger})
}

// JournalLimits are the journal's bounds as the settings give them.
func JournalLimits(j config.JournalSettings) journal.Limits {
	return journal.Limits{OwnerRecords: j.Quota, Records: j.MaxRecords, SessionRows: j.LogPerSession, OwnerRows: j.LogPerToken,
		MaxAge: time.Duration(j.LogDays) * 24 * time.Hour}
}

// IndexName names a section index for answers by its kind and its
// library's folder name ("sqlite index of library 'docs'"): where its file
// or its database is stays out of every answer.
func IndexName(kind, root string) string {
	name := filepath.Base(filepath.Clean(root))
	if abs, err := filepath.Abs(root); err == nil {
		name = filepath.Base(abs)
	}
	return fmt.Sprintf("%s index of library '%s'", kind, name)
}

// NewEngineAPI is seed 004's engine API (every endpoint under
// /api/library/) over the configured engine, local or remote, for the HTTP
// listener to mount behind its authentication:
// mux.Handle(engineapi.Prefix, handler).
func NewEngineAPI(port retrieval.Engine, logger *slog.Logger) *engineapi.Handler {
	return engineapi.New(port, engineapi.Options{Logger: logger})
}
