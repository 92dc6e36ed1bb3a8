package config

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/librarian/librarian/domain"
)

// Settings is the whole program's configuration, read from the environment
// and the command line by LoadSettings. Plain data: app/appfx reads it to
// pick one adapter per port.
type Settings struct {
	Root      string // library root
	RootGiven bool   // Root came from the environment or a flag, not the default
	// RootSeed001 is set when Root came from seed 001's own settings
	// (LIBRARIAN_DOCS_ROOT, --docs-root): its users expect its tools.
	RootSeed001     bool
	Convention      string // "auto", "json" or "frontmatter"
	DocIndex        string // json convention: doc index, relative to Root
	ImageIndex      string // image index, relative to Root
	MaxImageBytes   int64
	MaxDocBytes     int64
	MaxAnswerTokens int
	// SearchTimeout bounds the scan of one search_documents call.
	SearchTimeout  time.Duration
	Tools          []string // tool sets: "library", "librarian-ts", "engine"
	ToolsDefaulted bool     // Tools were not given: Validate chose them

	// Index is LIBRARY_INDEX: "on" (a SQLite file per library in
	// IndexDir) or "off" (an in-memory index, no file); "" means "on"; or
	// a postgres:// URL: a PostgreSQL database a team shares (PostgresIndex).
	Index string
	// IndexDir is LIBRARY_INDEX_DIR: where index files live; "" means the
	// user's cache folder (os.UserCacheDir()/librarian).
	IndexDir string
	// LibraryName is LIBRARY_NAME: the library's name in a PostgreSQL
	// index, which holds one library per schema; "" means the root
	// folder's name.
	LibraryName string
	// IndexWait makes opening a PostgreSQL index retry with backoff while
	// the database is unreachable (serve sets it; commands fail at once).
	IndexWait bool

	EngineURL     string // LIBRARIAN_URL
	Engine        string // LIBRARIAN_ENGINE: "", "local" or "remote" (see EngineChoice)
	EngineProject string // LIBRARIAN_PROJECT
	Session       string // CLAUDE_CODE_SESSION_ID

	// AllowHardLinks (LIBRARY_ALLOW_HARDLINKS) serves regular files with
	// more than one hard link; by default they are refused, since another
	// of their names may lie outside the root.
	AllowHardLinks bool

	// Commands is how answers name the operations in hints: the MCP tools
	// (the zero value) or, for a command-line run, the commands.
	Commands domain.Commands

	// From names where each given setting came from, by SettingSpec.Key:
	// its flag ("--max-doc-bytes") or env var ("LIBRARY_MAX_DOC_BYTES").
	// A setting left at its default has no entry.
	From map[string]string

	HTTP HTTPSettings // serve --http (settings_http.go)

	Journal JournalSettings // the local engine's journal bounds (settings_journal.go)
}

// A SettingSpec is one setting, declared once: the flags and environment
// variables that set it, its default as help shows it, and Apply, its one
// rule, which checks a value and stores it. A flag beats the environment;
// among env vars the first one set wins. Flags and env vars pass the same
// Apply, so they accept and refuse the same values.
type SettingSpec struct {
	Key     string   // the setting's name in Settings.From: its first flag, or its env var
	Flags   []string // without dashes; none for an env-only setting
	Env     []string
	Value   string // the value's placeholder in help: DIR, N, FILE…
	Default string // as help shows it; "" for unset
	Help    string
	// Apply checks value and stores it in s; from is the flag (with its
	// dashes) or env var it came from.
	Apply func(s *Settings, value, from string) error
}

// Conventions and tool sets Librarian knows.
var (
	Conventions = []string{"auto", "json", "frontmatter"}
	ToolSets    = []string{"library", "librarian-ts", "engine"}
	IndexModes  = []string{"on", "off"}
)

// DefaultEngineURL is seed 004's default engine address.
const DefaultEngineURL = "http://127.0.0.1:8000"

