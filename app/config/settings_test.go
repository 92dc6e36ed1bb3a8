package config_test

import (
	"github.com/librarian/librarian/app/config"
	"strings"
	"testing"
	"time"

	"github.com/librarian/librarian/domain"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// TestLoadSettingsOneRuleForFlagsAndEnv: a flag and its env var accept and
// refuse the same values, the error names the one that was used, and an
// invalid env var that a flag overrides does not fail the start.
func TestLoadSettingsOneRuleForFlagsAndEnv(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     map[string]string
		flags   []config.FlagValue
		wantErr string // substring; "" = no error
		check   func(config.Settings) bool
	}{
		{name: "flag -1 answer tokens refused", flags: []config.FlagValue{{"max-answer-tokens", "-1"}},
			wantErr: `--max-answer-tokens: want a non-negative integer, got "-1"`},
		{name: "env -1 answer tokens refused", env: map[string]string{"LIBRARY_MAX_ANSWER_TOKENS": "-1"},
			wantErr: `LIBRARY_MAX_ANSWER_TOKENS: want a non-negative integer, got "-1"`},
		{name: "flag 0 doc bytes refused", flags: []config.FlagValue{{"max-doc-bytes", "0"}},
			wantErr: `--max-doc-bytes: want a positive byte count such as 16MB, got "0"`},
		{name: "env 0 doc bytes refused", env: map[string]string{"LIBRARY_MAX_DOC_BYTES": "0"},
			wantErr: `LIBRARY_MAX_DOC_BYTES: want a positive byte count`},
		{name: "flag bad image bytes refused", flags: []config.FlagValue{{"max-image-bytes", "lots"}},
			wantErr: `--max-image-bytes: want a byte count`},
		{name: "flag bad convention refused", flags: []config.FlagValue{{"convention", "xml"}},
			wantErr: `--convention: convention "xml": want one of auto, json, frontmatter`},
		{name: "flag bad tool set refused", flags: []config.FlagValue{{"tools", "library,nope"}},
			wantErr: `--tools: tool set "nope"`},
		{name: "flag bad engine url refused", flags: []config.FlagValue{{"engine-url", "127.0.0.1:8000"}},
			wantErr: `--engine-url: want an http:// or https:// URL`},
		{name: "every problem at once", env: map[string]string{"LIBRARY_MAX_DOC_BYTES": "0", "LIBRARY_CONVENTION": "xml"},
			wantErr: "LIBRARY_CONVENTION: convention \"xml\": want one of auto, json, frontmatter\nLIBRARY_MAX_DOC_BYTES:"},
		{name: "invalid env overridden by a flag", env: map[string]string{"LIBRARY_MAX_ANSWER_TOKENS": "-1", "LIBRARY_MAX_DOC_BYTES": "0"},
			flags: []config.FlagValue{{"max-answer-tokens", "500"}, {"max-doc-bytes", "1MB"}},
			check: func(s config.Settings) bool {
				return s.MaxAnswerTokens == 500 && s.MaxDocBytes == 1<<20 && s.From["max-answer-tokens"] == "--max-answer-tokens"
			}},
		{name: "env zero search timeout refused", env: map[string]string{"LIBRARY_SEARCH_TIMEOUT": "0"},
			wantErr: `LIBRARY_SEARCH_TIMEOUT: want a positive duration such as 10s or 1m, got "0"`},
		{name: "flag search timeout", flags: []config.FlagValue{{"search-timeout", "2m"}},
			check: func(s config.Settings) bool { return s.SearchTimeout == 2*time.Minute }},
		{name: "the last flag wins", flags: []config.FlagValue{{"max-answer-tokens", "-1"}, {"max-answer-tokens", "3"}},
			check: func(s config.Settings) bool { return s.MaxAnswerTokens == 3 }},
		{name: "defaults", check: func(s config.Settings) bool {
			return s.Root == "./library" && !s.RootGiven && s.MaxAnswerTokens == 20000 && s.MaxDocBytes == domain.DefaultMaxDocBytes &&
				s.MaxImageBytes == 5<<20 && s.Convention == "auto" && len(s.From) == 0 && s.SearchTimeout == domain.DefaultSearchTimeout
		}},
		{name: "seed 001 root", env: map[string]string{"LIBRARIAN_DOCS_ROOT": "docs"},
			check: func(s config.Settings) bool { return s.Root == "docs" && s.RootGiven && s.RootSeed001 }},
		{name: "LIBRARY_ROOT beats LIBRARIAN_DOCS_ROOT", env: map[string]string{"LIBRARIAN_DOCS_ROOT": "docs", "LIBRARY_ROOT": "lib"},
			check: func(s config.Settings) bool {
				return s.Root == "lib" && !s.RootSeed001 && s.From["root"] == "LIBRARY_ROOT"
			}},
		{name: "--root beats LIBRARIAN_DOCS_ROOT", env: map[string]string{"LIBRARIAN_DOCS_ROOT": "docs"}, flags: []config.FlagValue{{"root", "lib"}},
			check: func(s config.Settings) bool { return s.Root == "lib" && !s.RootSeed001 }},
		{name: "--docs-root is seed 001's", flags: []config.FlagValue{{"docs-root", "docs"}},
			check: func(s config.Settings) bool { return s.Root == "docs" && s.RootSeed001 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := config.LoadSettings(envOf(tc.env), tc.flags)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("config.LoadSettings error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("config.LoadSettings: %v", err)
			}
			if tc.check != nil && !tc.check(s) {
				t.Errorf("settings = %+v", s)
			}
		})
	}
}

