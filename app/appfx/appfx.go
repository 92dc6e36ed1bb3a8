// Package appfx wires Librarian with fx: one module per port, each picking
// its adapter from config.Settings in a plain switch before fx.New runs, and a
// module for the MCP server that registers the configured tool sets. fx
// lives here and in cmd, nowhere else.
package appfx

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"

	"github.com/librarian/librarian/adapters/fileimages"
	"github.com/librarian/librarian/adapters/frontmatterindex"
	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/adapters/httpretrieval"
	"github.com/librarian/librarian/adapters/jsonindex"
	"github.com/librarian/librarian/adapters/mcpresources"
	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/adapters/sqlitesectionindex"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/config"
	"github.com/librarian/librarian/app/engine"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/app/localindex"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/app/tscompat"
	"github.com/librarian/librarian/ports/docindex"
	"github.com/librarian/librarian/ports/imagestore"
	"github.com/librarian/librarian/ports/markdown"
	"github.com/librarian/librarian/ports/retrieval"
	"github.com/librarian/librarian/ports/sectionindex"
)

// Version is the server's version, set at build time with -ldflags.
var Version = "0.1.0"

// Module is the whole program: settings, one adapter per port, the use
// cases and the MCP server. The library's modules are left out when no
// served tool set reads it and its root is missing (an engine-only server).
func Module(s config.Settings, logger *slog.Logger) fx.Option {
	library := fx.Options(IndexModule(s), MarkdownModule(), ImagesModule(s), SectionIndexModule(s), fx.Provide(newLibrary),
		fx.Provide(browse.New, search.New, tscompat.New, newResourceWatcher))
	if !s.NeedsLibrary() && EngineChoice(s) != config.EngineLocal && CheckRoot(s) != nil {
		library = fx.Options()
	}
	return fx.Options(
		fx.Supply(s, logger),
		library,
		fx.Provide(newIndexFiles),
		EngineModule(s),
		MCPModule(),
		HTTPModule(),
	)
}

// Convention resolves "auto": json when the doc index exists under the
// root, else frontmatter.
func Convention(s config.Settings) string {
	if s.Convention != "auto" {
		return s.Convention
	}
	if _, err := os.Stat(filepath.Join(s.Root, filepath.FromSlash(s.DocIndex))); err == nil {
		return "json"
	}
	return "frontmatter"
}

// CheckRoot turns a missing or unreadable library root into a start-up
// error naming the path as given and as resolved, and the setting it came
// from (or how to set it).
func CheckRoot(s config.Settings) error {
	where := fmt.Sprintf("%q", s.Root)
	if abs, err := filepath.Abs(s.Root); err == nil && abs != s.Root {
		where += fmt.Sprintf(" (%s)", abs)
	}
	source := s.Source("root")
	info, err := os.Stat(s.Root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("library root %s does not exist (%s)", where, source)
	case err != nil:
		return fmt.Errorf("library root %s: %v (%s)", where, err, source)
	case !info.IsDir():
		return fmt.Errorf("library root %s is not a directory (%s)", where, source)
	}
	return nil
}

// IndexModule provides the index source of the configured convention, or
// the section index itself when the library is served from it alone.
func IndexModule(s config.Settings) fx.Option {
	var ctor any
	switch {
	case FromIndexOnly(s):
		ctor = func(ix sectionindex.Index) *library.IndexSource { return library.NewIndexSource(ix) }
	case Convention(s) == "json":
		ctor = func(s config.Settings) (*jsonindex.Index, error) {
			if err := CheckRoot(s); err != nil {
				return nil, err
			}
			return jsonindex.New(s.Root, s.DocIndex, jsonindex.AllowHardLinks(s.AllowHardLinks))
		}
	default:
		ctor = func(s config.Settings, logger *slog.Logger, lc fx.Lifecycle) (*frontmatterindex.Index, error) {
			if err := CheckRoot(s); err != nil {
				return nil, err
			}
			opts := []frontmatterindex.Option{frontmatterindex.AllowHardLinks(s.AllowHardLinks)}
			if file := metaCacheFile(s); file != "" {
				opts = append(opts, frontmatterindex.MetaCache(file, logger))
			}
			ix, err := frontmatterindex.New(s.Root, opts...)
			if err == nil {
				closeOnStop(lc, ix.Close)
			}
			return ix, err
		}
	}
	return fx.Module("index", fx.Provide(fx.Annotate(ctor, fx.As(new(docindex.Source)))))
}