// SettingSpecs are every setting of seeds 000, 001 and 004, in the order
// help lists them. A new setting is one entry here (and its field above);
// the HTTP server's are in settings_http.go.
var SettingSpecs = append([]SettingSpec{
	{Key: "root", Flags: []string{"root", "docs-root"}, Env: []string{"LIBRARY_ROOT", "LIBRARIAN_DOCS_ROOT"}, Value: "DIR", Default: "./library",
		Help: "library root",
		Apply: func(s *Settings, v, from string) error {
			if strings.TrimSpace(v) == "" {
				return errors.New("want a folder, got an empty value")
			}
			s.Root, s.RootGiven = v, true
			s.RootSeed001 = from == "LIBRARIAN_DOCS_ROOT" || from == "--docs-root" // seed 001's own settings
			return nil
		}},
	{Key: "convention", Flags: []string{"convention"}, Env: []string{"LIBRARY_CONVENTION"}, Value: "NAME", Default: "auto",
		Help: "library convention: auto, json or frontmatter",
		Apply: func(s *Settings, v, _ string) error {
			s.Convention = strings.TrimSpace(v)
			return checkConvention(s.Convention)
		}},
	{Key: "doc-index", Flags: []string{"doc-index"}, Env: []string{"LIBRARY_DOC_INDEX"}, Value: "FILE", Default: "index.json",
		Help:  "json convention: the doc index, relative to the root",
		Apply: func(s *Settings, v, _ string) error { s.DocIndex = v; return nonEmpty(v, "a file") }},
	{Key: "image-index", Flags: []string{"image-index"}, Env: []string{"LIBRARY_IMAGE_INDEX"}, Value: "FILE", Default: "images/index.json",
		Help:  "the image index, relative to the root",
		Apply: func(s *Settings, v, _ string) error { s.ImageIndex = v; return nonEmpty(v, "a file") }},
	{Key: "max-image-bytes", Flags: []string{"max-image-bytes"}, Env: []string{"LIBRARY_MAX_IMAGE_BYTES"}, Value: "N", Default: "5MB",
		Help: "larger images become placeholders; 0 makes every image one",
		Apply: func(s *Settings, v, _ string) (err error) {
			s.MaxImageBytes, err = ParseByteSize(v)
			return err
		}},
	{Key: "max-doc-bytes", Flags: []string{"max-doc-bytes"}, Env: []string{"LIBRARY_MAX_DOC_BYTES"}, Value: "N", Default: "16MB",
		Help: "larger document files are noted, not read",
		Apply: func(s *Settings, v, _ string) error {
			n, err := ParseByteSize(v)
			if err != nil || n == 0 {
				return fmt.Errorf("want a positive byte count such as 16MB, got %q", v)
			}
			s.MaxDocBytes = n
			return nil
		}},
	{Key: "max-answer-tokens", Flags: []string{"max-answer-tokens"}, Env: []string{"LIBRARY_MAX_ANSWER_TOKENS"}, Value: "N", Default: "20000",
		Help: "answer budget of get and list, 0 = none",
		Apply: func(s *Settings, v, _ string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 0 {
				return fmt.Errorf("want a non-negative integer, got %q", v)
			}
			s.MaxAnswerTokens = n
			return nil
		}},
	{Key: "search-timeout", Flags: []string{"search-timeout"}, Env: []string{"LIBRARY_SEARCH_TIMEOUT"}, Value: "DURATION", Default: "10s",
		Help: "a search scans for at most this long, then answers with what it searched",
		Apply: func(s *Settings, v, _ string) error {
			d, err := time.ParseDuration(strings.TrimSpace(v))
			if err != nil || d <= 0 {
				return fmt.Errorf("want a positive duration such as 10s or 1m, got %q", v)
			}
			s.SearchTimeout = d
			return nil
		}},
	{Key: "tools", Flags: []string{"tools"}, Env: []string{"LIBRARIAN_TOOLS"}, Value: "LIST", Default: "library",
		Help: "tool sets, comma-separated: library, librarian-ts, engine",
		Apply: func(s *Settings, v, _ string) error {
			s.Tools = SplitList(v)
			if len(s.Tools) == 0 {
				return fmt.Errorf("want one or more of %s, got %q", strings.Join(ToolSets, ", "), v)
			}
			return checkTools(s.Tools)
		}},
	{Key: "index", Flags: []string{"index"}, Env: []string{"LIBRARY_INDEX"}, Value: "on|off|postgres://…", Default: "on",
		Help: "the section index: on, a SQLite file per library; off, in memory for the run (no file); a postgres:// URL, a database a team shares",
		Apply: func(s *Settings, v, _ string) error {
			s.Index = indexSetting(v)
			return checkIndex(s.Index)
		}},
	{Key: "index-dir", Flags: []string{"index-dir"}, Env: []string{"LIBRARY_INDEX_DIR"}, Value: "DIR", Default: "the user cache folder's librarian/",
		Help:  "folder of the section index files",
		Apply: func(s *Settings, v, _ string) error { s.IndexDir = v; return nonEmpty(v, "a folder") }},
	{Key: "library-name", Flags: []string{"library-name"}, Env: []string{"LIBRARY_NAME"}, Value: "NAME", Default: "the root folder's name",
		Help: "the library's name in a PostgreSQL index (one library per schema): the same library in folders of other names needs the same name",
		Apply: func(s *Settings, v, _ string) error {
			s.LibraryName = strings.TrimSpace(v)
			return nonEmpty(v, "a name")
		}},
	{Key: "engine-url", Flags: []string{"engine-url"}, Env: []string{"LIBRARIAN_URL"}, Value: "URL",
		Help: "retrieval engine (serves the engine tools)",
		Apply: func(s *Settings, v, _ string) error {
			s.EngineURL = strings.TrimSpace(v)
			if s.EngineURL != "" && !strings.HasPrefix(s.EngineURL, "http://") && !strings.HasPrefix(s.EngineURL, "https://") {
				return fmt.Errorf("want an http:// or https:// URL, got %q", v)
			}
			return nil
		}},
	{Key: "engine", Flags: []string{"engine"}, Env: []string{"LIBRARIAN_ENGINE"}, Value: "local|remote",
		Default: "local with a library and no engine URL, else remote",
		Help:    "which retrieval engine serves the engine tools (setting it serves them)",
		Apply: func(s *Settings, v, _ string) error {
			s.Engine = strings.ToLower(strings.TrimSpace(v))
			return checkEngine(s.Engine)
		}},
	{Key: "LIBRARY_ALLOW_HARDLINKS", Env: []string{"LIBRARY_ALLOW_HARDLINKS"}, Value: "BOOL", Default: "false",
		Help: "serve regular files with more than one hard link (refused by default: another name may lie outside the root)",
		Apply: func(s *Settings, v, _ string) error {
			allow, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("want 1 or 0 (true or false), got %q", v)
			}
			s.AllowHardLinks = allow
			return nil
		}},
	{Key: "LIBRARIAN_PROJECT", Env: []string{"LIBRARIAN_PROJECT"},
		Help:  "project tag sent to the engine",
		Apply: func(s *Settings, v, _ string) error { s.EngineProject = v; return nil }},
	{Key: "CLAUDE_CODE_SESSION_ID", Env: []string{"CLAUDE_CODE_SESSION_ID"},
		Help:  "session id sent to the engine",
		Apply: func(s *Settings, v, _ string) error { s.Session = v; return nil }},
}, append(httpSettingSpecs, journalSettingSpecs...)...)