// TestSettingsSourceNamesTheSetting: messages can say where a value came
// from, or how to set it when it is the default.
func TestSettingsSourceNamesTheSetting(t *testing.T) {
	s, err := config.LoadSettings(envOf(map[string]string{"LIBRARY_MAX_DOC_BYTES": "1MB"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Source("max-doc-bytes"), "from LIBRARY_MAX_DOC_BYTES"; got != want {
		t.Errorf("Source(max-doc-bytes) = %q, want %q", got, want)
	}
	if got, want := s.Source("root"), "the default; set LIBRARY_ROOT or LIBRARIAN_DOCS_ROOT or --root or --docs-root"; got != want {
		t.Errorf("Source(root) = %q, want %q", got, want)
	}
}

// TestEverySettingHasAKeyAndARule guards the table others add to.
func TestEverySettingHasAKeyAndARule(t *testing.T) {
	seen := map[string]bool{}
	for _, spec := range config.SettingSpecs {
		if spec.Key == "" || spec.Apply == nil || len(spec.Env)+len(spec.Flags) == 0 {
			t.Errorf("setting %+v lacks a key, a rule, or a way to set it", spec)
		}
		for _, name := range append(append([]string{spec.Key}, spec.Flags...), spec.Env...) {
			if seen[name] && name != spec.Key {
				t.Errorf("%q names two settings", name)
			}
			seen[name] = true
		}
	}
}

func TestJournalSettings(t *testing.T) {
	s, err := config.LoadSettings(func(string) string { return "" }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Journal != config.DefaultJournalSettings() || s.Journal.Quota != 1000 || s.Journal.MaxRecords != 5000 || s.Journal.LogDays != 30 ||
		s.Journal.LogPerSession != 1000 || s.Journal.LogPerToken != 20000 {
		t.Errorf("default journal bounds: %+v", s.Journal)
	}
	env := map[string]string{"LIBRARY_JOURNAL_QUOTA": "0", "LIBRARY_JOURNAL_MAX_RECORDS": "20", "LIBRARY_JOURNAL_LOG_DAYS": " 7 ",
		"LIBRARY_JOURNAL_LOG_PER_SESSION": "50", "LIBRARY_JOURNAL_LOG_PER_TOKEN": "500"}
	s, err = config.LoadSettings(func(k string) string { return env[k] }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (config.JournalSettings{Quota: 0, MaxRecords: 20, LogDays: 7, LogPerSession: 50, LogPerToken: 500}); s.Journal != want {
		t.Errorf("journal bounds %+v, want %+v", s.Journal, want)
	}
	_, err = config.LoadSettings(func(k string) string { return map[string]string{"LIBRARY_JOURNAL_QUOTA": "-1"}[k] }, nil)
	if err == nil || err.Error() != `LIBRARY_JOURNAL_QUOTA: want a whole number, 0 or more, got "-1"` {
		t.Errorf("a negative quota: %v", err)
	}
}