// closeOnStop closes a resource when the fx app stops: the section index
// waits there for its text snapshot, the frontmatter source for its
// metadata cache, so a command that ends does not leave them half written.
// newResourceWatcher is the process's watcher of the library for the
// resource notifications of every MCP session, running while the app runs.
func newResourceWatcher(lc fx.Lifecycle, b *browse.Browser, logger *slog.Logger) *mcpresources.ResourceWatcher {
	w := mcpresources.NewResourceWatcher(b, 0, logger)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() { defer close(done); w.Run(ctx) }()
			return nil
		},
		OnStop: func(context.Context) error { cancel(); <-done; return nil },
	})
	return w
}

func closeOnStop(lc fx.Lifecycle, close func() error) {
	lc.Append(fx.Hook{OnStop: func(context.Context) error { return close() }})
}

// metaCacheFile is where the frontmatter convention keeps its metadata
// cache: beside the library's SQLite section index (one per real root path,
// never inside the library); "" when the index is off, so that
// LIBRARY_INDEX=off writes nothing anywhere.
func metaCacheFile(s config.Settings) string {
	if s.Index == "off" {
		return ""
	}
	file, err := sqlitesectionindex.FileFor(s.IndexDir, s.Root)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(file, ".sqlite") + ".frontmatter"
}

// newIndexFiles is the use case of the local index files in
// LIBRARY_INDEX_DIR (librarian index --list, --prune): needs no library.
func newIndexFiles(s config.Settings) (*localindex.Files, error) {
	store, err := sqlitesectionindex.NewFiles(s.IndexDir)
	if err != nil {
		return nil, err
	}
	return localindex.New(store, nil), nil
}

// MarkdownModule provides the goldmark parser.
func MarkdownModule() fx.Option {
	return fx.Module("markdown", fx.Provide(fx.Annotate(goldmarkmarkdown.New, fx.As(new(markdown.Parser)))))
}

// ImagesModule provides the image store over seed 000's image index; a
// library served from its index alone has none (the section index holds
// no images), so image stubs become placeholders.
func ImagesModule(s config.Settings) fx.Option {
	if FromIndexOnly(s) {
		return fx.Module("images", fx.Provide(func() imagestore.Store { return nil }))
	}
	return fx.Module("images", fx.Provide(fx.Annotate(func(s config.Settings) (*fileimages.Store, error) {
		return fileimages.New(s.Root, s.ImageIndex, fileimages.AllowHardLinks(s.AllowHardLinks))
	}, fx.As(new(imagestore.Store)))))
}

// SectionIndexModule provides the section index LIBRARY_INDEX asks for:
// "on", a SQLite file per library in LIBRARY_INDEX_DIR (a file that cannot
// serve is logged and bypassed with memory: never a start-up failure);
// "off", the same adapter on an in-memory database.
func SectionIndexModule(s config.Settings) fx.Option {
	var ctor any
	switch {
	case s.PostgresIndex():
		ctor = openPostgresIndex
	case s.Index == "off":
		ctor = func() (*sqlitesectionindex.Index, error) { return sqlitesectionindex.OpenMemory() }
	default:
		ctor = func(s config.Settings, logger *slog.Logger, lc fx.Lifecycle) (*sqlitesectionindex.Index, error) {
			if err := CheckRoot(s); err != nil {
				return nil, err
			}
			ix, err := sqlitesectionindex.Open(context.Background(), s.Root, s.IndexDir, logger)
			if err == nil {
				closeOnStop(lc, ix.Close)
			}
			return ix, err
		}
	}
	return fx.Module("sectionindex", fx.Provide(fx.Annotate(ctor, fx.As(new(sectionindex.Index)))))
}