// A FlagValue is one settings flag as written on the command line, without
// its dashes.
type FlagValue struct{ Name, Value string }

// DefaultSettings are the settings when nothing is given.
func DefaultSettings() Settings {
	return Settings{
		Root:            "./library",
		Convention:      "auto",
		DocIndex:        "index.json",
		ImageIndex:      "images/index.json",
		MaxImageBytes:   5 << 20,
		MaxDocBytes:     domain.DefaultMaxDocBytes,
		MaxAnswerTokens: 20000,
		SearchTimeout:   domain.DefaultSearchTimeout,
		Index:           "on",
		Journal:         DefaultJournalSettings(),
	}
}

// LoadSettings is the one place settings are read and checked, at start-up:
// for each SettingSpec the last of flags naming it wins, else its first env
// var set (env is os.Getenv in production), else its default. Only the
// value used is checked, so an invalid env var that a flag overrides does
// not fail the start. Every invalid value is reported at once, each
// naming its flag or env var. It does not call Validate: the caller may
// still adjust the tool sets.
func LoadSettings(env func(string) string, flags []FlagValue) (Settings, error) {
	s := DefaultSettings()
	s.From = map[string]string{}
	var errs []error
	for _, spec := range SettingSpecs {
		value, from, ok := spec.pick(env, flags)
		if !ok {
			continue
		}
		if err := spec.Apply(&s, value, from); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", from, err))
			continue
		}
		s.From[spec.Key] = from
	}
	return s, errors.Join(errs...)
}

// pick finds the value spec takes: the last flag naming it, else its first
// env var that is set.
func (spec SettingSpec) pick(env func(string) string, flags []FlagValue) (value, from string, ok bool) {
	for i := len(flags) - 1; i >= 0; i-- {
		if contains(spec.Flags, flags[i].Name) {
			return flags[i].Value, "--" + flags[i].Name, true
		}
	}
	for _, name := range spec.Env {
		if v := env(name); v != "" {
			return v, name, true
		}
	}
	return "", "", false
}

// SettingFlag finds the spec a flag name (without dashes) belongs to.
func SettingFlag(name string) (SettingSpec, bool) {
	for _, spec := range SettingSpecs {
		if contains(spec.Flags, name) {
			return spec, true
		}
	}
	return SettingSpec{}, false
}

