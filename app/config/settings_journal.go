package config

import (
	"fmt"
	"strconv"
	"strings"
)

// JournalSettings bound the local engine's journal: the knowledge agents
// tell, the gaps they report and the log of each session. Without them one
// token holder could grow it without end (a journal in memory, with
// LIBRARY_INDEX=off, is bounded the same). 0 means no bound.
type JournalSettings struct {
	Quota         int // LIBRARY_JOURNAL_QUOTA: told and gap records one token may hold
	MaxRecords    int // LIBRARY_JOURNAL_MAX_RECORDS: told and gap records in all; the oldest go first
	LogDays       int // LIBRARY_JOURNAL_LOG_DAYS: days a session's log and its ownership are kept unused
	LogPerSession int // LIBRARY_JOURNAL_LOG_PER_SESSION: interactions a session's log keeps
	LogPerToken   int // LIBRARY_JOURNAL_LOG_PER_TOKEN: interactions one token's sessions keep together
}

// The journal's defaults: far above what a team's agents write (a told
// record is a few hundred bytes; its cap is 32 KiB), low enough that a
// journal at every limit stays within a few hundred MB, in memory too.
const (
	DefaultJournalQuota         = 1000
	DefaultJournalMaxRecords    = 5000
	DefaultJournalLogDays       = 30
	DefaultJournalLogPerSession = 1000
	DefaultJournalLogPerToken   = 20000
)

// DefaultJournalSettings are the journal's bounds when none is set.
func DefaultJournalSettings() JournalSettings {
	return JournalSettings{Quota: DefaultJournalQuota, MaxRecords: DefaultJournalMaxRecords, LogDays: DefaultJournalLogDays,
		LogPerSession: DefaultJournalLogPerSession, LogPerToken: DefaultJournalLogPerToken}
}

// journalSettingSpecs are the journal's bounds: env vars only, as an
// operator sets them once for a server.
var journalSettingSpecs = []SettingSpec{
	{Key: "LIBRARY_JOURNAL_QUOTA", Env: []string{"LIBRARY_JOURNAL_QUOTA"}, Value: "N", Default: strconv.Itoa(DefaultJournalQuota),
		Help:  "engine journal: told and gap records one token may hold; past it librarian_tell and librarian_gap are refused (0 = no quota)",
		Apply: func(s *Settings, v, _ string) (err error) { s.Journal.Quota, err = nonNegative(v); return err }},
	{Key: "LIBRARY_JOURNAL_MAX_RECORDS", Env: []string{"LIBRARY_JOURNAL_MAX_RECORDS"}, Value: "N", Default: strconv.Itoa(DefaultJournalMaxRecords),
		Help:  "engine journal: told and gap records kept in all, the oldest dropped first (0 = no cap)",
		Apply: func(s *Settings, v, _ string) (err error) { s.Journal.MaxRecords, err = nonNegative(v); return err }},
	{Key: "LIBRARY_JOURNAL_LOG_DAYS", Env: []string{"LIBRARY_JOURNAL_LOG_DAYS"}, Value: "N", Default: strconv.Itoa(DefaultJournalLogDays),
		Help:  "engine journal: days interactions are kept; a session unused that long is forgotten, its token's hold on it too (0 = for ever)",
		Apply: func(s *Settings, v, _ string) (err error) { s.Journal.LogDays, err = nonNegative(v); return err }},
	{Key: "LIBRARY_JOURNAL_LOG_PER_SESSION", Env: []string{"LIBRARY_JOURNAL_LOG_PER_SESSION"}, Value: "N", Default: strconv.Itoa(DefaultJournalLogPerSession),
		Help:  "engine journal: interactions a session's log keeps, the oldest dropped first (0 = all)",
		Apply: func(s *Settings, v, _ string) (err error) { s.Journal.LogPerSession, err = nonNegative(v); return err }},
	{Key: "LIBRARY_JOURNAL_LOG_PER_TOKEN", Env: []string{"LIBRARY_JOURNAL_LOG_PER_TOKEN"}, Value: "N", Default: strconv.Itoa(DefaultJournalLogPerToken),
		Help:  "engine journal: interactions one token's sessions keep together, the oldest dropped first (0 = all)",
		Apply: func(s *Settings, v, _ string) (err error) { s.Journal.LogPerToken, err = nonNegative(v); return err }},
}

func nonNegative(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("want a whole number, 0 or more, got %q", v)
	}
	return n, nil
}
