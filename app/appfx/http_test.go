package appfx_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/fx"

	"github.com/librarian/librarian/adapters/mcpserver"
	"github.com/librarian/librarian/app/appfx"
	"github.com/librarian/librarian/app/config"
)

// TestHTTPGraph builds the HTTP server from the fx graph, with a handler
// provided into the mount group, and checks the mount and the engine API
// are served behind the token file's tokens and /healthz reads the library.
func TestHTTPGraph(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "tokens")
	os.WriteFile(tokenFile, []byte("# the team\nci ci-token-0123456789\nsolo-token-9876543210\n"), 0o600)
	s := config.Settings{Root: filepath.Join("..", "..", "library"), Convention: "auto", DocIndex: "index.json", ImageIndex: "images/index.json",
		MaxImageBytes: 5 << 20, Index: "off", HTTP: config.HTTPSettings{Addr: "127.0.0.1:0", TokenFile: tokenFile}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	mount := fx.Provide(fx.Annotate(func() mcpserver.Mount {
		return mcpserver.Mount{Prefix: "/extra/", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "extra at "+r.URL.Path)
		})}
	}, fx.ResultTags(`group:"`+appfx.HTTPMountGroup+`"`)))
	var hs *mcpserver.HTTPServer
	fxApp := fx.New(appfx.Module(s, slog.New(slog.DiscardHandler)), mount, fx.Populate(&hs), fx.NopLogger)
	if err := fxApp.Err(); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(hs.Handler())
	defer ts.Close()
	get := func(path, token string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, ts.URL+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, c := range []struct {
		path, token string
		code        int
		body        string
	}{
		{"/extra/x", "", 401, "Authorization: Bearer"},
		{"/extra/x", "ci-token-0123456789", 200, "extra at /extra/x"},
		{"/extra/x", "solo-token-9876543210", 200, "extra at /extra/x"},
		{"/api/library/status", "", 401, "Authorization: Bearer"},
		{"/api/library/locate?q=caching", "ci-token-0123456789", 200, `"hits"`}, // the local engine over the library
		{"/healthz", "", 200, `"status":"ok"`},
	} {
		if code, body := get(c.path, c.token); code != c.code || !strings.Contains(body, c.body) {
			t.Errorf("GET %s (token %q) = %d %q, want %d with %q", c.path, c.token, code, body, c.code, c.body)
		}
	}
}

func TestTokens(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		file, want string
	}{
		{"", "holds no token"},
		{"a b c\n", "line 1: want TOKEN or NAME TOKEN"},
		{"alice alice-token-0123\n \t \n", "line 2 is blank (only whitespace)"}, // a token left blank fails the start, not open
		{"   \n", "line 1 is blank"},
	} {
		path := filepath.Join(dir, "f")
		os.WriteFile(path, []byte(c.file), 0o600)
		if _, err := appfx.Tokens(config.HTTPSettings{TokenFile: path}); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "LIBRARIAN_TOKEN_FILE") {
			t.Errorf("token file %q: %v, want an error naming LIBRARIAN_TOKEN_FILE and %q", c.file, err, c.want)
		}
	}
	if _, err := appfx.Tokens(config.HTTPSettings{TokenFile: filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing token file is not an error")
	}
	got, err := appfx.Tokens(config.HTTPSettings{Token: "env-token"})
	if err != nil || len(got) != 1 || got[0].Name != "LIBRARIAN_TOKEN" || got[0].Value != "env-token" {
		t.Errorf("Tokens(LIBRARIAN_TOKEN) = %+v, %v", got, err)
	}
}

func TestURLIsListener(t *testing.T) {
	for _, c := range []struct {
		url, addr string
		want      bool
	}{
		{"", "127.0.0.1:8000", true}, // the default engine URL is the default address
		{"http://127.0.0.1:8000", "127.0.0.1:8000", true},
		{"http://localhost:8000/", "127.0.0.1:8000", true},
		{"http://127.0.0.1:8000", ":8000", true},
		{"http://127.0.0.1:8000", "0.0.0.0:8000", true},
		{"http://10.0.0.5:8000", "10.0.0.5:8000", true},
		{"http://127.0.0.1:8001", "127.0.0.1:8000", false},
		{"http://engine.internal:8000", "127.0.0.1:8000", false},
		{"https://engine.internal", "0.0.0.0:443", false},
		{"http://10.0.0.6:8000", "10.0.0.5:8000", false},
	} {
		if got := appfx.URLIsListener(c.url, c.addr); got != c.want {
			t.Errorf("URLIsListener(%q, %q) = %v, want %v", c.url, c.addr, got, c.want)
		}
	}
}