// Source words where setting key came from, for messages: its flag or env
// var, or, left at its default, "the default; set " and its env vars and
// flags.
func (s Settings) Source(key string) string {
	if from := s.From[key]; from != "" {
		return "from " + from
	}
	for _, spec := range SettingSpecs {
		if spec.Key == key {
			var names []string
			names = append(names, spec.Env...)
			for _, f := range spec.Flags {
				names = append(names, "--"+f)
			}
			return "the default; set " + strings.Join(names, " or ")
		}
	}
	return "the default"
}

// Validate checks the settings' enumerations and fills the tool-set default:
// `library`, plus `librarian-ts` when the root came from seed 001's own
// settings (a team swapping servers keeps its prompts and its config), plus
// `engine` when an engine URL or LIBRARIAN_ENGINE is set.
func (s *Settings) Validate() error {
	if err := checkConvention(s.Convention); err != nil {
		return err
	}
	if len(s.Tools) == 0 {
		s.ToolsDefaulted = true
		s.Tools = []string{"library"}
		if s.RootSeed001 {
			s.Tools = append(s.Tools, "librarian-ts")
		}
		if s.EngineURL != "" || s.Engine != "" {
			s.Tools = append(s.Tools, "engine")
		}
	}
	if err := checkEngine(s.Engine); err != nil {
		return fmt.Errorf("LIBRARIAN_ENGINE %w", err)
	}
	if err := checkTools(s.Tools); err != nil {
		return err
	}
	s.Index = indexSetting(s.Index)
	if err := checkIndex(s.Index); err != nil {
		return fmt.Errorf("LIBRARY_INDEX %w", err)
	}
	if s.MaxImageBytes < 0 {
		return fmt.Errorf("max image bytes must not be negative")
	}
	if s.MaxAnswerTokens < 0 {
		return fmt.Errorf("max answer tokens must not be negative")
	}
	return nil
}

func checkEngine(kind string) error {
	if !contains(EngineKinds, kind) {
		return fmt.Errorf("%q: want local or remote (or leave it unset)", kind)
	}
	return nil
}

func checkIndex(mode string) error {
	if !contains(IndexModes, mode) && !isPostgresURL(mode) {
		return fmt.Errorf("%s: want on (a SQLite index file per library, the default), off (an in-memory index) or a postgres://… URL (a shared PostgreSQL index)", quoteSetting(mode))
	}
	return nil
}

// indexSetting normalizes LIBRARY_INDEX: on and off in any case; a URL
// keeps its case (a password may need it).
func indexSetting(v string) string {
	v = strings.TrimSpace(v)
	if l := strings.ToLower(v); l == "" || contains(IndexModes, l) {
		return cmp.Or(l, "on")
	}
	return v
}

// PostgresIndex reports whether LIBRARY_INDEX names a PostgreSQL database
// (postgres:// or postgresql://): the shared index of a team.
func (s Settings) PostgresIndex() bool { return isPostgresURL(s.Index) }

func isPostgresURL(v string) bool {
	l := strings.ToLower(v)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// quoteSetting quotes a setting for an error, except a value that looks
// like a connection string (a mistyped postgres URL may carry a password):
// of that only the part before the first ':' is shown.
func quoteSetting(v string) string {
	if !strings.Contains(v, "://") && !strings.Contains(v, "@") && !strings.Contains(v, "=") {
		return strconv.Quote(v)
	}
	if i := strings.IndexByte(v, ':'); i >= 0 && i <= 12 {
		return strconv.Quote(v[:i]+":") + "…"
	}
	return "(a connection string)"
}

func checkConvention(c string) error {
	if !contains(Conventions, c) {
		return fmt.Errorf("convention %q: want one of %s", c, strings.Join(Conventions, ", "))
	}
	return nil
}

func checkTools(tools []string) error {
	for _, t := range tools {
		if !contains(ToolSets, t) {
			return fmt.Errorf("tool set %q: want one or more of %s", t, strings.Join(ToolSets, ", "))
		}
	}
	return nil
}

func nonEmpty(v, what string) error {
	if strings.TrimSpace(v) == "" {
		return fmt.Errorf("want %s, got an empty value", what)
	}
	return nil
}

// NeedsLibrary reports whether a served tool set reads the library.
func (s Settings) NeedsLibrary() bool { return s.HasTools("library") || s.HasTools("librarian-ts") }

// HasTools reports whether tool set name is served.
func (s Settings) HasTools(name string) bool { return contains(s.Tools, name) }

// ParseByteSize reads a byte count: "5242880", "5MB", "5 MiB", "512k".
// MB and MiB both mean 2^20 here, as seed 000's "5 MB" does.
func ParseByteSize(v string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(v))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("want a byte count such as 5242880 or 5MB, got %q", v)
	}
	return n * mult, nil
}

// SplitList splits a comma list, dropping blanks.
func SplitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