func newLibrary(s config.Settings, logger *slog.Logger, src docindex.Source, p markdown.Parser, img imagestore.Store, ix sectionindex.Index) *library.Library {
	l := library.New(src, p, img, library.Config{MaxImageBytes: s.MaxImageBytes, MaxAnswerTokens: s.MaxAnswerTokens,
		MaxDocBytes: s.MaxDocBytes, MaxDocBytesFrom: s.From["max-doc-bytes"], Commands: s.Commands,
		SearchTimeout: s.SearchTimeout})
	l.UseIndex(ix, logger)
	return l
}

// EngineModule provides the engine tools over the engine the settings
// choose (EngineChoice): the local engine over the library, or seed 004's
// remote engine. It is built only when something needs it (the engine tool
// set, or eval), and building it contacts nothing.
func EngineModule(s config.Settings) fx.Option {
	var port fx.Option
	switch EngineChoice(s) {
	case config.EngineLocal:
		port = fx.Provide(fx.Annotate(newLocalEngine, fx.As(new(retrieval.Engine))))
	default:
		port = fx.Provide(fx.Annotate(func(s config.Settings, logger *slog.Logger) (*httpretrieval.Engine, error) {
			return httpretrieval.New(httpretrieval.Options{URL: s.EngineURL, Logger: logger})
		}, fx.As(new(retrieval.Engine))))
	}
	return fx.Module("engine",
		port,
		fx.Provide(NewEngineAPI),
		fx.Provide(func(s config.Settings, port retrieval.Engine) *engine.Engine {
			return engine.New(port, engine.Config{URL: s.EngineURL, Project: s.EngineProject, Session: s.Session})
		}),
	)
}

// MCPModule provides the MCP server with the configured tool sets.
func MCPModule() fx.Option {
	return fx.Module("mcp", fx.Provide(newMCPServer))
}

type serverDeps struct {
	fx.In
	Settings config.Settings
	Logger   *slog.Logger
	Library  *library.Library              `optional:"true"`
	Browse   *browse.Browser               `optional:"true"`
	Search   *search.Searcher              `optional:"true"`
	TS       *tscompat.Tools               `optional:"true"`
	Watcher  *mcpresources.ResourceWatcher `optional:"true"`
	Engine   *engine.Engine
	Port     retrieval.Engine
}

// newMCPServer is the stdio server: one session, the process's engine state.
func newMCPServer(d serverDeps) *mcp.Server { return buildServer(d, d.Engine, mcpserver.Ceilings{}) }

// buildServer registers the configured tool sets, the engine tools over
// engine (whose session id and discuss threads are the session's state),
// the library tools' answers bounded by ceil.
func buildServer(d serverDeps, eng *engine.Engine, ceil mcpserver.Ceilings) *mcp.Server {
	s := d.Settings
	opts := mcpserver.Options{Name: "librarian", Version: Version, Logger: d.Logger,
		Instructions: mcpserver.InstructionsFor(s.HasTools("library"), s.HasTools("librarian-ts"), s.HasTools("engine"),
			EngineChoice(s) == config.EngineLocal)}
	if d.Library != nil {
		opts.Serving = d.Library.Serving
	}
	if d.Browse != nil {
		opts.Complete = mcpresources.LibraryCompletion(d.Browse)
		if d.Watcher != nil {
			opts.Subscribe, opts.Unsubscribe = d.Watcher.Subscriptions()
		}
	}
	srv := mcpserver.NewServer(opts)
	if d.Browse != nil {
		// Every doc is a resource, whichever tool set is served.
		mcpresources.AddLibraryResources(srv, d.Browse)
		if d.Watcher != nil {
			d.Watcher.Watch(srv)
		}
	}
	if d.Settings.HasTools("library") {
		mcpserver.AddLibraryTools(srv, d.Browse, d.Search, d.Logger, ceil)
	}
	if d.Settings.HasTools("librarian-ts") {
		mcpserver.AddTSTools(srv, d.TS, d.Logger)
	}
	if d.Settings.HasTools("engine") {
		mcpserver.AddEngineTools(srv, eng)
	}
	return srv
}
