package postgressectionindex_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/librarian/librarian/adapters/postgresdb/postgrestest"
	"github.com/librarian/librarian/adapters/postgressectionindex"
	"github.com/librarian/librarian/ports/sectionindex"
	"github.com/librarian/librarian/ports/sectionindex/sectionindextest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

var schemaChars = regexp.MustCompile(`[^a-z0-9_]+`)

// schemaFor turns a test's index name into a schema name of its own.
func schemaFor(name string) string {
	s := "t_" + schemaChars.ReplaceAllString(strings.ToLower(name), "_")
	if len(s) > 40 {
		sum := sha256.Sum256([]byte(name))
		s = s[:30] + "_" + hex.EncodeToString(sum[:4])
	}
	return s
}

// opener opens each named index in a schema of its own, empty the first
// time this process opens the name.
func opener(dsn string) sectionindextest.Opener {
	var mu sync.Mutex
	seen := map[string]bool{}
	return sectionindextest.Opener{
		Persistent: true,
		Open: func(t *testing.T, name string) sectionindex.Index {
			t.Helper()
			schema := schemaFor(name)
			mu.Lock()
			first := !seen[schema]
			seen[schema] = true
			mu.Unlock()
			if first {
				postgrestest.DropSchema(t, dsn, schema)
			}
			ix, err := postgressectionindex.Open(context.Background(), dsn, postgressectionindex.Options{Schema: schema, MaxConns: 6, Logger: quiet})
			if err != nil {
				t.Fatal(err)
			}
			return ix
		},
	}
}

func TestContract(t *testing.T) {
	sectionindextest.Run(t, opener(postgrestest.DSN(t)))
}
