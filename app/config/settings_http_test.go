package config

import (
	"strings"
	"testing"
	"time"
)

func TestHTTPSettings(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		addr string
		err  string
	}{
		{map[string]string{}, "", ""},
		{map[string]string{"LIBRARIAN_HTTP": "1"}, DefaultHTTPAddr, ""},
		{map[string]string{"LIBRARIAN_HTTP": "9000"}, "127.0.0.1:9000", ""},
		{map[string]string{"LIBRARIAN_HTTP": ":9000"}, ":9000", ""},
		{map[string]string{"LIBRARIAN_HTTP": "0.0.0.0:9000"}, "0.0.0.0:9000", ""},
		{map[string]string{"LIBRARIAN_HTTP": "[::1]:9000"}, "[::1]:9000", ""},
		{map[string]string{"LIBRARIAN_HTTP": "somewhere"}, "", "LIBRARIAN_HTTP: want host:port"},
		{map[string]string{"LIBRARIAN_HTTP": "70000"}, "", "out of range"},
		{map[string]string{"LIBRARIAN_HTTP_MAX_CALLS": "0"}, "", "LIBRARIAN_HTTP_MAX_CALLS: want a positive integer"},
		{map[string]string{"LIBRARIAN_HTTP_MAX_SESSIONS": "many"}, "", "LIBRARIAN_HTTP_MAX_SESSIONS"},
		// A blank token is refused, not taken for unset (which would serve
		// loopback without auth).
		{map[string]string{"LIBRARIAN_TOKEN": " "}, "", "LIBRARIAN_TOKEN: the token is blank"},
		{map[string]string{"LIBRARIAN_TOKEN": "\t\n"}, "", "LIBRARIAN_TOKEN: the token is blank"},
		{map[string]string{"LIBRARIAN_HTTP_MAX_CALLS_PER_TOKEN": "0"}, "", "LIBRARIAN_HTTP_MAX_CALLS_PER_TOKEN: want a positive integer"},
		{map[string]string{"LIBRARIAN_HTTP_MAX_SESSIONS_PER_TOKEN": "-1"}, "", "LIBRARIAN_HTTP_MAX_SESSIONS_PER_TOKEN: want a positive integer"},
		{map[string]string{"LIBRARIAN_HTTP_MAX_CONNECTIONS": "x"}, "", "LIBRARIAN_HTTP_MAX_CONNECTIONS: want a positive integer"},
		{map[string]string{"LIBRARIAN_HTTP_WRITE_TIMEOUT": "30"}, "", "LIBRARIAN_HTTP_WRITE_TIMEOUT: want a positive duration"},
		{map[string]string{"LIBRARIAN_HTTP_BODY_TIMEOUT": "0s"}, "", "LIBRARIAN_HTTP_BODY_TIMEOUT: want a positive duration"},
	} {
		s, err := LoadSettings(func(k string) string { return c.env[k] }, nil)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want %q", c.env, err, c.err)
			}
			continue
		}
		if err != nil || s.HTTP.Addr != c.addr {
			t.Errorf("%v: addr %q, err %v; want %q", c.env, s.HTTP.Addr, err, c.addr)
		}
	}
	s, _ := LoadSettings(func(k string) string {
		return map[string]string{"LIBRARIAN_TOKEN": " tok ", "LIBRARIAN_ALLOWED_ORIGINS": "https://a.example, https://b.example", "LIBRARIAN_HTTP_MAX_CALLS": "8"}[k]
	}, nil)
	if s.HTTP.Token != "tok" || len(s.HTTP.AllowedOrigins) != 2 || s.HTTP.MaxCalls != 8 {
		t.Errorf("HTTP settings = %+v", s.HTTP)
	}
	s, err := LoadSettings(func(k string) string {
		return map[string]string{"LIBRARIAN_HTTP_WRITE_TIMEOUT": "5s", "LIBRARIAN_HTTP_BODY_TIMEOUT": "1m", "LIBRARIAN_HTTP_MAX_CONNECTIONS": "100",
			"LIBRARIAN_HTTP_MAX_CALLS_PER_TOKEN": "3", "LIBRARIAN_HTTP_MAX_SESSIONS_PER_TOKEN": "7"}[k]
	}, nil)
	if h := s.HTTP; err != nil || h.WriteTimeout != 5*time.Second || h.BodyTimeout != time.Minute || h.MaxConnections != 100 || h.MaxCallsPerToken != 3 || h.MaxSessionsPerToken != 7 {
		t.Errorf("HTTP limits = %+v, %v", h, err)
	}
}
