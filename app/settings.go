package app

import (
	"fmt"
	"strconv"
	"strings"
)

// Settings is the whole program's configuration, read from the environment
// and then overridden by flags (the command line does that). Plain data:
// app/appfx reads it to pick one adapter per port.
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
	Tools           []string // tool sets: "library", "librarian-ts", "engine"
	ToolsDefaulted  bool     // Tools were not given: Validate chose them

	// Index is LIBRARY_INDEX: "on" (the default: a SQLite file per
	// library in IndexDir) or "off" (an in-memory index, no file), or a
	// postgres:// URL: a PostgreSQL database a team shares (PostgresIndex).
	Index string
	// IndexDir is LIBRARY_INDEX_DIR: where index files live; "" means the
	// user's cache folder (os.UserCacheDir()/librarian).
	IndexDir string
	// IndexWait makes opening a PostgreSQL index retry with backoff while
	// the database is unreachable (serve sets it; commands fail at once).
	IndexWait bool

	EngineURL     string // LIBRARIAN_URL
	EngineProject string // LIBRARIAN_PROJECT
	Session       string // CLAUDE_CODE_SESSION_ID
}

// Conventions and tool sets Librarian knows.
var (
	Conventions = []string{"auto", "json", "frontmatter"}
	ToolSets    = []string{"library", "librarian-ts", "engine"}
	IndexModes  = []string{"on", "off"}
)

// DefaultEngineURL is seed 004's default engine address.
const DefaultEngineURL = "http://127.0.0.1:8000"

// SettingsFromEnv reads the settings of seeds 000, 001 and 004 from env
// (os.Getenv in production). A malformed number is an error naming the
// variable, never a silent default.
func SettingsFromEnv(env func(string) string) (Settings, error) {
	s := Settings{
		Root:            firstNonEmpty(env("LIBRARY_ROOT"), env("LIBRARIAN_DOCS_ROOT"), "./library"),
		Convention:      firstNonEmpty(env("LIBRARY_CONVENTION"), "auto"),
		DocIndex:        firstNonEmpty(env("LIBRARY_DOC_INDEX"), "index.json"),
		ImageIndex:      firstNonEmpty(env("LIBRARY_IMAGE_INDEX"), "images/index.json"),
		MaxImageBytes:   5 << 20,
		MaxAnswerTokens: 20000,
		MaxDocBytes:     DefaultMaxDocBytes,
		Index:           indexSetting(env("LIBRARY_INDEX")),
		IndexDir:        env("LIBRARY_INDEX_DIR"),
		EngineURL:       env("LIBRARIAN_URL"),
		EngineProject:   env("LIBRARIAN_PROJECT"),
		Session:         env("CLAUDE_CODE_SESSION_ID"),
	}
	s.RootGiven = env("LIBRARY_ROOT") != "" || env("LIBRARIAN_DOCS_ROOT") != ""
	s.RootSeed001 = env("LIBRARY_ROOT") == "" && env("LIBRARIAN_DOCS_ROOT") != ""
	if v := env("LIBRARY_MAX_IMAGE_BYTES"); v != "" {
		n, err := ParseByteSize(v)
		if err != nil {
			return s, fmt.Errorf("LIBRARY_MAX_IMAGE_BYTES: %w", err)
		}
		s.MaxImageBytes = n
	}
	if v := env("LIBRARY_MAX_DOC_BYTES"); v != "" {
		n, err := ParseByteSize(v)
		if err != nil || n == 0 {
			return s, fmt.Errorf("LIBRARY_MAX_DOC_BYTES: want a positive byte count such as 16MB, got %q", v)
		}
		s.MaxDocBytes = n
	}
	if v := env("LIBRARY_MAX_ANSWER_TOKENS"); v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return s, fmt.Errorf("LIBRARY_MAX_ANSWER_TOKENS: want a non-negative integer, got %q", v)
		}
		s.MaxAnswerTokens = n
	}
	if v := env("LIBRARIAN_TOOLS"); v != "" {
		s.Tools = SplitList(v)
	}
	return s, nil
}

// Validate checks the settings' enumerations and fills the tool-set default:
// `library`, plus `librarian-ts` when the root came from seed 001's own
// settings (a team swapping servers keeps its prompts and its config), plus
// `engine` when an engine URL is set.
func (s *Settings) Validate() error {
	if !contains(Conventions, s.Convention) {
		return fmt.Errorf("convention %q: want one of %s", s.Convention, strings.Join(Conventions, ", "))
	}
	if s.Index == "" {
		s.Index = "on"
	}
	s.Index = indexSetting(s.Index)
	if !contains(IndexModes, s.Index) && !s.PostgresIndex() {
		return fmt.Errorf("LIBRARY_INDEX %s: want on (a SQLite index file per library, the default), off (an in-memory index) or a postgres://… URL (a shared PostgreSQL index)", quoteSetting(s.Index))
	}
	if len(s.Tools) == 0 {
		s.ToolsDefaulted = true
		s.Tools = []string{"library"}
		if s.RootSeed001 {
			s.Tools = append(s.Tools, "librarian-ts")
		}
		if s.EngineURL != "" {
			s.Tools = append(s.Tools, "engine")
		}
	}
	for _, t := range s.Tools {
		if !contains(ToolSets, t) {
			return fmt.Errorf("tool set %q: want one or more of %s", t, strings.Join(ToolSets, ", "))
		}
	}
	if s.MaxImageBytes < 0 {
		return fmt.Errorf("max image bytes must not be negative")
	}
	return nil
}

// indexSetting normalizes LIBRARY_INDEX: on and off in any case; a URL
// keeps its case (a password may need it).
func indexSetting(v string) string {
	v = strings.TrimSpace(v)
	if l := strings.ToLower(v); l == "" || contains(IndexModes, l) {
		return firstNonEmpty(l, "on")
	}
	return v
}

// PostgresIndex reports whether LIBRARY_INDEX names a PostgreSQL database
// (postgres:// or postgresql://): the shared index of a team.
func (s Settings) PostgresIndex() bool {
	l := strings.ToLower(s.Index)
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
