package answer

import (
	"strings"
	"testing"

	"github.com/librarian/librarian/domain/wording"
)

func TestPlaceholders(t *testing.T) {
	cases := []struct{ got, want string }{
		{ReturnedAbove(5, 9, []string{"select[0]", "select[2]"}), "[L5–9 already returned above (select[0], select[2])]"},
		{ImageLabel("arch", ""), "arch"},
		{ImageLabel("arch", "The\nsystem"), "arch — The system"},
		{ImageLabel("arch", strings.Repeat("x", 300)), "arch — " + wording.OneLine(strings.Repeat("x", 300), 200)},
		{ImageUnknown("arch"), "[image unknown: arch (see Notes)]"},
		{ImageOmitted("arch — A"), "[image omitted: arch — A]"},
		{ImageShownAbove("arch", 12), "[image arch: shown above, at L12]"},
		{ImageTooLarge("arch", 5<<20), "[image omitted: arch (larger than the 5 MB limit, LIBRARY_MAX_IMAGE_BYTES)]"},
		{ImageUnavailable("arch"), "[image unavailable: arch (see Notes)]"},
		{ImageOverAnswerLimit("arch", 1536), "[image omitted: arch (this answer already carries 1.5 KB of images, the limit for one answer: ask for this doc again with include_images)]"},
		{FormatBytes(1), "1 byte"},
		{FormatBytes(1023), "1023 bytes"},
		{FormatBytes(2048), "2 KB"},
		{FormatBytes(3 << 19), "1.5 MB"},
		{FormatBytes(10 << 20), "10 MB"},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
