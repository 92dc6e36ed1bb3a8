package postgressectionindex_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/librarian/librarian/adapters/postgresdb/postgrestest"
	"github.com/librarian/librarian/adapters/postgressectionindex"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
	"github.com/librarian/librarian/ports/sectionindex/sectionindextest"
)

// A section that writes `<script setup>` in its prose is found by its
// words: PostgreSQL's parser drops what it takes for an XML tag, and every
// word between `<script>` and `</script>`. An index of schema version 2,
// whose vectors were cut so, is emptied by the upgrade and stored again.
func TestRankedReadsTagsAsWords(t *testing.T) {
	d := postgrestest.DSN(t)
	ix := fresh(t, d)
	e := sectionindextest.MarkdownEntry("sfc.md", "Single-file components", nil,
		"# Single-file components\n\n## `<script setup>`\n\nA `<script>` tag with a `setup` attribute runs once per component instance, compiled ahead of time.\n\n## Styles\n\nScoped styles apply to this component only.\n")
	put := func(ix *postgressectionindex.Index) { putEntry(t, ix, e) }
	found := func(ix *postgressectionindex.Index) string {
		return bestSection(t, ix, "does the script setup block run once per instance, compiled ahead of time?")
	}
	put(ix)
	if got := found(ix); got != "sfc.md#single-file-components/script-setup" {
		t.Errorf("best section %q, want sfc.md#single-file-components/script-setup (its words lost to the tag?)", got)
	}
	ix.Close()

	// The same schema as version 2 left it: no length column.
	schema := schemaFor(t.Name())
	exec(t, d, `ALTER TABLE `+schema+`.sections DROP COLUMN length`)
	up := upgradedFrom(t, d, schema, 2)
	put(up)
	if got := found(up); got != "sfc.md#single-file-components/script-setup" {
		t.Errorf("after the upgrade, best section %q, want sfc.md#single-file-components/script-setup", got)
	}
}

// An index of schema version 3 holds the section ids of the parse before
// explicit anchors (`## Options {#opts}`) were slugs: the upgrade empties
// it, so that ranked search never answers with an id the docs no longer
// have, and the next ingest stores the new ones.
func TestUpgradeDropsSectionIDsOfTheOldParse(t *testing.T) {
	d := postgrestest.DSN(t)
	ix := fresh(t, d)
	ctx := context.Background()
	e := sectionindextest.MarkdownEntry("config.md", "Config", nil,
		"# Config\n\n## coverage.enabled {#coverage-enabled}\n\nCollects coverage when true.\n")
	if err := ix.Apply(ctx, sectionindex.Update{Put: []sectionindex.Entry{e}}); err != nil {
		t.Fatal(err)
	}
	if c := mustCatalog(t, ix); len(c.Docs) != 1 {
		t.Fatalf("the index lists %d docs, want 1", len(c.Docs))
	}
	ix.Close()
	upgradedFrom(t, d, schemaFor(t.Name()), 3)
}

// An index of schema version 4 lacks the frontmatter's facts in the
// vectors of docs' first sections (passage.FrontmatterFacts): the upgrade
// empties it, and the next ingest stores the docs with them.
func TestUpgradeDropsVectorsWithoutFrontmatterFacts(t *testing.T) {
	d := postgrestest.DSN(t)
	ix := fresh(t, d)
	e := sectionindextest.MarkdownEntry("clip.md", "Clip", nil, "# Clip\n\nClipping keeps tags balanced.\n")
	if err := ix.Apply(context.Background(), sectionindex.Update{Put: []sectionindex.Entry{e}}); err != nil {
		t.Fatal(err)
	}
	if c := mustCatalog(t, ix); len(c.Docs) != 1 {
		t.Fatalf("the index lists %d docs, want 1", len(c.Docs))
	}
	ix.Close()
	upgradedFrom(t, d, schemaFor(t.Name()), 4)
}

