package rootfs

import "encoding/binary"

// The caches kept beside the section index (the frontmatter metadata cache,
// the text snapshot) are flat files of records in one encoding: integers as
// 8 little-endian bytes, byte strings and lists as their length then their
// items. A RecordWriter appends them; a RecordReader reads them back and,
// instead of failing on the spot, turns Bad once the bytes run out or a
// length is impossible, returning zero values from then on: the caller
// checks Bad once per record.

// RecordWriter appends records to B.
type RecordWriter struct{ B []byte }

// Int appends v.
func (w *RecordWriter) Int(v int64) { w.B = binary.LittleEndian.AppendUint64(w.B, uint64(v)) }

// Bytes appends p, after its length.
func (w *RecordWriter) Bytes(p []byte) {
	w.Int(int64(len(p)))
	w.B = append(w.B, p...)
}

// String appends s, after its length.
func (w *RecordWriter) String(s string) {
	w.Int(int64(len(s)))
	w.B = append(w.B, s...)
}

// Strings appends ss, after their count.
func (w *RecordWriter) Strings(ss []string) {
	w.Int(int64(len(ss)))
	for _, s := range ss {
		w.String(s)
	}
}

// Bool appends b as 1 or 0.
func (w *RecordWriter) Bool(b bool) {
	if b {
		w.Int(1)
	} else {
		w.Int(0)
	}
}

// RecordReader reads what a RecordWriter wrote from B.
type RecordReader struct {
	B   []byte
	Bad bool
}

// Raw reads the next n bytes as they are (a magic string, say).
func (r *RecordReader) Raw(n int) []byte {
	if r.Bad || n < 0 || n > len(r.B) {
		r.Bad = true
		return nil
	}
	p := r.B[:n:n]
	r.B = r.B[n:]
	return p
}

// Int reads an integer.
func (r *RecordReader) Int() int64 {
	p := r.Raw(8)
	if p == nil {
		return 0
	}
	return int64(binary.LittleEndian.Uint64(p))
}

// Bytes reads a byte string: a slice of B, never nil unless Bad.
func (r *RecordReader) Bytes() []byte {
	n := r.Int()
	if r.Bad || n < 0 || n > int64(len(r.B)) {
		r.Bad = true
		return nil
	}
	return r.Raw(int(n))
}

// String reads a byte string as a string (a copy).
func (r *RecordReader) String() string { return string(r.Bytes()) }

// Strings reads a list of strings (nil when empty).
func (r *RecordReader) Strings() []string {
	n := r.Count()
	var out []string
	for range n {
		out = append(out, r.String())
	}
	return out
}

// Bool reads what Bool wrote.
func (r *RecordReader) Bool() bool { return r.Int() == 1 }

// Count reads a number of items to follow: 0, and Bad, when it cannot be
// (more items than bytes left).
func (r *RecordReader) Count() int64 {
	n := r.Int()
	if r.Bad || n < 0 || n > int64(len(r.B)) {
		r.Bad = true
		return 0
	}
	return n
}
