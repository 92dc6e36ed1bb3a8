package rootfs

import (
	"reflect"
	"testing"
)

func TestRecordsRoundTripAndCuts(t *testing.T) {
	var w RecordWriter
	w.Int(-7)
	w.Bytes(nil)
	w.String("héllo")
	w.Strings([]string{"a", "", "b"})
	w.Strings(nil)
	w.Bool(true)
	read := func(b []byte) (RecordReader, []any) {
		r := RecordReader{B: b}
		return r, []any{r.Int(), r.Bytes(), r.String(), r.Strings(), r.Strings(), r.Bool()}
	}
	r, got := read(w.B)
	want := []any{int64(-7), []byte{}, "héllo", []string{"a", "", "b"}, []string(nil), true}
	if r.Bad || !reflect.DeepEqual(got, want) || len(r.B) != 0 {
		t.Fatalf("read back %#v (bad %v, %d left), want %#v", got, r.Bad, len(r.B), want)
	}
	for cut := 0; cut < len(w.B); cut++ {
		if r, _ := read(w.B[:cut]); !r.Bad {
			t.Errorf("cut at %d of %d bytes: not Bad", cut, len(w.B))
		}
	}
	// An impossible length is Bad, not a panic or a huge allocation.
	var huge RecordWriter
	huge.Int(1 << 60)
	if r := (RecordReader{B: huge.B}); r.Bytes() != nil || !r.Bad {
		t.Error("a length past the end was read")
	}
	if r := (RecordReader{B: huge.B}); r.Count() != 0 || !r.Bad {
		t.Error("a count past the end was read")
	}
}