// upgradedFrom marks schema as the section index's version, opens it (so
// migrating it to the current version) and checks the upgrade emptied it:
// its docs are stored again by the next ingest. The index is closed when
// the test ends.
func upgradedFrom(t *testing.T, dsn, schema string, version int) *postgressectionindex.Index {
	t.Helper()
	exec(t, dsn, fmt.Sprintf(`UPDATE %s.schema_versions SET version = %d WHERE component = 'sectionindex'`, schema, version))
	up, err := postgressectionindex.Open(context.Background(), dsn, postgressectionindex.Options{Schema: schema, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { up.Close() })
	if c := mustCatalog(t, up); len(c.Docs) != 0 {
		t.Fatalf("after the upgrade from version %d the index lists %d docs, want 0 (stored again by the next ingest)", version, len(c.Docs))
	}
	return up
}

// An index of schema version 6 lacks its docs' tags in the vectors and
// their description hashes (the described column): the upgrade adds the
// column and empties the index, and the next ingest stores the docs with
// both.
func TestUpgradeAddsDescriptionHashes(t *testing.T) {
	d := postgrestest.DSN(t)
	ix := fresh(t, d)
	ctx := context.Background()
	e := sectionindextest.MarkdownEntry("footer.md", "Footer", []string{"responsive"}, "# Footer\n\nSmall screens.\n")
	if err := ix.Apply(ctx, sectionindex.Update{Put: []sectionindex.Entry{e}}); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	schema := schemaFor(t.Name())
	exec(t, d, fmt.Sprintf(`ALTER TABLE %s.docs DROP COLUMN described`, schema))
	up := upgradedFrom(t, d, schema, 6)
	if err := up.Apply(ctx, sectionindex.Update{Put: []sectionindex.Entry{e}}); err != nil {
		t.Fatal(err)
	}
	if st, err := up.Stamps(ctx); err != nil || st["footer.md"].DescriptionHash != e.Doc.DescriptionHash() {
		t.Errorf("Stamps after the upgrade = %+v (%v), want the hash %d", st, err, e.Doc.DescriptionHash())
	}
	if r, err := up.Ranked(ctx, domain.RankedQuery{Text: "responsive"}); err != nil || len(r) != 1 {
		t.Errorf("Ranked(responsive) after the upgrade = %+v (%v), want the footer, by its tag", r, err)
	}
}

// A question's word glued to another by punctuation that joins no code
// name (`debug()/prettyDOM`, `OTEL_SDK_DISABLED=true?`) is read as two
// words, and a snake_case name, which PostgreSQL's parser splits with no
// whole form, as the phrase of all its parts: before, only the token's
// first lexeme (debug, otel) counted, and the section naming the rest lost
// to one repeating that first word.
func TestRankedReadsGluedAndSnakeCaseWords(t *testing.T) {
	ix := fresh(t, postgrestest.DSN(t))
	ctx := context.Background()
	entries := []sectionindex.Entry{
		sectionindextest.MarkdownEntry("utils.md", "Utilities", nil,
			"# Utilities\n\n## prettyDOM\n\nprettyDOM renders markup as text, cut off past its length.\n\n## Debugging\n\nDebug a test: debug output, debug logs, debug flags and debug levels.\n"),
		sectionindextest.MarkdownEntry("env.md", "Environment", nil,
			"# Environment\n\n## Turning it off\n\nSet `OTEL_SDK_DISABLED` to turn every signal off.\n\n## Otel names\n\nOtel, otel everywhere: otel names, otel prefixes, otel exporters.\n"),
	}
	if err := ix.Apply(ctx, sectionindex.Update{Put: entries}); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"how much markup will debug()/prettyDOM print?": "utils.md#utilities/prettydom",
		"what does OTEL_SDK_DISABLED=true do?":          "env.md#environment/turning-it-off",
	} {
		secs, err := ix.Ranked(ctx, domain.RankedQuery{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if len(secs) == 0 || secs[0].Path+"#"+secs[0].SectionID != want {
			t.Errorf("Ranked(%q) = %+v, want %s first", q, secs, want)
		}
	}
}

// Words of the English stop list are searchable (schema version 8): a
// question asking to run only one test finds the section writing `.only`,
// not the one repeating "test", and an index of version 7, whose vectors lack
// those words, is emptied by the upgrade and stored again.
func TestRankedFindsStopListWords(t *testing.T) {
	d := postgrestest.DSN(t)
	ix := fresh(t, d)
	e := sectionindextest.MarkdownEntry("focus.md", "Focus", nil,
		"# Focus\n\n## Focusing\n\nAdd `.only` to a test to run that test alone, skipping every other suite, file and hook of the project.\n\n## Tests\n\nTests run: each test runs in a test file, and a test run runs every test.\n")
	put := func(ix *postgressectionindex.Index) { putEntry(t, ix, e) }
	found := func(ix *postgressectionindex.Index) string { return bestSection(t, ix, "how do I run only that test?") }
	put(ix)
	if got := found(ix); got != "focus.md#focus/focusing" {
		t.Errorf("best section %q, want focus.md#focus/focusing (only dropped as a stop word?)", got)
	}
	ix.Close()
	up := upgradedFrom(t, d, schemaFor(t.Name()), 7)
	put(up)
	if got := found(up); got != "focus.md#focus/focusing" {
		t.Errorf("after the upgrade, best section %q, want focus.md#focus/focusing", got)
	}
}

// putEntry stores e in ix.
func putEntry(t *testing.T, ix *postgressectionindex.Index, e sectionindex.Entry) {
	t.Helper()
	if err := ix.Apply(context.Background(), sectionindex.Update{Put: []sectionindex.Entry{e}}); err != nil {
		t.Fatal(err)
	}
}

// bestSection is the path and section id of ix's best ranked section for
// question, "" for none.
func bestSection(t *testing.T, ix *postgressectionindex.Index, question string) string {
	t.Helper()
	secs, err := ix.Ranked(context.Background(), domain.RankedQuery{Text: question})
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) == 0 {
		return ""
	}
	return secs[0].Path + "#" + secs[0].SectionID
}

// Ranked answers the same whatever order the docs were stored in: when a
// common word matches more than the pool's cap (2,000 sections), the
// sections ts_rank ties at the cap are chosen by path, not by the order
// the heap met them (which follows the table's physical order, and so the
// order in which a busy ingest stored the docs).
func TestRankedPoolIgnoresStoreOrder(t *testing.T) {
	d := postgrestest.DSN(t)
	const docs = 2100
	entries := make([]sectionindex.Entry, docs)
	for i := range entries {
		entries[i] = sectionindextest.MarkdownEntry(fmt.Sprintf("widgets/w%04d.md", i), "Widget", nil, "# Widget\n\nThe widget turns once.\n")
	}
	best := func(ix *postgressectionindex.Index) []string {
		t.Helper()
		secs, err := ix.Ranked(context.Background(), domain.RankedQuery{Text: "widget", Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, s := range secs {
			paths = append(paths, s.Path)
		}
		return paths
	}
	want := []string{"widgets/w0000.md", "widgets/w0001.md", "widgets/w0002.md"}
	for _, order := range []string{"ascending", "descending"} {
		t.Run(order, func(t *testing.T) {
			ix := fresh(t, d)
			stored := slices.Clone(entries)
			if order == "descending" {
				slices.Reverse(stored)
			}
			for chunk := range slices.Chunk(stored, 300) {
				if err := ix.Apply(context.Background(), sectionindex.Update{Put: chunk}); err != nil {
					t.Fatal(err)
				}
			}
			if got := best(ix); !slices.Equal(got, want) {
				t.Errorf("stored %s, best sections %v, want %v (ties at the pool's cap broken by path)", order, got, want)
			}
		})
	}
}

// A section's score does not depend on when PostgreSQL last analyzed the
// table: BM25's count of sections is exact, not the planner's estimate,
// which an analyze run halfway through an ingest leaves stale (autovacuum
// runs when it will, later on a busy machine).
func TestRankedCountsSectionsExactly(t *testing.T) {
	d := postgrestest.DSN(t)
	ix := fresh(t, d)
	schema := schemaFor(t.Name())
	for i := range 20 {
		if i == 5 {
			exec(t, d, `ANALYZE `+schema+`.sections`)
		}
		body := "# Note\n\nNothing to see.\n"
		if i%4 == 0 {
			body = "# Widget\n\nThe widget turns once.\n"
		}
		putEntry(t, ix, sectionindextest.MarkdownEntry(fmt.Sprintf("notes/n%02d.md", i), "Note", nil, body))
	}
	score := func() float64 {
		t.Helper()
		reader, err := postgressectionindex.Open(context.Background(), d, postgressectionindex.Options{Schema: schema, Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		defer reader.Close()
		secs, err := reader.Ranked(context.Background(), domain.RankedQuery{Text: "widget"})
		if err != nil || len(secs) == 0 {
			t.Fatalf("ranked: %v, %d sections", err, len(secs))
		}
		return secs[0].Score
	}
	stale := score()
	exec(t, d, `ANALYZE `+schema+`.sections`)
	if analyzed := score(); stale != analyzed {
		t.Errorf("best score %g with the table analyzed at 5 docs of 20, %g analyzed at 20: want the same", stale, analyzed)
	}
}
