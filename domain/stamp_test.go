package domain

import (
	"testing"
	"time"
)

func TestStampEqual(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)
	base := Stamp{Size: 10, ModTime: at, Inode: 7, Changed: at.Add(time.Second)}
	tests := []struct {
		name  string
		other Stamp
		want  bool
	}{
		{"same", base, true},
		{"same instants in another zone", Stamp{Size: 10, ModTime: at.In(time.FixedZone("X", 3600)), Inode: 7, Changed: at.Add(time.Second).Local()}, true},
		{"size", Stamp{Size: 11, ModTime: at, Inode: 7, Changed: base.Changed}, false},
		{"modification time", Stamp{Size: 10, ModTime: at.Add(time.Nanosecond), Inode: 7, Changed: base.Changed}, false},
		{"inode", Stamp{Size: 10, ModTime: at, Inode: 8, Changed: base.Changed}, false},
		// An in-place edit with its times put back moves only this.
		{"change time", Stamp{Size: 10, ModTime: at, Inode: 7, Changed: base.Changed.Add(time.Nanosecond)}, false},
		{"change time unknown", Stamp{Size: 10, ModTime: at, Inode: 7}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := base.Equal(tt.other); got != tt.want {
				t.Errorf("%+v.Equal(%+v) = %v, want %v", base, tt.other, got, tt.want)
			}
			if got := tt.other.Equal(base); got != tt.want {
				t.Errorf("%+v.Equal(%+v) = %v, want %v (not symmetric)", tt.other, base, got, tt.want)
			}
		})
	}
}

func TestUnsettledStampRoundTrip(t *testing.T) {
	for _, size := range []int64{0, 1, 1542} {
		s := Stamp{Size: size, Inode: 7}
		u := s.Unsettled()
		if !u.IsUnsettled() || u.Equal(s) || u.Unsettled() != u || u.Settled() != s || s.Settled() != s || s.IsUnsettled() {
			t.Errorf("size %d: unsettled %+v, settled again %+v", size, u, u.Settled())
		}
	}
}
