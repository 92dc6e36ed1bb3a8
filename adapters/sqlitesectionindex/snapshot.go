package sqlitesectionindex

import (
	"bufio"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/librarian/librarian/adapters/rootfs"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
)

// The text snapshot: every doc's text (what Texts streams) in one flat
// file beside the database ("<file>-texts"), so that a restart loads the
// library's texts with one read instead of 11,111 rows through SQLite
// (30 ms instead of 200 ms of CPU for 52 MB). It is a cache: it names the
// database state it was made from (the file's instance and its generation,
// which every Apply that changes docs increases), a snapshot of any other
// state is ignored, and a missing, stale or corrupt one only sends Texts
// to the database, which writes a new one.
//
// The texts are served from the file, mapped (mapFile): a text's pages are
// read when a search reads it, and leave the process's memory when it is
// done with them (Evict), so memory does not grow with the library's size
// (52 MB of texts at 10,000 docs, 255 MB at 50,000). So the layout keeps
// the texts apart from what describes them: a head (magic, instance,
// generation), the texts one after another, a table (per text its path,
// stamp, body start, offset and length) and a tail (the table's offset,
// then the magic again, so a cut file is known).

// snapshotMagic opens and closes a snapshot file (format version 2).
const snapshotMagic = "LIBRTXT2"

func (ix *Index) snapshotFile() string {
	if ix.file == "" {
		return ""
	}
	return ix.file + "-texts"
}

// state is the database's instance and generation: what a snapshot of its
// texts must name.
func (ix *Index) state(ctx context.Context) (string, int64, error) {
	return stateOf(ctx, ix.db)
}

func stateOf(ctx context.Context, db querier) (string, int64, error) {
	var instance string
	var gen int64
	err := db.QueryRowContext(ctx, `SELECT
		coalesce((SELECT CAST(value AS TEXT) FROM meta WHERE key = 'instance'), ''),
		coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'generation'), 0)`).Scan(&instance, &gen)
	return instance, gen, err
}

