package postgressectionindex

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/jackc/pgx/v5"
)

// One schema holds one library. Its first ingest records the library's
// name (table library, schema version 2); an ingest or a server of a
// library of another name is refused with ErrOtherLibrary, which names the
// library the schema holds and how to give the new one a schema of its
// own. Before this, a second library indexed into the same schema replaced
// the first without a word ("4 parsed, 7 removed").
//
// The name, not the root's path, is the library's identity: a team's
// servers and its ingest job run on several machines, where one library
// sits at different absolute paths (/srv/docs, /home/ci/work/docs), so a
// path would refuse the same library. The name defaults to the root
// folder's own name and is set with LIBRARY_NAME where checkouts are named
// differently. The root and host are recorded too, for the message.

// ErrOtherLibrary: the schema holds another library than the one opening
// it or writing to it; nothing was written.
var ErrOtherLibrary = errors.New("the schema holds another library")

// Library names the library an index is opened for (Options.Library).
type Library struct {
	// Name is the library's identity in the schema: the same library,
	// wherever it sits, has the same name.
	Name string
	// Root and Host say where this copy of it is, for messages.
	Root, Host string
}

// heldLibrary is the library a schema's library table records.
type heldLibrary struct {
	Library
	found bool
}

func readLibrary(ctx context.Context, q interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}) (heldLibrary, error) {
	var h heldLibrary
	err := q.QueryRow(ctx, `SELECT name, root, host FROM library`).Scan(&h.Name, &h.Root, &h.Host)
	if errors.Is(err, pgx.ErrNoRows) {
		return h, nil
	}
	h.found = err == nil
	return h, err
}

// checkLibrary refuses a schema that holds another library than lib.
func (ix *Index) checkLibrary(ctx context.Context, lib Library) error {
	held, err := readLibrary(ctx, ix.pool)
	if err != nil {
		return ix.fail("read which library the schema holds", err)
	}
	if held.found && held.Name != lib.Name {
		return ix.otherLibrary(held, lib)
	}
	return nil
}

// claimLibrary records ix.library as the schema's library, or refreshes
// where it was last indexed from; a schema that holds another library is
// ErrOtherLibrary. It runs on the writer's connection, under its lock, so
// two ingests of two libraries into an empty schema cannot both claim it.
func (ix *Index) claimLibrary(ctx context.Context, conn interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}) error {
	lib := *ix.library
	var name string
	err := conn.QueryRow(ctx, `INSERT INTO library (name, root, host) VALUES ($1, $2, $3)
		ON CONFLICT (singleton) DO UPDATE SET root = excluded.root, host = excluded.host, indexed_at = now()
		WHERE library.name = excluded.name
		RETURNING name`, clean(lib.Name), clean(lib.Root), clean(lib.Host)).Scan(&name)
	if errors.Is(err, pgx.ErrNoRows) {
		held, err := readLibrary(ctx, conn)
		if err != nil {
			return ix.fail("read which library the schema holds", err)
		}
		return ix.otherLibrary(held, lib)
	}
	if err != nil {
		return ix.fail("record the library the schema holds", err)
	}
	return nil
}

// otherLibrary is the refusal: which library the schema holds, and how to
// give lib a schema of its own (the DSN's search_path, which every
// postgres adapter honours) or, when it is the same library in a folder of
// another name, how to say so.
func (ix *Index) otherLibrary(held heldLibrary, lib Library) error {
	from := held.Root
	if held.Host != "" {
		from += " on " + held.Host
	}
	schema := schemaNameFor(lib.Name)
	return fmt.Errorf("postgres index (%s): %w: %q (indexed from %s), not %q (%s), and one schema holds one library. "+
		"Give %q a schema of its own: add search_path=%s to the DSN's query "+
		"(postgres://…/DB?search_path=%s), for its `librarian index --to` and its servers alike; "+
		"if it is %q in a folder of another name, set LIBRARY_NAME=%s",
		ix.where, ErrOtherLibrary, held.Name, from, lib.Name, lib.Root, lib.Name, schema, schema, held.Name, held.Name)
}

var notSchemaChars = regexp.MustCompile(`[^a-z0-9_]+`)

// schemaNameFor suggests a schema name for a library: its name in lower
// case, other characters as '_', starting with a letter, at most 63.
func schemaNameFor(name string) string {
	s := strings.Trim(notSchemaChars.ReplaceAllString(strings.ToLower(name), "_"), "_")
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		s = "lib_" + s
	}
	return strings.TrimSuffix(s[:min(len(s), 63)], "_")
}
