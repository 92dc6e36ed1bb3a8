package postgressectionindex

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/librarian/librarian/ports/sectionindex"
)

// maxWriters caps the connections one Apply writes its puts on at once.
const maxWriters = 4

// putAll stores puts: split into up to maxWriters parts (no more than the
// cores here, nor than the pool can lend beside conn), each part written
// on a connection of its own, in one transaction, by bulk statements (COPY,
// and one INSERT … SELECT FROM unnest for the sections, whose tsvectors
// PostgreSQL computes). A file stored one transaction at a time, one
// statement per row, took the ingest of 10,000 docs 46 s, most of it one
// backend's CPU while the other core idled. A failed part leaves its docs
// as they were; the other parts may be stored, as the port allows.
func (ix *Index) putAll(ctx context.Context, conn *pgxpool.Conn, puts []sectionindex.Entry) error {
	if len(puts) == 0 {
		return nil
	}
	writers := min(maxWriters, runtime.GOMAXPROCS(0), int(ix.pool.Config().MaxConns)-1, len(puts))
	writers = max(writers, 1)
	parts := make([][]sectionindex.Entry, writers)
	for k := range parts {
		parts[k] = puts[k*len(puts)/writers : (k+1)*len(puts)/writers]
	}
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for k := 1; k < writers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := ix.pool.Acquire(ctx)
			if err != nil {
				errs[k] = ix.fail("connect to write", err)
				return
			}
			defer c.Release()
			errs[k] = ix.putPart(ctx, c, parts[k])
		}()
	}
	errs[0] = ix.putPart(ctx, conn, parts[0])
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// putPart replaces the docs of part in one transaction: their old rows go
// (and with them their sections, names and links), the new ones come in.
func (ix *Index) putPart(ctx context.Context, conn *pgxpool.Conn, part []sectionindex.Entry) error {
	rows, err := partRows(part)
	if err != nil {
		return ix.fail("store "+part[0].Doc.Path, err)
	}
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		// An index is rebuilt from the library, by stamps: a crash that
		// loses the last few commits (never half of one) only means those
		// files are stored again by the next run, so commits need not wait
		// for the disk.
		if _, err := tx.Exec(ctx, `SET LOCAL synchronous_commit = off`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM docs WHERE path = ANY($1)`, rows.paths); err != nil {
			return err
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"docs"}, docCopyColumns, pgx.CopyFromRows(rows.docs)); err != nil {
			return err
		}
		s := rows.sections
		if len(s.path) > 0 {
			// A section's length, for BM25, is its vector's count of
			// positions: its words but stop words (at most 256 of one word),
			// less the joined forms of its snake_case names (codeAwareJoined).
			if _, err := tx.Exec(ctx, `INSERT INTO sections (path, ord, section_id, start_line, end_line, search, length)
				SELECT p, o, id, st, en, v, greatest((SELECT coalesce(sum(array_length(u.positions, 1)), 0) FROM unnest(v) u) - j, 0) FROM (
					SELECT p, o, id, st, en, j, setweight(to_tsvector('librarian_english', h), 'A') ||
						setweight(to_tsvector('librarian_english', c), 'B') || setweight(to_tsvector('librarian_english', b), 'D') AS v
					FROM unnest($1::text[], $2::int[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::int[]) AS s(p, o, id, st, en, h, c, b, j)) x`,
				s.path, s.ord, s.id, s.start, s.end, s.heading, s.code, s.body, s.joined); err != nil {
				return err
			}
		}
		if len(rows.names) > 0 {
			if _, err := tx.CopyFrom(ctx, pgx.Identifier{"names"}, []string{"path", "ord", "kind", "name", "line", "signature", "folded"}, pgx.CopyFromRows(rows.names)); err != nil {
				return err
			}
		}
		if len(rows.links) > 0 {
			if _, err := tx.CopyFrom(ctx, pgx.Identifier{"links"}, []string{"path", "ord", "target"}, pgx.CopyFromRows(rows.links)); err != nil {
				return err
			}
		}
		return bumpGeneration(ctx, tx)
	})
	if err != nil {
		what := "store " + part[0].Doc.Path
		if len(part) > 1 {
			what = fmt.Sprintf("store %s and %d docs after it", part[0].Doc.Path, len(part)-1)
		}
		return ix.fail(what, err)
	}
	return nil
}

// docCopyColumns are the docs table's columns, in the order partRows gives them.
var docCopyColumns = []string{"path", "id", "title", "summary", "tokens", "has_tokens", "tags",
	"stamp_size", "stamp_mtime", "stamp_inode", "stamp_ctime", "described", "content", "structure", "folded"}

// sectionColumns are the sections of a part, column by column, for unnest.
type sectionColumns struct {
	path, id, heading, code, body []string
	ord, start, end, joined       []int32
}

// putRows is a part, as the rows its statements send.
type putRows struct {
	paths        []string
	docs         [][]any
	sections     sectionColumns
	names, links [][]any
}

// partRows prepares the rows of part: folded texts, section texts and
// parses as JSON, all computed here, on the caller's goroutine.
func partRows(part []sectionindex.Entry) (putRows, error) {
	var r putRows
	for _, e := range part {
		d := e.Doc
		structure, err := json.Marshal(e.Structure)
		if err != nil {
			return r, err
		}
		content := e.Content
		if content == nil {
			content = []byte{}
		}
		r.paths = append(r.paths, d.Path)
		r.docs = append(r.docs, []any{d.Path, clean(d.ID), clean(d.Title), clean(d.Summary), int32(d.Tokens), d.HasTokens, cleanAll(d.Tags),
			d.Stamp.Size, nanos(d.Stamp.ModTime), int64(d.Stamp.Inode), nanos(d.Stamp.Changed), int64(d.DescriptionHash()),
			content, json.RawMessage(structure), fold(content)})
		texts := sectionTexts(entryView{title: d.Title, pathWords: d.PathWords(), tags: strings.Join(d.Tags, " "),
			content: content, structure: e.Structure, names: e.Names})
		s := &r.sections
		for i, sec := range e.Structure.Sections {
			t := texts[i]
			s.path = append(s.path, d.Path)
			s.ord = append(s.ord, int32(i))
			s.id = append(s.id, clean(sec.ID))
			s.start = append(s.start, int32(sec.Start))
			s.end = append(s.end, int32(sec.End))
			s.heading = append(s.heading, t.heading)
			s.code = append(s.code, t.code)
			s.body = append(s.body, t.body)
			s.joined = append(s.joined, int32(t.joined))
		}
		for i, n := range e.Names {
			r.names = append(r.names, []any{d.Path, int32(i), clean(n.Kind), clean(n.Name), int32(n.Line), clean(n.Signature), foldString(n.Name)})
		}
		for i, l := range e.Links {
			r.links = append(r.links, []any{d.Path, int32(i), clean(l)})
		}
	}
	return r, nil
}