// bumpGeneration marks, inside an Apply's transaction, that the docs changed.
func bumpGeneration(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('generation', 1)
		ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`)
	return err
}

// newInstance names a new database file, for its snapshots.
func newInstance() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// readSnapshot returns the texts of the snapshot at file when it names
// instance and gen, and the mapping they are slices of (nil when they were
// read, not mapped); no texts when it does not, or is not whole. The paths
// are copied into the heap.
func readSnapshot(file, instance string, gen int64) ([]sectionindex.Text, []byte) {
	if file == "" || instance == "" {
		return nil, nil
	}
	if !snapshotNames(file, instance, gen) {
		return nil, nil
	}
	raw, mapped, err := mapFile(file)
	if err != nil {
		return nil, nil
	}
	out := parseSnapshot(raw, instance, gen)
	switch {
	case out == nil && mapped:
		unmapFile(raw)
		return nil, nil
	case !mapped:
		return out, nil
	}
	return out, raw
}

// snapshotNames reads only the head of the snapshot at file: whether it
// names instance and gen.
func snapshotNames(file, instance string, gen int64) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(snapshotMagic)+8+len(instance)+8)
	if _, err := io.ReadFull(f, head); err != nil {
		return false
	}
	r := rootfs.RecordReader{B: head}
	return string(r.Raw(len(snapshotMagic))) == snapshotMagic && r.String() == instance && r.Int() == gen && !r.Bad
}

// parseSnapshot returns the texts of a snapshot's bytes when they name
// instance and gen and are whole, else nil. It reads the head, the tail and
// the table, never the texts themselves.
func parseSnapshot(raw []byte, instance string, gen int64) []sectionindex.Text {
	head := rootfs.RecordReader{B: raw}
	if string(head.Raw(len(snapshotMagic))) != snapshotMagic || head.String() != instance || head.Int() != gen || head.Bad {
		return nil
	}
	texts := len(raw) - len(head.B) // where the texts start
	if len(raw)-texts < 16 || string(raw[len(raw)-8:]) != snapshotMagic {
		return nil
	}
	tail := rootfs.RecordReader{B: raw[len(raw)-16 : len(raw)-8]}
	table := tail.Int()
	if table < int64(texts) || table > int64(len(raw)-16) {
		return nil
	}
	r := rootfs.RecordReader{B: raw[table : len(raw)-16]}
	n := r.Count()
	if r.Bad {
		return nil
	}
	out := make([]sectionindex.Text, 0, n)
	for range n {
		var t sectionindex.Text
		t.Path = r.String()
		t.Stamp = domain.Stamp{Size: r.Int(), ModTime: fromNanos(r.Int()), Inode: uint64(r.Int()), Changed: fromNanos(r.Int())}
		t.FrontmatterEnd = int(r.Int())
		off, size := r.Int(), r.Int()
		if r.Bad || off < int64(texts) || size < 0 || off > table || size > table-off {
			return nil
		}
		t.Content = raw[off : off+size : off+size]
		out = append(out, t)
	}
	if r.Bad || len(r.B) != 0 {
		return nil
	}
	return out
}

// snapshotWriter writes a snapshot one text at a time: only the table is
// held, so writing the texts of 50,000 docs holds none of them.
type snapshotWriter struct {
	file  string
	tmp   *os.File
	w     *bufio.Writer
	off   int64 // bytes written so far
	table rootfs.RecordWriter
	n     int64
}

// createSnapshot starts the snapshot of instance at gen, in a temporary
// file beside file that commit renames over it.
func createSnapshot(file, instance string, gen int64) (*snapshotWriter, error) {
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("the text snapshot: %w", err)
	}
	s := &snapshotWriter{file: file, tmp: tmp, w: bufio.NewWriterSize(tmp, 1<<20)}
	head := rootfs.RecordWriter{}
	head.B = append(head.B, snapshotMagic...)
	head.String(instance)
	head.Int(gen)
	s.write(head.B)
	return s, nil
}

func (s *snapshotWriter) write(b []byte) {
	n, _ := s.w.Write(b) // an error stays in the writer: Flush, in commit, returns it
	s.off += int64(n)
}

// add appends t.
func (s *snapshotWriter) add(t sectionindex.Text) {
	s.table.String(t.Path)
	s.table.Int(t.Stamp.Size)
	s.table.Int(toNanos(t.Stamp.ModTime))
	s.table.Int(int64(t.Stamp.Inode))
	s.table.Int(toNanos(t.Stamp.Changed))
	s.table.Int(int64(t.FrontmatterEnd))
	s.table.Int(s.off)
	s.table.Int(int64(len(t.Content)))
	s.n++
	s.write(t.Content)
}

// commit writes the table and the tail and puts the snapshot in place.
func (s *snapshotWriter) commit() error {
	table := s.off
	count := rootfs.RecordWriter{}
	count.Int(s.n)
	s.write(count.B)
	s.write(s.table.B)
	tail := rootfs.RecordWriter{}
	tail.Int(table)
	tail.B = append(tail.B, snapshotMagic...)
	s.write(tail.B)
	err := s.w.Flush()
	if cerr := s.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(s.tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(s.tmp.Name(), s.file)
	}
	if err != nil {
		os.Remove(s.tmp.Name())
		return fmt.Errorf("the text snapshot: %w", err)
	}
	return nil
}

// abort drops the snapshot being written.
func (s *snapshotWriter) abort() {
	s.tmp.Close()
	os.Remove(s.tmp.Name())
}

// writeSnapshot writes texts as the snapshot of instance at gen, replacing
// any older one atomically (two servers on one file never read half of one).
func writeSnapshot(file, instance string, gen int64, texts []sectionindex.Text) error {
	s, err := createSnapshot(file, instance, gen)
	if err != nil {
		return err
	}
	for _, t := range texts {
		s.add(t)
	}
	return s.commit()
}

// zeroNanos stands for the zero time, outside int64's range of nanoseconds.
const zeroNanos = math.MinInt64

func toNanos(t time.Time) int64 {
	if t.IsZero() {
		return zeroNanos
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == zeroNanos {
		return time.Time{}
	}
	return time.Unix(0, n)
}
