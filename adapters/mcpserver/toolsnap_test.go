package mcpserver_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// TestLibraryToolSchemasSnapshot pins the library tool set's names,
// descriptions, annotations and input schemas in testdata/library/tools.json,
// so any change to what agents see shows in review (-update rewrites it).
func TestLibraryToolSchemasSnapshot(t *testing.T) {
	cs := connectSearch(t, "")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(res.Tools, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	file := filepath.Join("testdata", "library", "tools.json")
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("the library tools' schemas changed; if intended, run go test ./adapters/mcpserver -run Snapshot -update\ngot:\n%s", got)
	}
}
