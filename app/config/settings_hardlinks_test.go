package config

import (
	"strings"
	"testing"
)

func TestSettingsAllowHardLinks(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  bool
		err   string
	}{
		{"", false, ""},
		{"1", true, ""},
		{"true", true, ""},
		{"0", false, ""},
		{"false", false, ""},
		{"yes", false, `LIBRARY_ALLOW_HARDLINKS: want 1 or 0 (true or false), got "yes"`},
	} {
		s, err := LoadSettings(func(name string) string {
			if name == "LIBRARY_ALLOW_HARDLINKS" {
				return tc.value
			}
			return ""
		}, nil)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("LIBRARY_ALLOW_HARDLINKS=%q: error %v, want %q", tc.value, err, tc.err)
		case tc.err == "" && (err != nil || s.AllowHardLinks != tc.want):
			t.Errorf("LIBRARY_ALLOW_HARDLINKS=%q: AllowHardLinks %v (%v), want %v", tc.value, s.AllowHardLinks, err, tc.want)
		}
	}
}
