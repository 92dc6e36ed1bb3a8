package config

import "testing"

func TestEngineChoice(t *testing.T) {
	for _, tc := range []struct {
		engine, url string
		library     bool
		want        string
	}{
		{"", "", true, EngineLocal},
		{"", "", false, EngineRemote},
		{"", "http://fleet:8000", true, EngineRemote},
		{"local", "http://fleet:8000", true, EngineLocal},
		{"local", "", false, EngineLocal},
		{"remote", "", true, EngineRemote},
	} {
		s := Settings{Engine: tc.engine, EngineURL: tc.url}
		if got := s.EngineChoice(tc.library); got != tc.want {
			t.Errorf("LIBRARIAN_ENGINE=%q LIBRARIAN_URL=%q library=%v: %s, want %s", tc.engine, tc.url, tc.library, got, tc.want)
		}
	}
}

func TestEngineSettings(t *testing.T) {
	env := map[string]string{"LIBRARIAN_ENGINE": " Local "}
	s, err := LoadSettings(func(k string) string { return env[k] }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.Engine != "local" || !s.HasTools("engine") {
		t.Errorf("LIBRARIAN_ENGINE=local: engine %q, tools %v (want the engine tools served)", s.Engine, s.Tools)
	}
	env["LIBRARIAN_ENGINE"] = "cloud"
	if _, err := LoadSettings(func(k string) string { return env[k] }, nil); err == nil || err.Error() != `LIBRARIAN_ENGINE: "cloud": want local or remote (or leave it unset)` {
		t.Errorf("LIBRARIAN_ENGINE=cloud: %v", err)
	}
	s, err = LoadSettings(func(k string) string { return env[k] }, []FlagValue{{Name: "engine", Value: "remote"}})
	if err != nil || s.Engine != "remote" {
		t.Errorf("--engine remote over LIBRARIAN_ENGINE=cloud: %q %v (a flag overrides the env var)", s.Engine, err)
	}
}
