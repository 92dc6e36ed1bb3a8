package sqlitesectionindex

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
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
// to the database, which then writes a new one in the background.

// snapshotMagic opens a snapshot file (format version 1).
const snapshotMagic = "LIBRTXT1"

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
// instance and gen, else nil. Their contents are slices of one buffer,
// outside the Go heap where the system allows (readOffHeap); the paths
// are copied into the heap.
func readSnapshot(file, instance string, gen int64) []sectionindex.Text {
	if file == "" || instance == "" {
		return nil
	}
	if !snapshotNames(file, instance, gen) {
		return nil
	}
	raw, err := readOffHeap(file)
	if err != nil {
		return nil
	}
	out := parseSnapshot(raw, instance, gen)
	if out == nil {
		releaseOffHeap(raw)
	}
	return out
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
// instance and gen and are whole, else nil.
func parseSnapshot(raw []byte, instance string, gen int64) []sectionindex.Text {
	r := rootfs.RecordReader{B: raw}
	if string(r.Raw(len(snapshotMagic))) != snapshotMagic || r.String() != instance || r.Int() != gen {
		return nil
	}
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
		t.Content = r.Bytes()
		if r.Bad {
			return nil
		}
		out = append(out, t)
	}
	if r.Bad || len(r.B) != 0 {
		return nil
	}
	return out
}

// writeSnapshot writes texts as the snapshot of instance at gen, replacing
// any older one atomically (two servers on one file never read half of one).
func writeSnapshot(file, instance string, gen int64, texts []sectionindex.Text) error {
	size := len(snapshotMagic) + 64
	for _, t := range texts {
		size += len(t.Path) + len(t.Content) + 64
	}
	w := rootfs.RecordWriter{B: make([]byte, 0, size)}
	w.B = append(w.B, snapshotMagic...)
	w.String(instance)
	w.Int(gen)
	w.Int(int64(len(texts)))
	for _, t := range texts {
		w.String(t.Path)
		w.Int(t.Stamp.Size)
		w.Int(toNanos(t.Stamp.ModTime))
		w.Int(int64(t.Stamp.Inode))
		w.Int(toNanos(t.Stamp.Changed))
		w.Int(int64(t.FrontmatterEnd))
		w.Bytes(t.Content)
	}
	if err := rootfs.WriteAtomic(file, w.B, 0o644); err != nil {
		return fmt.Errorf("the text snapshot: %w", err)
	}
	return nil
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
