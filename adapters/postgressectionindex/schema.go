package postgressectionindex

import "github.com/librarian/librarian/adapters/postgresdb"

// migrations are the schema's versions, in order: migrations[i] takes a
// schema at version i to version i+1. A released migration is never
// edited; a change appends one. {{pg_trgm}} and {{unaccent}} are replaced by
// the schemas that hold those extensions.
var migrations = []string{
	// 1: the first schema.
	`
-- English stemming, with diacritics folded first (Köln is found as koln).
CREATE TEXT SEARCH CONFIGURATION librarian_english (COPY = pg_catalog.english);
ALTER TEXT SEARCH CONFIGURATION librarian_english
	ALTER MAPPING FOR word, hword, hword_part WITH {{unaccent}}.unaccent, pg_catalog.english_stem;
CREATE TABLE meta (
	key   text PRIMARY KEY,
	value jsonb NOT NULL
);
CREATE TABLE docs (
	path        text COLLATE "C" PRIMARY KEY,
	id          text NOT NULL,
	title       text NOT NULL,
	summary     text NOT NULL,
	tokens      integer NOT NULL,
	has_tokens  boolean NOT NULL,
	tags        text[],
	stamp_size  bigint NOT NULL,
	stamp_mtime bigint,
	stamp_inode bigint NOT NULL,
	stamp_ctime bigint,
	content     bytea NOT NULL,
	structure   jsonb NOT NULL,
	-- the text with every character replaced by a representative of its
	-- Unicode simple-folding class (and NUL, invalid UTF-8 by U+FFFD), so
	-- that LIKE on it finds every case-insensitive match.
	folded      text NOT NULL
);
CREATE INDEX docs_folded_trgm ON docs USING gin (folded {{pg_trgm}}.gin_trgm_ops);
CREATE TABLE sections (
	path        text COLLATE "C" NOT NULL REFERENCES docs ON DELETE CASCADE,
	ord         integer NOT NULL,
	section_id  text NOT NULL,
	start_line  integer NOT NULL,
	end_line    integer NOT NULL,
	search      tsvector NOT NULL,
	PRIMARY KEY (path, ord)
);
CREATE INDEX sections_search ON sections USING gin (search);
CREATE TABLE names (
	path      text COLLATE "C" NOT NULL REFERENCES docs ON DELETE CASCADE,
	ord       integer NOT NULL,
	kind      text NOT NULL,
	name      text NOT NULL,
	line      integer NOT NULL,
	signature text NOT NULL,
	folded    text NOT NULL,
	PRIMARY KEY (path, ord)
);
CREATE INDEX names_folded ON names (folded);
CREATE INDEX names_folded_trgm ON names USING gin (folded {{pg_trgm}}.gin_trgm_ops);
CREATE TABLE links (
	path   text COLLATE "C" NOT NULL REFERENCES docs ON DELETE CASCADE,
	ord    integer NOT NULL,
	target text COLLATE "C" NOT NULL,
	PRIMARY KEY (path, ord)
);
CREATE INDEX links_target ON links (target);
CREATE TABLE folders (
	path    text COLLATE "C" PRIMARY KEY,
	title   text NOT NULL,
	summary text NOT NULL,
	tags    text[]
);
`,
	// 2: the library the schema holds (one per schema), recorded by its
	// first ingest, so that another library's ingest or server is refused
	// instead of silently replacing it (library.go).
	`
CREATE TABLE library (
	singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
	name       text NOT NULL,
	root       text NOT NULL,
	host       text NOT NULL,
	indexed_at timestamptz NOT NULL DEFAULT now()
);
-- Every role that may read the documents may read this table too: an
-- upgrade must not take a read-only server's access away until someone
-- runs GRANT SELECT again.
DO $$
DECLARE g record;
BEGIN
	FOR g IN SELECT DISTINCT a.grantee FROM pg_class c, aclexplode(c.relacl) a
		WHERE c.oid = 'docs'::regclass AND a.privilege_type = 'SELECT' AND a.grantee <> c.relowner
	LOOP
		IF g.grantee = 0 THEN
			EXECUTE 'GRANT SELECT ON library TO PUBLIC';
		ELSE
			EXECUTE format('GRANT SELECT ON library TO %s', g.grantee::regrole);
		END IF;
	END LOOP;
END $$;
`,
	// 3: ranked search by BM25 (ranked.go), which needs each section's
	// length; and section texts read with '<' and '>' as spaces, where
	// PostgreSQL's parser dropped the words between `<script>` and
	// `</script>` (codeAware). The vectors of version 2 lack both, so
	// every doc goes: the next ingest stores the library again (the
	// library is the source of truth, as a rebuilt SQLite index).
	`
ALTER TABLE sections ADD COLUMN length integer NOT NULL DEFAULT 0;
DELETE FROM docs;
INSERT INTO meta (key, value) VALUES ('generation', '1')
	ON CONFLICT (key) DO UPDATE SET value = to_jsonb((meta.value #>> '{}')::bigint + 1);
`,
	// 4: a heading's explicit anchor (`## Options {#opts}`) is its slug
	// (domain.StructureVersion 2): the stored sections of version 3 have
	// the ids of the old parse, which ranked search would answer with, so
	// every doc goes and the next ingest stores the library again.
	`
DELETE FROM docs;
INSERT INTO meta (key, value) VALUES ('generation', '1')
	ON CONFLICT (key) DO UPDATE SET value = to_jsonb((meta.value #>> '{}')::bigint + 1);
`,
	// 5: a doc's first section is searched with its frontmatter's facts
	// (a summary, a signature: passage.FrontmatterFacts), which the
	// vectors of version 4 lack: every doc goes, and the next ingest
	// stores the library again.
	`
DELETE FROM docs;
INSERT INTO meta (key, value) VALUES ('generation', '1')
	ON CONFLICT (key) DO UPDATE SET value = to_jsonb((meta.value #>> '{}')::bigint + 1);
`,
	// 6: a section is searched with its doc's path words beside the
	// title (domain.Document.PathWords), which the vectors of version 5
	// lack: every doc goes, and the next ingest stores the library again.
	`
DELETE FROM docs;
INSERT INTO meta (key, value) VALUES ('generation', '1')
	ON CONFLICT (key) DO UPDATE SET value = to_jsonb((meta.value #>> '{}')::bigint + 1);
`,
	// 7: and with its doc's tags; each doc keeps the hash of its title
	// and tags (domain.Document.DescriptionHash, as the bigint of its
	// bits), which a refresh compares, so that a doc whose tags change
	// while its file does not is stored again. The vectors of version 6
	// lack the tags and their rows the hash: every doc goes.
	`
DELETE FROM docs;
ALTER TABLE docs ADD COLUMN IF NOT EXISTS described bigint NOT NULL DEFAULT 0;
INSERT INTO meta (key, value) VALUES ('generation', '1')
	ON CONFLICT (key) DO UPDATE SET value = to_jsonb((meta.value #>> '{}')::bigint + 1);
`,
	// 8: words are stemmed with no stop list (librarian_english_stem):
	// the English one dropped words a question or a code name turns on
	// (only, not, all, before, after: test.only, runAllTimers), and the
	// question's own stop words are dropped before it is read
	// (ranked.go). The vectors of version 7 lack those words: every doc
	// goes, and the next ingest stores the library again. The dictionary
	// is made once: an upgrade test runs the step again.
	`
DO $$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_ts_dict WHERE dictname = 'librarian_english_stem' AND dictnamespace = current_schema()::regnamespace) THEN
		CREATE TEXT SEARCH DICTIONARY librarian_english_stem (TEMPLATE = snowball, Language = english);
	END IF;
END $$;
ALTER TEXT SEARCH CONFIGURATION librarian_english
	ALTER MAPPING FOR asciiword, asciihword, hword_asciipart WITH librarian_english_stem;
ALTER TEXT SEARCH CONFIGURATION librarian_english
	ALTER MAPPING FOR word, hword, hword_part WITH {{unaccent}}.unaccent, librarian_english_stem;
DELETE FROM docs;
INSERT INTO meta (key, value) VALUES ('generation', '1')
	ON CONFLICT (key) DO UPDATE SET value = to_jsonb((meta.value #>> '{}')::bigint + 1);
`,
	// 9: a snake_case name is searched by its joined form too
	// (OTEL_SDK_DISABLED: otelsdkdisabled, codeAware), which the vectors
	// of version 8 lack: every doc goes, and the next ingest stores the
	// library again.
	`
DELETE FROM docs;
INSERT INTO meta (key, value) VALUES ('generation', '1')
	ON CONFLICT (key) DO UPDATE SET value = to_jsonb((meta.value #>> '{}')::bigint + 1);
`,
}

// tables are the section index's tables, which every role that serves it
// must be able to read (postgresdb.CheckReadable).
var tables = []string{"schema_versions", "meta", "docs", "sections", "names", "links", "folders"}

// schema is the section index's part of the database.
var schema = postgresdb.Migrations{Component: "sectionindex", Extensions: []string{"pg_trgm", "unaccent"}, Steps: migrations}

// SchemaVersion is the schema version this build writes and reads.
var SchemaVersion = len(migrations)

// ErrNewerSchema: the database holds a schema from a newer librarian.
var ErrNewerSchema = postgresdb.ErrNewerSchema

// ErrUnreachable: no server answered (down, or the network is); Open may
// succeed later.
var ErrUnreachable = postgresdb.ErrUnreachable

// ErrNoPrivilege: the role lacks USAGE on the schema or SELECT on one of
// its tables; the error names the grant and the GRANT statement to run.
var ErrNoPrivilege = postgresdb.ErrNoPrivilege
