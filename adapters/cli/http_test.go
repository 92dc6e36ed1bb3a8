package cli

import (
	"io"
	"strings"
	"testing"
)

func TestHTTPFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  map[string]string
		addr string
		err  string
	}{
		{nil, nil, "", ""},
		{[]string{"serve"}, nil, "", ""},
		{[]string{"serve", "--http"}, nil, "127.0.0.1:8000", ""},
		{[]string{"--http", "serve"}, nil, "127.0.0.1:8000", ""},
		{[]string{"--http"}, nil, "127.0.0.1:8000", ""},
		{[]string{"serve", "--http", "--tools", "library"}, nil, "127.0.0.1:8000", ""},
		{[]string{"--http", "9000"}, nil, "127.0.0.1:9000", ""},
		{[]string{"serve", "--http", "0.0.0.0:8080"}, nil, "0.0.0.0:8080", ""},
		{[]string{"serve", "--http=:8080"}, nil, ":8080", ""},
		{[]string{"serve"}, map[string]string{"LIBRARIAN_HTTP": "127.0.0.1:9001"}, "127.0.0.1:9001", ""},
		{[]string{"serve", "--http", "127.0.0.1:9002"}, map[string]string{"LIBRARIAN_HTTP": "127.0.0.1:9001"}, "127.0.0.1:9002", ""},
		{[]string{"serve", "--http", "nowhere"}, nil, "", "want host:port"},
	} {
		inv, err := Parse(c.args, func(k string) string { return c.env[k] }, io.Discard)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil || inv.Command != "serve" || inv.Settings.HTTP.Addr != c.addr {
			t.Errorf("%q: command %q, addr %q, err %v; want serve on %q", c.args, inv.Command, inv.Settings.HTTP.Addr, err, c.addr)
		}
	}
}
